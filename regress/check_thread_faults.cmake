# A launch that faults in many SMs reports the same fault on 1, 2 and 3 host threads: faults on
# the SMs' own (fault_apart.json) and in their turns (fault_turn.json), in the mode given.
# Inputs: GPUSIM, DIR (regress/threads), MODE (functional or timing).
cmake_minimum_required(VERSION 3.16)
foreach(manifest fault_apart fault_turn)
  foreach(threads 1 2 3)
    execute_process(COMMAND ${GPUSIM} run ${DIR}/${manifest}.json --mode ${MODE} --threads ${threads} --no-summary
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out_${threads} ERROR_VARIABLE err)
    string(APPEND out_${threads} "${err}")
    if(rc EQUAL 0 OR NOT out_${threads} MATCHES "faulted: block \\([0-9]+,0,0\\) thread")
      message(FATAL_ERROR "${manifest} on ${threads} threads: expected a fault (exit ${rc}):\n${out_${threads}}")
    endif()
  endforeach()
  foreach(threads 2 3)
    if(NOT out_${threads} STREQUAL out_1)
      message(FATAL_ERROR "${manifest}: ${threads} host threads reported\n${out_${threads}}\n1 host thread\n${out_1}")
    endif()
  endforeach()
  string(REGEX MATCH "block \\([0-9]+,0,0\\) thread \\([0-9]+,0,0\\)" where "${out_1}")
  message(STATUS "${manifest}: 1, 2 and 3 host threads report ${where}")
endforeach()
