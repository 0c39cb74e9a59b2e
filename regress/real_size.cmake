# Programs in the shape of the four NVIDIA samples of issue 39 (real_size/*.cu, real_size/README.md):
# at their default sizes they are the measurement regress/tools/real_size.py makes (outside CI);
# here each runs at `--small` in both modes and prints what the H200 printed at that size
# (real_size/expected/NAME.small.out). Without nvcc they are skipped.
file(GLOB real_size_sources RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/real_size ${CMAKE_CURRENT_SOURCE_DIR}/real_size/*.cu)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/real_size)
set(real_size_bins)
foreach(src ${real_size_sources})
  string(REGEX REPLACE "\\.cu$" "" prog ${src})
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/real_size/${prog})
  gpusim_cuda_program(real_size.${prog} real_size ${src} ${bin} built)
  if(NOT built)
    continue()
  endif()
  list(APPEND real_size_bins ${bin})
  foreach(mode functional timing)
    set(name real_size.${prog})
    if(mode STREQUAL "timing")
      set(name real_size.${prog}.timing)
    endif()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DPROGRAM=${bin} -DARGS=--small -DNAME=${prog}.small
             -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/real_size/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
             -DOUT=${CMAKE_CURRENT_BINARY_DIR}/real_size/${prog}.${mode} -DMODE=${mode} -DCONFIG=kepler-gk110
             -DPRELOAD=${GPUSIM_CUDA_PRELOAD} -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
    set_tests_properties(${name} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
add_custom_target(real_size_programs ALL DEPENDS ${real_size_bins} cudart)
