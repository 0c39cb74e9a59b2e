# The timeline (--trace) agrees with the statistics and changes nothing: a run of one manifest with
# a timeline writes the same statistics file as one without (host seconds aside), and trace_check
# finds in the timeline every launch, block and copy of the statistics, with counters that add up
# to their totals. Inputs: GPUSIM, TRACE_CHECK, MANIFEST, MODE, OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
include(${CMAKE_CURRENT_LIST_DIR}/stats_run.cmake)
file(MAKE_DIRECTORY ${OUT})
run_for_stats(stats_plain ${OUT}/plain.json ${MANIFEST} --mode ${MODE} --no-summary)
run_for_stats(stats_traced ${OUT}/traced.json ${MANIFEST} --mode ${MODE} --no-summary --trace ${OUT}/trace.json --trace-interval 500)
string(JSON same EQUAL "${stats_plain}" "${stats_traced}")
if(NOT same)
  message(FATAL_ERROR "recording a timeline changed the run: compare ${OUT}/plain.json and ${OUT}/traced.json")
endif()
execute_process(COMMAND ${TRACE_CHECK} ${OUT}/trace.json ${OUT}/traced.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out}${err}")
endif()
message(STATUS "${out}")
