# The libraries of the model: one per folder of tlm/, rtl_models/ and sw/, declared from the bottom
# up. A library links the folders its files include, and nothing else; every one of them is
# declared before it, so no include runs back up and there is no circle. regress.layers
# (regress/tools/check_layers.py) holds the includes against these declarations
# (docs/architecture.md, "Where things go").
#
# gpusim_library(NAME FOLDER folder SOURCES files... [DEPENDS names...] [LIBS external targets...])
# makes the static library gpusim_NAME (an interface library where there are no sources). Where
# the sanitizer build puts ASan in the plain C++ core only (GPUSIM_ASAN), it also makes
# gpusim_NAME_checked, the same with ASan, for the tests that run no simulation; elsewhere that
# name is an alias of gpusim_NAME.

# Every library's includes start at one of these roots: "isa/isa.h", "protocol/memory_map.h",
# "ptx/parser.h". regress.layers fails when two roots hold folders of one name.
add_library(gpusim_include_path INTERFACE)
target_include_directories(gpusim_include_path INTERFACE ${CMAKE_SOURCE_DIR}/rtl_models ${CMAKE_SOURCE_DIR}/tlm ${CMAKE_SOURCE_DIR}/sw)
target_compile_definitions(gpusim_include_path INTERFACE SC_COPYRIGHT_MESSAGE=DISABLE)

function(gpusim_library name)
  cmake_parse_arguments(L "" "FOLDER" "SOURCES;DEPENDS;LIBS" ${ARGN})
  set(deps)
  set(checked_deps)
  foreach(d ${L_DEPENDS})
    list(APPEND deps gpusim_${d})
    list(APPEND checked_deps gpusim_${d}_checked)
  endforeach()
  if(L_SOURCES)
    set(variants "${name}")
    if(GPUSIM_ASAN)
      list(APPEND variants "${name}_checked")
    endif()
    foreach(v ${variants})
      add_library(gpusim_${v} STATIC ${L_SOURCES})
      target_link_libraries(gpusim_${v} PUBLIC gpusim_include_path ${L_LIBS})
      if(v MATCHES "_checked$")
        target_link_libraries(gpusim_${v} PUBLIC ${checked_deps})
        target_compile_options(gpusim_${v} PUBLIC ${GPUSIM_ASAN})
        target_link_options(gpusim_${v} PUBLIC ${GPUSIM_ASAN})
      else()
        target_link_libraries(gpusim_${v} PUBLIC ${deps})
      endif()
    endforeach()
  else()
    add_library(gpusim_${name} INTERFACE)
    target_link_libraries(gpusim_${name} INTERFACE gpusim_include_path ${deps} ${L_LIBS})
    if(GPUSIM_ASAN)
      add_library(gpusim_${name}_checked INTERFACE)
      target_link_libraries(gpusim_${name}_checked INTERFACE gpusim_include_path ${checked_deps} ${L_LIBS})
    endif()
  endif()
  if(NOT GPUSIM_ASAN)
    add_library(gpusim_${name}_checked ALIAS gpusim_${name})
  endif()
  gpusim_layer(${name} ${L_FOLDER} ${L_DEPENDS})
endfunction()

# Records what regress.layers checks: `folder` (of library `name`) includes the folders of the
# libraries `deps`, each declared before it. The list goes to build/layers.txt, a line per folder.
function(gpusim_layer name folder)
  set(entry "${folder}")
  foreach(d ${ARGN})
    get_property(dep_folder GLOBAL PROPERTY gpusim_folder_of_${d})
    if(NOT dep_folder)
      message(FATAL_ERROR "${folder} depends on ${d}, which is not declared before it")
    endif()
    string(APPEND entry " ${dep_folder}")
  endforeach()
  set_property(GLOBAL PROPERTY gpusim_folder_of_${name} ${folder})
  set_property(GLOBAL APPEND PROPERTY gpusim_layers "${entry}")
  get_property(layers GLOBAL PROPERTY gpusim_layers)
  string(REPLACE ";" "\n" text "${layers}")
  file(WRITE ${CMAKE_BINARY_DIR}/layers.txt "${text}\n")
