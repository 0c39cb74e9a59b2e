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

# require_same_stats(A B MESSAGE): fails the test with MESSAGE unless the statistics documents A and
# B (from run_for_stats) are equal, and leaves A's cycle count in `cycles`.
function(require_same_stats a b message)
  string(JSON same EQUAL "${a}" "${b}")
  if(NOT same)
    message(FATAL_ERROR "${message}")
  endif()
  string(JSON c GET "${a}" totals cycles)
  set(cycles ${c} PARENT_SCOPE)
endfunction()
