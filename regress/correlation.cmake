# The correlation corpus (correlation/README.md): the programs of correlation/programs, built as
# the apps are (compute_75 PTX, the replacement libcudart), and the correlator's check of a quick
# part of the corpus against the cycles captured on the H100 (correlation/ci.json holds its
# programs and the bound on their mean absolute error). The default build makes the programs that
# check needs; `cmake --build build --target correlation_corpus` makes the rest, for a full run
# of regress/tools/correlate.py. Without nvcc the check is skipped; the sanitizer build leaves it
# out (it checks numbers, which the sanitizers do not change).
file(GLOB corr_sources RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/correlation/programs ${CMAKE_CURRENT_SOURCE_DIR}/correlation/programs/*.cu)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/correlation)
if(NOT GPUSIM_NVCC OR GPUSIM_SANITIZE)
  add_test(NAME timing.correlation.h100 COMMAND sh -c "echo 'no nvcc, or a sanitizer build: the corpus was not built'; exit 77")
  set_tests_properties(timing.correlation.h100 PROPERTIES SKIP_RETURN_CODE 77)
  return()
endif()
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/correlation/ci.json ci_json)
string(JSON ci_count LENGTH "${ci_json}" programs)
math(EXPR ci_last "${ci_count} - 1")
set(ci_programs)
foreach(k RANGE ${ci_last})
  string(JSON p GET "${ci_json}" programs ${k})
  list(APPEND ci_programs ${p})
endforeach()
set(corr_bins)
set(ci_bins)
foreach(src ${corr_sources})
  string(REGEX REPLACE "\\.cu$" "" prog ${src})
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/correlation/${prog})
  add_custom_command(OUTPUT ${bin}
    COMMAND ${GPUSIM_NVCC_CACHED} ${bin} ${src}
            -- ${GPUSIM_NVCC} -O2 -cudart shared -gencode arch=compute_75,code=compute_75 -o ${bin} ${src}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/correlation/programs
    DEPENDS correlation/programs/${src} COMMENT "nvcc correlation/programs/${src}")
  list(APPEND corr_bins ${bin})
  if(prog IN_LIST ci_programs)
    list(APPEND ci_bins ${bin})
  endif()
endforeach()
add_custom_target(correlation_programs ALL DEPENDS ${ci_bins} cudart)
add_custom_target(correlation_corpus DEPENDS ${corr_bins} cudart)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME timing.correlation.h100 COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tools/correlate.py run
           --build ${CMAKE_BINARY_DIR} --check ${CMAKE_CURRENT_SOURCE_DIR}/correlation/ci.json)
  set_tests_properties(timing.correlation.h100 PROPERTIES TIMEOUT 600)
endif()
