# Runs gpusim with ARGS (a |-separated list) and checks that it exits with EXPECTED: the exit codes
# are part of the command line's contract (docs/manifest.md, "Exit codes").
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${GPUSIM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECTED)
  message(FATAL_ERROR "gpusim ${args} exited with ${rc}, expected ${EXPECTED}\n${out}${err}")
endif()
