# gpusim run --junit: a test suite per manifest and a test case per launch, with each outcome in
# its JUnit form: a pass, a mismatch (failure), a race (failure of its own case), a device fault
# (error of the launch it stopped), bad input (error before any launch) and a known difference
# (skipped). Inputs: GPUSIM, REGRESS (the regress folder), OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
file(MAKE_DIRECTORY ${OUT})
set(xml ${OUT}/junit.xml)
execute_process(COMMAND ${GPUSIM} run --racecheck --junit ${xml} ${REGRESS}/kernels/reduce/manifest.json
                        ${REGRESS}/errors/mismatch.json ${REGRESS}/checks/race_reduce_missing_sync.json
                        ${REGRESS}/errors/texture_unbound.json ${REGRESS}/errors/not_json.json
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 4)
  message(FATAL_ERROR "expected exit 4 (the device fault is the most severe outcome), got ${rc}")
endif()
file(READ ${xml} doc)
foreach(expected
    "^<\\?xml version=\"1.0\" encoding=\"UTF-8\"\\?>\n<testsuites name=\"gpusim\" tests=\"6\" failures=\"2\" errors=\"2\" skipped=\"0\""
    "<testsuite name=\"reduce\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"[0-9.]+\">"
    "<property name=\"mode\" value=\"functional\"/>"
    "<testcase classname=\"reduce\" name=\"launches\\[0\\] reduce\" time=\"[0-9.]+\">\n      <system-out>[0-9]+ cycles, 21128 warp instructions</system-out>"
    "<testcase classname=\"mismatch\" name=\"launches\\[0\\] vadd\" time=\"[0-9.]+\">\n      <failure type=\"mismatch\" message=\"launches\\[0\\] \\(vadd\\): buffer &quot;d&quot; differs from [^\"]*vadd.bin: 1 of 4096 words differ"
    "<testcase classname=\"race_reduce_missing_sync\" name=\"racecheck\" time=\"0.000000\">\n      <failure type=\"race\" message=\"racecheck: [0-9]+ hazards found\">"
    "<testcase classname=\"texture_unbound\" name=\"launches\\[0\\] texref_sample\" time=\"[0-9.]+\">\n      <error type=\"device fault\" message=\"[^\"]*kernel &apos;texref_sample&apos; faulted: block \\(0,0,0\\)"
    "<testcase classname=\"not_json\" name=\"load\" time=\"0.000000\">\n      <error type=\"bad input\" message=\"[^\"]*not_json.json: error: invalid JSON")
  if(NOT doc MATCHES "${expected}")
    message(FATAL_ERROR "${xml} lacks:\n${expected}\n--- it holds:\n${doc}")
  endif()
endforeach()

# A known difference is skipped, with its reason.
file(WRITE ${OUT}/known.json "{\"cases\": {\"vadd\": \"the reference is for another n\"}}")
execute_process(COMMAND ${GPUSIM} run --known ${OUT}/known.json --junit ${xml} ${REGRESS}/errors/mismatch.json
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
file(READ ${xml} doc)
if(NOT rc EQUAL 0 OR NOT doc MATCHES "tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\".*<skipped message=\"known difference: the reference is for another n\"/>")
  message(FATAL_ERROR "a known difference should pass (exit ${rc}) and be skipped:\n${doc}")
endif()
message(STATUS "JUnit report checked")
