# Same input, same output: two runs of one manifest in one mode must write the same statistics
# file (cycles, every unit's counters, the digest of every buffer after the run), host seconds
# aside. Inputs: GPUSIM, MANIFEST, MODE, OUT (a scratch folder).
file(MAKE_DIRECTORY ${OUT})
foreach(run 1 2)
  execute_process(COMMAND ${GPUSIM} run ${MANIFEST} --mode ${MODE} --stats ${OUT}/${run}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} failed (${rc}):\n${out}${err}")
  endif()
  file(READ ${OUT}/${run}.json stats_${run})
  # Host time is the one thing allowed to differ.
  string(JSON stats_${run} REMOVE "${stats_${run}}" totals host_seconds)
endforeach()
string(JSON buffers GET "${stats_1}" buffers)
if(buffers STREQUAL "{}")
  message(FATAL_ERROR "the statistics hold no buffer digests")
endif()
string(JSON same EQUAL "${stats_1}" "${stats_2}")
if(NOT same)
  message(FATAL_ERROR "two ${MODE}-mode runs of ${MANIFEST} differ: compare ${OUT}/1.json and ${OUT}/2.json")
endif()
string(JSON cycles GET "${stats_1}" totals cycles)
message(STATUS "two ${MODE}-mode runs agree: ${cycles} cycles, statistics and buffers ${buffers}")
