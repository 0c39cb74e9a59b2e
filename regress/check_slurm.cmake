# gpusim sweep --slurm against a real Slurm: a one-node cluster (munged, slurmctld, slurmd) that
# this test starts on loopback with everything under OUT (testbench/cli/slurm/start_cluster.sh). The
# sweep submitted as a job array, waited for, must write the same results.csv as the local run;
# so must one submitted with --no-wait and gathered with --collect. gpusim run --slurm must report
# three manifests as a local run does.
# Inputs: GPUSIM, REGRESS (the regress folder), SLURM (testbench/cli/slurm), OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(cluster ${OUT}/cluster)

macro(fail why)
  execute_process(COMMAND ${SLURM}/stop_cluster.sh ${cluster} OUTPUT_QUIET ERROR_QUIET)
  message(FATAL_ERROR "${why}")
endmacro()

execute_process(COMMAND ${SLURM}/start_cluster.sh ${cluster} RESULT_VARIABLE rc OUTPUT_VARIABLE env ERROR_VARIABLE log)
if(NOT rc EQUAL 0 OR NOT env MATCHES "export SLURM_CONF=([^\n]+)")
  fail("the test cluster did not start (${rc}):\n${log}")
endif()
set(conf ${CMAKE_MATCH_1})
message(STATUS "${log}")

set(spec ${OUT}/spec.json)
file(WRITE ${spec} "{
  \"name\": \"slurm\", \"mode\": \"timing\",
  \"parameters\": {\"sm.warp_schedulers\": [1, 2], \"smem.banks\": [16, 32]},
  \"workloads\": [{\"name\": \"reduce\", \"manifest\": \"${REGRESS}/kernels/reduce/manifest.json\"},
                {\"name\": \"vadd\", \"manifest\": \"${REGRESS}/kernels/vadd/manifest.json\"}],
  \"metrics\": {\"cycles\": \"totals.cycles\", \"ipc\": \"kernels.0.ipc\", \"dram_bytes\": \"kernels.*.dram.bytes\"}
}")

function(sweep dir)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SLURM_CONF=${conf} ${GPUSIM} sweep --no-plots ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("gpusim sweep ${ARGN} failed (${rc}):\n${out}${err}")
  endif()
  message(STATUS "gpusim sweep ${ARGN}:\n${out}")
  set(sweep_out "${out}" PARENT_SCOPE)
endfunction()

sweep(local -j 2 ${spec} -o ${OUT}/local)
file(READ ${OUT}/local/results.csv local_csv)

sweep(slurm --slurm ${spec} -o ${OUT}/slurm)
if(NOT sweep_out MATCHES "submitted job array [0-9]+ \\(8 runs\\) to Slurm")
  fail("the sweep did not go to Slurm as one array of 8 runs:\n${sweep_out}")
endif()
file(READ ${OUT}/slurm/results.csv slurm_csv)
if(NOT slurm_csv STREQUAL local_csv)
  fail("the Slurm sweep's results differ from the local run's:\n${slurm_csv}\n--- local:\n${local_csv}")
endif()

sweep(later --slurm --no-wait ${spec} -o ${OUT}/later)
if(EXISTS ${OUT}/later/results.csv)
  fail("--no-wait should return before the results exist")
endif()
sweep(collect --collect ${OUT}/later)
file(READ ${OUT}/later/results.csv later_csv)
if(NOT later_csv STREQUAL local_csv)
  fail("the collected results differ from the local run's:\n${later_csv}")
endif()

# gpusim run --slurm: the manifests as a job array, reported as a local run reports them (host
# seconds aside), with their JUnit report.
set(manifests ${REGRESS}/kernels/reduce/manifest.json ${REGRESS}/kernels/vadd/manifest.json ${REGRESS}/errors/mismatch.json)
foreach(where local slurm)
  set(extra)
  if(where STREQUAL "slurm")
    set(extra --slurm)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SLURM_CONF=${conf} ${GPUSIM} run --mode timing --no-summary ${extra}
                          --junit ${OUT}/run-${where}.xml ${manifests}
                  WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    fail("gpusim run ${extra} should exit 1 (one mismatch), not ${rc}:\n${out}${err}")
  endif()
  string(REGEX REPLACE " +[0-9]+\\.[0-9]+\n" "\n" rows_${where} "${out}")   # host seconds differ
  file(READ ${OUT}/run-${where}.xml xml)
  if(NOT xml MATCHES "tests=\"3\" failures=\"1\" errors=\"0\"")
    fail("gpusim run ${extra}: the JUnit report does not hold 3 cases with 1 failure:\n${xml}")
  endif()
endforeach()
if(NOT rows_slurm STREQUAL rows_local)
  fail("gpusim run --slurm reports otherwise than a local run:\n${rows_slurm}\n--- local:\n${rows_local}")
endif()
message(STATUS "gpusim run --slurm:\n${rows_slurm}")

execute_process(COMMAND ${SLURM}/stop_cluster.sh ${cluster} RESULT_VARIABLE rc ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the test cluster did not stop cleanly:\n${log}")
endif()
message(STATUS "Slurm: 8 runs as a job array, waited for and collected later, equal the local sweep\n${local_csv}")
