# The waveform (--vcd) agrees with the statistics and changes nothing: a timing run of one manifest
# with a waveform of every signal writes the same statistics file as one without (host seconds
# aside), and vcd_check finds in it each SM's issued instructions and resident warp-cycles, every
# block, launch and copy, and queues that drain. A second waveform of chosen signals (--vcd-signals)
# holds exactly those. Inputs: GPUSIM, VCD_CHECK, MANIFEST, CONFIG, OUT (a scratch folder).
cmake_minimum_required(VERSION 3.19)
include(${CMAKE_CURRENT_LIST_DIR}/stats_run.cmake)
file(MAKE_DIRECTORY ${OUT})
set(chosen "sm_1.issued,sm_1.active_warps,sm_1.l1.queue,l2.queue,dram_ctrl.busy_channels,compute_engine.grid")
set(args ${MANIFEST} --config ${CONFIG} --mode timing --no-summary)
run_for_stats(stats_plain ${OUT}/plain.json ${args})
run_for_stats(stats_wave ${OUT}/wave.json ${args} --vcd ${OUT}/wave.vcd)
run_for_stats(stats_chosen ${OUT}/chosen.json ${args} --vcd ${OUT}/chosen.vcd
              --vcd-signals "sm_1.issued,sm_1.active_warps,sm_1.l1.*,l2.queue,dram_ctrl.busy_*,compute_engine.grid")
foreach(run wave chosen)
  string(JSON same EQUAL "${stats_plain}" "${stats_${run}}")
  if(NOT same)
    message(FATAL_ERROR "recording a waveform changed the run: compare ${OUT}/plain.json and ${OUT}/${run}.json")
  endif()
endforeach()
execute_process(COMMAND ${VCD_CHECK} ${OUT}/wave.vcd ${OUT}/wave.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out}${err}")
endif()
execute_process(COMMAND ${VCD_CHECK} ${OUT}/chosen.vcd ${OUT}/chosen.json --only ${chosen}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out2 ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--vcd-signals: ${out2}${err}")
endif()
message(STATUS "${out}${out2}")
