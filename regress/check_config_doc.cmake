# docs/config.md is exactly what `gpusim config --doc` prints (the keys the units declare, the
# bundled configs' values and sources). Inputs: GPUSIM, DOC.
execute_process(COMMAND ${GPUSIM} config --doc RESULT_VARIABLE rc OUTPUT_VARIABLE generated ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpusim config --doc failed (${rc}):\n${err}")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} differs from `gpusim config --doc`: a key's declaration or a config changed without "
                      "the reference. Run: build/gpusim config --doc > docs/config.md")
endif()
