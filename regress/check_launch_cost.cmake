# A grid's own cost (chip.launch_cycles, chip.cta_dispatch_cycles): the same launch in timing mode
# without it and with it. The fixed cost adds exactly its cycles; a block distributor of one block
# every D cycles adds no more than D per block after the first (an SM may have been busy anyway),
# and at least what the last block's arrival forces.
# Inputs: GPUSIM, MANIFEST (one launch), BLOCKS (its grid), OUT.
set(fixed_cost 1000)
set(pace 40)
file(MAKE_DIRECTORY ${OUT})
foreach(run plain costed paced)
  set(sets)
  if(run STREQUAL "costed")
    set(sets --set chip.launch_cycles=${fixed_cost})
  elseif(run STREQUAL "paced")
    set(sets --set chip.launch_cycles=${fixed_cost} --set chip.cta_dispatch_cycles=${pace})
  endif()
  execute_process(COMMAND ${GPUSIM} run --mode timing ${sets} --stats ${OUT}/${run}.json ${MANIFEST}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${run} run failed (${rc}):\n${out}${err}")
  endif()
  file(READ ${OUT}/${run}.json stats)
  string(JSON cycles_${run} GET ${stats} kernels 0 cycles)
endforeach()
math(EXPR added "${cycles_costed} - ${cycles_plain}")
if(NOT added EQUAL fixed_cost)
  message(FATAL_ERROR "chip.launch_cycles=${fixed_cost} added ${added} cycles (${cycles_plain} -> ${cycles_costed})")
endif()
math(EXPR paced "${cycles_paced} - ${cycles_costed}")
math(EXPR most "(${BLOCKS} - 1) * ${pace}")
math(EXPR last_arrival "${fixed_cost} + (${BLOCKS} - 1) * ${pace}")
if(paced LESS 0 OR paced GREATER most OR cycles_paced LESS_EQUAL last_arrival)
  message(FATAL_ERROR "chip.cta_dispatch_cycles=${pace} over ${BLOCKS} blocks took ${cycles_paced} cycles, "
                      "${paced} more than without it (expected 0 to ${most}, and more than ${last_arrival})")
endif()
message(STATUS "launch cost: ${cycles_plain} cycles, ${cycles_costed} with a fixed ${fixed_cost}, ${cycles_paced} with a block every ${pace}")
