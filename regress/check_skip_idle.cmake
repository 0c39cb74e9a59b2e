# Skipping idle cycles (sim.skip_idle_cycles) is an optimization only: with it and without it a
# timing-mode run must take the same cycles on every SM and make the same memory traffic. A short
# quantum makes the SMs meet SystemC time often, which is where a skip could change the results.
# Inputs: GPUSIM, MANIFEST, OUT.
set(keys totals.cycles totals.warp_instructions gpu.l2.hits.value gpu.l2.misses.value gpu.l2.hits_under_miss.value
         gpu.dram_ctrl.read_bytes.value gpu.dram_ctrl.queue_cycles.value)
file(MAKE_DIRECTORY ${OUT})
foreach(skip true false)
  execute_process(COMMAND ${GPUSIM} run --mode timing --set sim.quantum_cycles=200 --set sim.skip_idle_cycles=${skip}
                          --stats ${OUT}/skip_${skip}.json ${MANIFEST}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the run with sim.skip_idle_cycles=${skip} failed (${rc}):\n${out}${err}")
  endif()
  file(READ ${OUT}/skip_${skip}.json stats_${skip})
endforeach()
string(JSON sms LENGTH ${stats_true} gpu)
math(EXPR last "${sms} - 1")
foreach(k RANGE ${last})
  string(JSON unit MEMBER ${stats_true} gpu ${k})
  if(unit MATCHES "^sm_")
    list(APPEND keys gpu.${unit}.clock.cycles.value gpu.${unit}.l1.l1_misses.value)
  endif()
endforeach()
foreach(key ${keys})
  string(REPLACE "." ";" path ${key})
  string(JSON a GET ${stats_true} ${path})
  string(JSON b GET ${stats_false} ${path})
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${key} differs: ${a} skipping idle cycles, ${b} scanning every cycle")
  endif()
endforeach()
list(LENGTH keys n)
message(STATUS "the same ${n} figures with and without skipping idle cycles")
