# gpusim sweep: a 2x2 sweep (schedulers x shared-memory banks) over two manifests, two at a time.
# Every value of results.csv must equal the same point run alone; the plots and the report must
# exist; a second run must take every point from the cache and write the same CSV; and after one
# cached result is lost, only that point runs again.
# Inputs: GPUSIM, REGRESS (the regress folder), OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(spec ${OUT}/spec.json)
file(WRITE ${spec} "{
  \"name\": \"check\", \"mode\": \"timing\", \"config\": \"fermi-gf100\",
  \"parameters\": {\"sm.warp_schedulers\": [1, 2], \"smem.banks\": [16, 32]},
  \"workloads\": [{\"name\": \"reduce\", \"manifest\": \"${REGRESS}/kernels/reduce/manifest.json\"},
                {\"name\": \"matmul\", \"manifest\": \"${REGRESS}/kernels/matmul/manifest.json\"}],
  \"metrics\": {\"cycles\": \"totals.cycles\", \"ipc\": \"kernels.0.ipc\", \"l2_hits\": \"gpu.l2.hits\",
              \"bank_conflicts\": \"gpu.*.smem.bank_conflicts\"}
}")
set(metric_paths totals.cycles kernels.0.ipc gpu.l2.hits.value SUM_SM_BANK_CONFLICTS)

function(run_sweep out_var)
  execute_process(COMMAND ${GPUSIM} sweep -j 2 ${spec} -o ${OUT}/sweep RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpusim sweep failed (${rc}):\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

run_sweep(first)
file(STRINGS ${OUT}/sweep/results.csv rows)
list(GET rows 0 header)
if(NOT header STREQUAL "workload,sm.warp_schedulers,smem.banks,cycles,ipc,l2_hits,bank_conflicts,status")
  message(FATAL_ERROR "unexpected CSV header: ${header}")
endif()
list(LENGTH rows n)
if(NOT n EQUAL 9)
  message(FATAL_ERROR "expected 8 rows, got ${n} lines:\n${rows}")
endif()
foreach(file index.html results.json plots/cycles-reduce.png plots/cycles-reduce.svg plots/ipc-matmul.svg)
  if(NOT EXISTS ${OUT}/sweep/${file})
    message(FATAL_ERROR "the sweep wrote no ${file}")
  endif()
endforeach()

# Each row against the same point run alone.
math(EXPR last "${n} - 1")
foreach(i RANGE 1 ${last})
  list(GET rows ${i} row)
  string(REPLACE "," ";" f "${row}")
  list(GET f 0 workload)
  list(GET f 1 schedulers)
  list(GET f 2 banks)
  execute_process(COMMAND ${GPUSIM} run --config fermi-gf100 --mode timing --no-summary --set sm.warp_schedulers=${schedulers}
                          --set smem.banks=${banks} --stats ${OUT}/alone.json ${REGRESS}/kernels/${workload}/manifest.json
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${workload} alone failed (${rc})")
  endif()
  file(READ ${OUT}/alone.json alone)
  set(col 3)
  foreach(path IN LISTS metric_paths)
    if(path STREQUAL "SUM_SM_BANK_CONFLICTS")
      set(want 0)
      string(JSON gpu GET "${alone}" gpu)
      string(JSON units LENGTH "${gpu}")
      math(EXPR u_last "${units} - 1")
      foreach(u RANGE ${u_last})
        string(JSON unit MEMBER "${gpu}" ${u})
        if(unit MATCHES "^sm_")
          string(JSON v GET "${gpu}" ${unit} smem bank_conflicts value)
          string(REGEX REPLACE "\\.0$" "" v "${v}")
          math(EXPR want "${want} + ${v}")
        endif()
      endforeach()
    else()
      string(REPLACE "." ";" keys "${path}")
      string(JSON want GET "${alone}" ${keys})
    endif()
    string(REGEX REPLACE "\\.0$" "" want "${want}")
    list(GET f ${col} got)
    # CMake prints a double with 17 digits, the CSV with the fewest that read back the same: the
    # first 12 characters must agree.
    string(SUBSTRING "${want}" 0 12 want)
    string(SUBSTRING "${got}" 0 12 got)
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "row ${i} (${row}): column ${col} is ${got}, the point run alone gives ${want}")
    endif()
    math(EXPR col "${col} + 1")
  endforeach()
endforeach()

# Resumed: every point from the cache, the same results.
file(READ ${OUT}/sweep/results.csv csv_first)
run_sweep(second)
if(NOT second MATCHES "8 cached" OR second MATCHES "[0-9] s\n")
  message(FATAL_ERROR "a second sweep should take every point from the cache:\n${second}")
endif()
file(READ ${OUT}/sweep/results.csv csv_second)
if(NOT csv_first STREQUAL csv_second)
  message(FATAL_ERROR "the cached sweep wrote another CSV:\n${csv_second}")
endif()
file(GLOB cached ${OUT}/sweep/cache/*.json)
list(GET cached 0 lost)
file(REMOVE ${lost})
run_sweep(third)
if(NOT third MATCHES "7 cached")
  message(FATAL_ERROR "after losing one cached result, only that point should run:\n${third}")
endif()
file(READ ${OUT}/sweep/results.csv csv_third)
if(NOT csv_first STREQUAL csv_third)
  message(FATAL_ERROR "the resumed sweep wrote another CSV:\n${csv_third}")
endif()
# A data file a manifest reads is part of its cache key: changing the reference reduce compares
# with (in a copy of its folder) runs it again.
file(COPY ${REGRESS}/kernels/reduce DESTINATION ${OUT})
file(WRITE ${OUT}/data.json "{\"name\": \"data\", \"mode\": \"functional\", \"config\": \"fermi-gf100\",
  \"parameters\": {\"sm.warp_schedulers\": [2]}, \"workloads\": [{\"name\": \"reduce\", \"manifest\": \"${OUT}/reduce/manifest.json\"}],
  \"metrics\": {\"cycles\": \"totals.cycles\"}}")
foreach(step first again changed)
  if(step STREQUAL "changed")
    file(APPEND ${OUT}/reduce/ref/out.bin "x")
  endif()
  execute_process(COMMAND ${GPUSIM} sweep --no-plots ${OUT}/data.json -o ${OUT}/data RESULT_VARIABLE rc OUTPUT_VARIABLE out_${step} ERROR_VARIABLE err)
endforeach()
if(NOT out_first MATCHES "0 cached" OR NOT out_again MATCHES "1 cached" OR NOT out_changed MATCHES "0 cached")
  message(FATAL_ERROR "a changed data file should rerun its workload, an unchanged one not:\n${out_first}${out_again}${out_changed}")
endif()
message(STATUS "8 points: each equals its run alone; resumed from the cache; a changed data file reruns")
