# Host threads change no result: a manifest run on 1 host thread and on 2 and 3 writes the same
# statistics file (host seconds aside: cycles, every unit's counters, each buffer's digest), in
# the mode given. Inputs: GPUSIM, MANIFEST, MODE, OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
include(${CMAKE_CURRENT_LIST_DIR}/stats_run.cmake)
file(MAKE_DIRECTORY ${OUT})
foreach(threads 1 2 3)
  run_for_stats(stats_${threads} ${OUT}/${threads}.json ${MANIFEST} --mode ${MODE} --no-summary --threads ${threads})
  # The configuration echoes the setting itself.
  string(JSON stats_${threads} REMOVE "${stats_${threads}}" config sim threads)
endforeach()
foreach(threads 2 3)
  require_same_stats("${stats_1}" "${stats_${threads}}" "${threads} host threads changed the run: compare ${OUT}/1.json and ${OUT}/${threads}.json")
endforeach()
message(STATUS "1, 2 and 3 host threads agree: ${cycles} cycles, every statistic and buffer")
