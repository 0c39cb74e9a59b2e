# run_for_stats(VAR STATS_FILE ARG...): runs `gpusim run ARG... --stats STATS_FILE`, fails the test
# when it does not pass, and leaves in VAR the statistics without host time, the one thing two
# runs may differ in. Needs GPUSIM.
function(run_for_stats var stats)
  execute_process(COMMAND ${GPUSIM} run ${ARGN} --stats ${stats} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpusim run ${ARGN} failed (${rc}):\n${out}${err}")
  endif()
  file(READ ${stats} doc)
  string(JSON doc REMOVE "${doc}" totals host_seconds)
  set(${var} "${doc}" PARENT_SCOPE)
endfunction()