endfunction()

# Compile definitions for a library and its checked twin.
function(gpusim_library_definitions name)
  target_compile_definitions(gpusim_${name} PUBLIC ${ARGN})
  if(GPUSIM_ASAN)
    target_compile_definitions(gpusim_${name}_checked PUBLIC ${ARGN})
  endif()
endfunction()

set(GPUSIM_BASE_LIBS PkgConfig::SYSTEMC fmt::fmt nlohmann_json::nlohmann_json)

# tlm/: the TLM-2.0 plumbing. It stands on nothing of rtl_models/.
gpusim_library(tlm_protocol FOLDER tlm/protocol SOURCES tlm/protocol/memory_request.cpp tlm/protocol/bandwidth_windows.cpp LIBS ${GPUSIM_BASE_LIBS})
gpusim_library(tlm_memory FOLDER tlm/memory
  SOURCES tlm/memory/host_memory.cpp tlm/memory/managed_pages.cpp tlm/memory/memory_target.cpp tlm/memory/sparse_store.cpp tlm/memory/huge_pages.cpp
  DEPENDS tlm_protocol LIBS Threads::Threads)
gpusim_library(tlm_pcie FOLDER tlm/pcie SOURCES tlm/pcie/pcie_link.cpp DEPENDS tlm_protocol)
gpusim_library(tlm_dma FOLDER tlm/dma SOURCES tlm/dma/dma_engine.cpp DEPENDS tlm_protocol tlm_pcie)
gpusim_library(tlm_interconnect FOLDER tlm/interconnect SOURCES tlm/interconnect/router.cpp LIBS ${GPUSIM_BASE_LIBS})

# rtl_models/config: the config's keys, declared by the units that read them (docs/config.md).
gpusim_library(config FOLDER rtl_models/config SOURCES rtl_models/config/config_schema.cpp rtl_models/config/config_reference.cpp LIBS ${GPUSIM_BASE_LIBS})

# rtl_models/isa: the base room, what every unit shares; it includes nothing above it.
gpusim_library(isa FOLDER rtl_models/isa SOURCES rtl_models/isa/op_class_keys.cpp rtl_models/isa/op_class.cpp rtl_models/isa/op_registry.cpp rtl_models/isa/reports.cpp
  LIBS ${GPUSIM_BASE_LIBS} DEPENDS config)
gpusim_library(cache FOLDER rtl_models/cache SOURCES rtl_models/cache/cache_keys.cpp rtl_models/cache/tag_cache.cpp DEPENDS config)
gpusim_library(trace FOLDER rtl_models/trace SOURCES rtl_models/trace/trace_recorder.cpp rtl_models/trace/vcd_recorder.cpp
  LIBS ${GPUSIM_BASE_LIBS})
gpusim_library(check FOLDER rtl_models/check SOURCES rtl_models/check/check_keys.cpp rtl_models/check/allocation_map.cpp rtl_models/check/race_check.cpp
  DEPENDS config isa)

# The execution units.
gpusim_library(alu FOLDER rtl_models/alu
  SOURCES rtl_models/alu/pipe_keys.cpp rtl_models/alu/alu_ops.cpp rtl_models/alu/int_ops.cpp rtl_models/alu/bit_ops.cpp rtl_models/alu/float_ops.cpp
          rtl_models/alu/cvt_ops.cpp rtl_models/alu/cvt_fp8_ops.cpp rtl_models/alu/half_ops.cpp rtl_models/alu/pipe.cpp
  DEPENDS config isa)
