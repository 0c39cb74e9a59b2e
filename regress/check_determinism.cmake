# Same input, same output: two runs of one manifest in one mode must write the same statistics
# file (cycles, every unit's counters, the digest of every buffer after the run), host seconds
# aside. Inputs: GPUSIM, MANIFEST, MODE, OUT (a scratch folder).
include(${CMAKE_CURRENT_LIST_DIR}/stats_run.cmake)
file(MAKE_DIRECTORY ${OUT})
foreach(run 1 2)
  run_for_stats(stats_${run} ${OUT}/${run}.json ${MANIFEST} --mode ${MODE})
endforeach()
string(JSON buffers GET "${stats_1}" buffers)
if(buffers STREQUAL "{}")
  message(FATAL_ERROR "the statistics hold no buffer digests")
endif()
require_same_stats("${stats_1}" "${stats_2}" "two ${MODE}-mode runs of ${MANIFEST} differ: compare ${OUT}/1.json and ${OUT}/2.json")
message(STATUS "two ${MODE}-mode runs agree: ${cycles} cycles, statistics and buffers ${buffers}")
