# The timeline (--trace) agrees with the statistics and changes nothing: a run of one manifest with
# a timeline writes the same statistics file as one without (host seconds aside), and trace_check
# finds in the timeline every launch, block and copy of the statistics, with counters that add up
# to their totals. Inputs: GPUSIM, TRACE_CHECK, MANIFEST, MODE, OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
file(MAKE_DIRECTORY ${OUT})
foreach(run plain traced)
  set(extra)
  if(run STREQUAL "traced")
    set(extra --trace ${OUT}/trace.json --trace-interval 500)
  endif()
  execute_process(COMMAND ${GPUSIM} run ${MANIFEST} --mode ${MODE} --no-summary --stats ${OUT}/${run}.json ${extra}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${run} run failed (${rc}):\n${out}${err}")
  endif()
  file(READ ${OUT}/${run}.json stats_${run})
  string(JSON stats_${run} REMOVE "${stats_${run}}" totals host_seconds)
endforeach()
string(JSON same EQUAL "${stats_plain}" "${stats_traced}")
if(NOT same)
  message(FATAL_ERROR "recording a timeline changed the run: compare ${OUT}/plain.json and ${OUT}/traced.json")
endif()
execute_process(COMMAND ${TRACE_CHECK} ${OUT}/trace.json ${OUT}/traced.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out}${err}")
endif()
message(STATUS "${out}")