# The float units switch the host rounding mode per instruction (alu/rounding.h).
set_source_files_properties(rtl_models/alu/float_ops.cpp rtl_models/alu/cvt_ops.cpp PROPERTIES COMPILE_OPTIONS -frounding-math)
# The SFU's captured tables, built into the simulator (docs/sfu.md), in a library of their own that
# the SFU and its checker (testbench/sfu/sfu_check, which runs no simulation) share.
set(GPUSIM_SFU_TABLES)
foreach(table rcp rsqrt sqrt ex2_pos ex2_neg lg2_e0 lg2_em1 lg2_em2 tanh_f16 tanh_bf16 ex2_f16 ex2_bf16)
  set(file ${CMAKE_SOURCE_DIR}/rtl_models/sfu/tables/${table}.vd.zst)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "SFU table ${file} is missing (docs/sfu.md says how to capture it)")
  endif()
  list(APPEND GPUSIM_SFU_TABLES ${file})
endforeach()
string(REPLACE ";" "|" GPUSIM_SFU_TABLE_LIST "${GPUSIM_SFU_TABLES}")
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/sfu_table_data.cpp
  COMMAND ${CMAKE_COMMAND} "-DINPUTS=${GPUSIM_SFU_TABLE_LIST}" -DOUTPUT=${CMAKE_BINARY_DIR}/sfu_table_data.cpp
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
  DEPENDS ${GPUSIM_SFU_TABLES} ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
  COMMENT "Embedding the SFU tables" VERBATIM)
add_library(gpusim_sfu_tables STATIC rtl_models/sfu/sfu_tables.cpp ${CMAKE_BINARY_DIR}/sfu_table_data.cpp)
target_link_libraries(gpusim_sfu_tables PUBLIC gpusim_include_path PkgConfig::ZSTD)
gpusim_library(sfu FOLDER rtl_models/sfu
  SOURCES rtl_models/sfu/sfu_keys.cpp rtl_models/sfu/sfu_ops.cpp rtl_models/sfu/approx_sequences.cpp rtl_models/sfu/mufu.cpp
  DEPENDS config isa alu LIBS gpusim_sfu_tables)
gpusim_library(tensor FOLDER rtl_models/tensor
  SOURCES rtl_models/tensor/tensor_arith.cpp rtl_models/tensor/fragment.cpp rtl_models/tensor/matrix_ops.cpp
  DEPENDS isa alu)
gpusim_library(video FOLDER rtl_models/video
  SOURCES rtl_models/video/video_code.cpp rtl_models/video/video_ops.cpp rtl_models/video/video_simd.cpp DEPENDS isa)
gpusim_library(smem FOLDER rtl_models/smem SOURCES rtl_models/smem/smem_keys.cpp rtl_models/smem/shared_memory.cpp rtl_models/smem/bank_schedule.cpp
  DEPENDS config isa)
# The RTL twin (rtl_models/rtl, docs/rtl.md), verilated where Verilator 5 is installed: the bank
# arbiter as a C++ model the SM clocks itself (smem.impl=rtl), and as a SystemC module for the
# co-simulation testbench. One library holds both, with one Verilator runtime built for SystemC.
if(GPUSIM_WITH_RTL)
  find_package(verilator 5 QUIET HINTS $ENV{VERILATOR_ROOT})
