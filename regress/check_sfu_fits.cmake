# rtl_models/sfu/mufu_table_fits.h is exactly what the fitter writes from the captured tables
# (testbench/sfu/fit/fit_tables.cpp, docs/sfu.md): the coefficients are derived, never edited.
# Inputs: FITTER, HEADER, OUT.
execute_process(COMMAND ${FITTER} ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fitter failed (${rc}):\n${err}")
endif()
file(READ ${OUT} generated)
file(READ ${HEADER} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${HEADER} differs from what the fitter writes. Run: build/testbench/sfu_fit_tables ${HEADER}")
endif()
