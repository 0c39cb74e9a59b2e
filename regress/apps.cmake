# The corpus of real-world-style CUDA programs (apps/*.cu, apps/README.md): each is built with
# nvcc as a user would build it, run unchanged on the replacement libcudart, and its stdout
# compared with what it printed on a real GPU (apps/expected). Without nvcc they are skipped.
file(GLOB app_sources RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/apps ${CMAKE_CURRENT_SOURCE_DIR}/apps/*.cu)
file(GLOB app_headers ${CMAKE_CURRENT_SOURCE_DIR}/apps/common/*.h)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/apps)
# device_select refuses a GPU older than the compute capability its PTX targets (7.5), as such
# helpers do: the model reports that capability to it (its units stay the config's).
set(app_env_device_select "GPUSIM_SET=chip.compute_capability=7.5")
# Builds dir/src into bin as a user would (nvcc, the shared runtime, compute_75 PTX, through the
# cache), or, without nvcc, adds `test` as a skipped test that says so. Sets built to whether it built.
function(gpusim_cuda_program test dir src bin built)
  if(NOT GPUSIM_NVCC)
    add_test(NAME ${test} COMMAND sh -c "echo 'nvcc is not on the PATH: ${dir}/${src} was not built'; exit 77")
    set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77)
    set(${built} FALSE PARENT_SCOPE)
    return()
  endif()
  add_custom_command(OUTPUT ${bin}
    COMMAND ${GPUSIM_NVCC_CACHED} ${bin} ${src} ${app_headers}
            -- ${GPUSIM_NVCC} -O2 -cudart shared -gencode arch=compute_75,code=compute_75 -Xcompiler -pthread -o ${bin} ${src}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${dir}
    DEPENDS ${dir}/${src} ${app_headers} COMMENT "nvcc ${dir}/${src}")
  set(${built} TRUE PARENT_SCOPE)
endfunction()

set(app_bins)
foreach(src ${app_sources})
  string(REGEX REPLACE "\\.cu$" "" app ${src})
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/apps/${app})
  gpusim_cuda_program(apps.${app} apps ${src} ${bin} built)
  if(NOT built)
    continue()
  endif()
  list(APPEND app_bins ${bin})
  set(modes functional timing)
  # Under the sanitizers the Thrust program's timing run (40 s there) adds no path that the other
  # programs' timing runs do not take.
  if(GPUSIM_SANITIZE AND app STREQUAL "thrust_algorithms")
    set(modes functional)
  endif()
  foreach(mode ${modes})
    set(name apps.${app})
    if(mode STREQUAL "timing")
      set(name apps.${app}.timing)
    endif()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DPROGRAM=${bin} -DNAME=${app}
             -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/apps/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
             -DOUT=${CMAKE_CURRENT_BINARY_DIR}/apps/${app}.${mode} -DMODE=${mode} "-DEXTRA_ENV=${app_env_${app}}"
             -DPRELOAD=${GPUSIM_CUDA_PRELOAD}
             -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
    set_tests_properties(${name} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
# Programs written in other styles run clean under both checks (docs/checks.md): no race or
# memcheck report, and the same output as on the GPU.
if(GPUSIM_NVCC)
  foreach(app histogram reduction_templates scan bitonic_sort cub_block coop_grid_sync transpose stencil_2d nbody spmv_csr)
    add_test(NAME apps.${app}.checked COMMAND ${CMAKE_COMMAND} -DPROGRAM=${CMAKE_CURRENT_BINARY_DIR}/apps/${app} -DNAME=${app}
             -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/apps/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
             -DOUT=${CMAKE_CURRENT_BINARY_DIR}/apps/${app}.checked -DCHECKS=ON -DPRELOAD=${GPUSIM_CUDA_PRELOAD}
             -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
    set_tests_properties(apps.${app}.checked PROPERTIES TIMEOUT 300)
  endforeach()
endif()
# Programs with streams, copies, polling loops, callbacks and many launches record a timeline
# (GPUSIM_TRACE: apps.NAME.traced) and a waveform (GPUSIM_VCD: apps.NAME.vcd) through the library
# that agree with their statistics, and print the same as without them; with a waveform the
# statistics must also equal a run's without one (its replay moves no time on by itself).
if(GPUSIM_NVCC)
  foreach(app stream_pipeline async_polling stream_callback bfs)
    foreach(kind traced vcd)
      if(kind STREQUAL "traced")
        set(recorder -DTRACE_CHECK=$<TARGET_FILE:trace_check>)
      else()
        set(recorder -DVCD_CHECK=$<TARGET_FILE:vcd_check>)
      endif()
      add_test(NAME apps.${app}.${kind} COMMAND ${CMAKE_COMMAND} -DPROGRAM=${CMAKE_CURRENT_BINARY_DIR}/apps/${app} -DNAME=${app}
               -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/apps/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
               -DOUT=${CMAKE_CURRENT_BINARY_DIR}/apps/${app}.${kind} -DMODE=timing ${recorder}
               -DPRELOAD=${GPUSIM_CUDA_PRELOAD} -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
      set_tests_properties(apps.${app}.${kind} PROPERTIES TIMEOUT 300)
    endforeach()
  endforeach()
endif()
# Programs whose blocks meet through atomics, polling, callbacks, the host's memory and grid
# barriers print the same and count the same statistics on 1 and 2 host threads, in both modes
# (the SMs of a quantum run on a pool of them: docs/architecture.md#host-threads).
if(GPUSIM_NVCC)
  foreach(app histogram atomics_mix kmeans bfs coop_grid_sync async_polling stream_callback zero_copy)
    foreach(mode functional timing)
      set(name apps.${app}.threads)
      if(mode STREQUAL "timing")
        set(name apps.${app}.threads_timing)
      endif()
      add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DPROGRAM=${CMAKE_CURRENT_BINARY_DIR}/apps/${app} -DNAME=${app}
               -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/apps/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
               -DOUT=${CMAKE_CURRENT_BINARY_DIR}/apps/${app}.${mode}_threads -DMODE=${mode} -DTHREADS_CHECK=ON
               "-DEXTRA_ENV=${app_env_${app}}" -DPRELOAD=${GPUSIM_CUDA_PRELOAD} -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
      set_tests_properties(${name} PROPERTIES TIMEOUT 300)
    endforeach()
  endforeach()
endif()
# Programs that synchronise through kernel boundaries, barriers, atomics, fences and grid barriers
# print what the GPU printed under the relaxed memory model too (docs/memory_model.md), in both
# modes: stores reordered and loads served late, wherever the program allows it.
if(GPUSIM_NVCC)
  foreach(app scan bfs lud cuda_graphs coop_grid_sync reduction_templates atomics_mix histogram kmeans stream_callback)
    foreach(mode functional timing)
      add_test(NAME apps.${app}.relaxed_${mode} COMMAND ${CMAKE_COMMAND} -DPROGRAM=${CMAKE_CURRENT_BINARY_DIR}/apps/${app} -DNAME=${app}
               -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/apps/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
               -DOUT=${CMAKE_CURRENT_BINARY_DIR}/apps/${app}.relaxed_${mode} -DMODE=${mode}
               "-DEXTRA_ENV=GPUSIM_SET=sim.memory_model=relaxed,sim.memory_seed=3" -DRELAXED=ON -DPRELOAD=${GPUSIM_CUDA_PRELOAD}
               -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
      set_tests_properties(apps.${app}.relaxed_${mode} PROPERTIES TIMEOUT 300)
    endforeach()
  endforeach()
endif()
# On the hopper-h100 config (loads hoisted, registers from liveness, grids paced), in timing mode:
# programs of shared memory, warp shuffles, atomics, CUB and cooperative groups print what the
# H100 printed; so do the runtime's answers as an H100 (every device attribute, device
# selection by properties) and managed memory with its packed __managed__ variables, with no
# GPUSIM_SET.
set(hopper_apps reduction_templates scan transpose cub_block histogram bitonic_sort lud attribute_codes device_select managed_memory)
if(GPUSIM_SANITIZE)
  set(hopper_apps scan)   # the new paths under the sanitizers, in less time (CI's budget)
endif()
if(GPUSIM_NVCC)
  foreach(app ${hopper_apps})
    add_test(NAME apps.${app}.hopper COMMAND ${CMAKE_COMMAND} -DPROGRAM=${CMAKE_CURRENT_BINARY_DIR}/apps/${app} -DNAME=${app}
             -DEXPECTED_DIR=${CMAKE_CURRENT_SOURCE_DIR}/apps/expected -DLIBDIR=$<TARGET_FILE_DIR:cudart>
             -DOUT=${CMAKE_CURRENT_BINARY_DIR}/apps/${app}.hopper -DMODE=timing -DCONFIG=hopper-h100
             -DPRELOAD=${GPUSIM_CUDA_PRELOAD} -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cuda.cmake)
    set_tests_properties(apps.${app}.hopper PROPERTIES TIMEOUT 300)
  endforeach()
endif()
# Kernel sampling (docs/timing.md#kernel-sampling) on the many-launch programs: the same output, and
# total cycles within 3 % of their full timing runs, on one host thread as on two.
find_package(Python3 COMPONENTS Interpreter)
if(GPUSIM_NVCC AND Python3_FOUND AND NOT GPUSIM_SANITIZE)
  foreach(case lud:fermi-gf100 needle:fermi-gf100 stencil_2d:fermi-gf100 hotspot:kepler-gk110 lud:hopper-h100)
    string(REPLACE ":" ";" parts ${case})
    list(GET parts 0 app)
    list(GET parts 1 config)
    add_test(NAME apps.${app}.sampling.${config}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_sampling.py 0.03 app
                     $<TARGET_FILE_DIR:cudart> ${CMAKE_CURRENT_BINARY_DIR}/apps/${app} ${config})
  endforeach()
endif()
add_custom_target(apps ALL DEPENDS ${app_bins} cudart)