endif()
if(verilator_FOUND)
  set(GPUSIM_RTL ON)
  gpusim_library(rtl FOLDER rtl_models/rtl SOURCES rtl_models/rtl/bank_arbiter_rtl.cpp DEPENDS smem LIBS Threads::Threads)
  set(GPUSIM_RTL_ARGS -Wall --x-assign fast --x-initial fast -O3)
  set(rtl_variants rtl)
  if(GPUSIM_ASAN)
    list(APPEND rtl_variants rtl_checked)
  endif()
  foreach(v ${rtl_variants})
    verilate(gpusim_${v} SOURCES rtl_models/rtl/smem_bank_arbiter.sv PREFIX Vsmem_bank_arbiter TRACE
             VERILATOR_ARGS ${GPUSIM_RTL_ARGS})
    verilate(gpusim_${v} SYSTEMC SOURCES rtl_models/rtl/smem_bank_arbiter.sv PREFIX Vsmem_bank_arbiter_sc TRACE
             VERILATOR_ARGS ${GPUSIM_RTL_ARGS})
    target_compile_definitions(gpusim_${v} PUBLIC VM_SC=1 VM_TRACE=1)
    target_include_directories(gpusim_${v} SYSTEM PUBLIC ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd
      ${CMAKE_BINARY_DIR}/CMakeFiles/gpusim_${v}.dir/Vsmem_bank_arbiter.dir
      ${CMAKE_BINARY_DIR}/CMakeFiles/gpusim_${v}.dir/Vsmem_bank_arbiter_sc.dir)
    # Verilator's generated code and runtime are not held to our warning flags.
    get_target_property(rtl_sources gpusim_${v} SOURCES)
    foreach(src ${rtl_sources})
      if(NOT src MATCHES "bank_arbiter_rtl.cpp$")
        set_property(SOURCE ${src} TARGET_DIRECTORY gpusim_${v} APPEND PROPERTY COMPILE_OPTIONS -w)
      endif()
    endforeach()
  endforeach()
  message(STATUS "gpusim: Verilator ${verilator_VERSION} found; the RTL bank arbiter is built (smem.impl=rtl)")
  set(GPUSIM_SM_RTL rtl)
else()
  set(GPUSIM_RTL OFF)
  # Declared all the same, without sources, so that the folders' layering holds in either build.
  gpusim_library(rtl FOLDER rtl_models/rtl DEPENDS smem)
  set(GPUSIM_SM_RTL rtl)
  message(STATUS "gpusim: no Verilator 5 (or GPUSIM_WITH_RTL=OFF); smem.impl=rtl and the co-simulation testbench are left out")
endif()
gpusim_library(ccache FOLDER rtl_models/ccache SOURCES rtl_models/ccache/ccache_keys.cpp rtl_models/ccache/constant_cache.cpp DEPENDS config isa cache)
gpusim_library(tex FOLDER rtl_models/tex
  SOURCES rtl_models/tex/tex_keys.cpp rtl_models/tex/tex_ops.cpp rtl_models/tex/texture_sampler.cpp rtl_models/tex/texture_cache.cpp
  DEPENDS config isa cache alu)
gpusim_library(barrier FOLDER rtl_models/barrier SOURCES rtl_models/barrier/barrier_keys.cpp rtl_models/barrier/barrier_unit.cpp DEPENDS config isa)
gpusim_library(clock FOLDER rtl_models/clock DEPENDS isa)
gpusim_library(scheduler FOLDER rtl_models/scheduler SOURCES rtl_models/scheduler/scheduler_keys.cpp rtl_models/scheduler/warp_scheduler.cpp DEPENDS config isa)
gpusim_library(ldst FOLDER rtl_models/ldst
  SOURCES rtl_models/ldst/ldst_keys.cpp rtl_models/ldst/ldst_ops.cpp rtl_models/ldst/atom_vector_ops.cpp rtl_models/ldst/async_ops.cpp rtl_models/ldst/ldst_unit.cpp rtl_models/ldst/ldst_deferred.cpp
          rtl_models/ldst/coalescer.cpp rtl_models/ldst/store_buffer.cpp rtl_models/ldst/stale_log.cpp rtl_models/ldst/matrix_moves.cpp
          rtl_models/ldst/hint_ops.cpp rtl_models/ldst/bulk_ops.cpp
  DEPENDS config tlm_protocol isa cache trace check alu tensor)

# The chip's memory system beyond the SMs.
gpusim_library(l2 FOLDER rtl_models/l2 SOURCES rtl_models/l2/l2_keys.cpp rtl_models/l2/l2_cache.cpp rtl_models/l2/atomic_unit.cpp
  DEPENDS config tlm_protocol tlm_memory isa cache trace)
gpusim_library(dram FOLDER rtl_models/dram SOURCES rtl_models/dram/dram_keys.cpp rtl_models/dram/dram_controller.cpp DEPENDS config tlm_protocol isa trace)

