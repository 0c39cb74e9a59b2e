# Runs gpusim with ARGS (a |-separated list), checks that it exits with EXPECTED, and that what it
# printed (stdout and stderr together) matches every regular expression of PATTERNS (separated by
# @@; a pattern may hold ';' and '|', which ctest's own PASS_REGULAR_EXPRESSION cannot).
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${GPUSIM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECTED)
  message(FATAL_ERROR "gpusim ${args} exited with ${rc}, expected ${EXPECTED}\n${out}${err}")
endif()
if(PATTERNS)
  string(REPLACE "@@" ";" patterns "${PATTERNS}")
  foreach(p ${patterns})
    if(NOT "${out}${err}" MATCHES "${p}")
      message(FATAL_ERROR "gpusim ${args}: the output does not match\n  ${p}\n--- output:\n${out}${err}")
    endif()
  endforeach()
endif()