# The SM composes the units.
gpusim_library(sm FOLDER rtl_models/sm
  SOURCES rtl_models/sm/sm_keys.cpp rtl_models/sm/operations.cpp rtl_models/sm/control_ops.cpp rtl_models/sm/call_ops.cpp
          rtl_models/sm/syscall_ops.cpp rtl_models/sm/warp_ops.cpp rtl_models/sm/device_printf.cpp
          rtl_models/sm/simt_stack.cpp rtl_models/sm/scoreboard_map.cpp rtl_models/sm/register_arena.cpp
          rtl_models/sm/sm_core.cpp rtl_models/sm/sm_timing.cpp rtl_models/sm/sm_timing_memory.cpp rtl_models/sm/sm.cpp
  DEPENDS config tlm_protocol tlm_memory isa trace check alu sfu video tensor smem ${GPUSIM_SM_RTL} ccache tex barrier clock scheduler ldst)
if(GPUSIM_RTL)
  gpusim_library_definitions(sm GPUSIM_HAVE_RTL=1)
endif()

# The chip.
gpusim_library(gpu FOLDER rtl_models/gpu
  SOURCES rtl_models/gpu/gpu_keys.cpp rtl_models/gpu/config_outline.cpp rtl_models/gpu/config_reference.cpp rtl_models/gpu/gpu_config.cpp rtl_models/gpu/front_end.cpp rtl_models/gpu/gpu.cpp
          rtl_models/gpu/compute_engine.cpp rtl_models/gpu/sm_cluster.cpp rtl_models/gpu/sm_cluster_overlap.cpp
          rtl_models/gpu/host_threads.cpp rtl_models/gpu/kernel_profile.cpp rtl_models/gpu/kernel_sampler.cpp rtl_models/gpu/progress_meter.cpp
          rtl_models/gpu/command_processor.cpp rtl_models/gpu/device_runtime.cpp rtl_models/gpu/launch_limits.cpp
  DEPENDS config tlm_protocol tlm_memory tlm_pcie tlm_dma tlm_interconnect isa trace check scheduler ldst l2 dram sm
  LIBS Threads::Threads)
gpusim_library_definitions(gpu GPUSIM_CONFIG_DIR="${CMAKE_SOURCE_DIR}/rtl_models/configs")

# sw/: the software stack.
gpusim_library(ptx FOLDER sw/ptx
  SOURCES sw/ptx/lexer.cpp sw/ptx/parser.cpp sw/ptx/parser_module.cpp sw/ptx/vocabulary.cpp sw/ptx/ast.cpp
  LIBS ${GPUSIM_BASE_LIBS})
gpusim_library(loader FOLDER sw/loader
  SOURCES sw/loader/cfg.cpp sw/loader/register_init.cpp sw/loader/register_pressure.cpp sw/loader/load_hoisting.cpp sw/loader/atomic_aggregation.cpp sw/loader/contraction.cpp sw/loader/ordering.cpp sw/loader/decoder.cpp
          sw/loader/decode_control.cpp sw/loader/decode_texture.cpp sw/loader/decode_async.cpp sw/loader/decode_matrix.cpp sw/loader/decode_hints.cpp
          sw/loader/linker.cpp
  DEPENDS tlm_protocol isa alu video tex tensor sm ptx)
gpusim_library(runtime FOLDER sw/runtime
  SOURCES sw/runtime/platform.cpp sw/runtime/runtime.cpp sw/runtime/runtime_streams.cpp sw/runtime/runtime_rows.cpp
          sw/runtime/runtime_host_functions.cpp sw/runtime/runtime_managed.cpp sw/runtime/managed_heap.cpp sw/runtime/device_heap.cpp
          sw/runtime/stats_window.cpp sw/runtime/profile_summary.cpp sw/runtime/manifest.cpp sw/runtime/texture_spec.cpp
          sw/runtime/compare.cpp sw/runtime/console_reports.cpp
  DEPENDS tlm_protocol tlm_memory isa trace check tex sm gpu ptx loader)
