// ptxas's instruction scheduling, in the one respect that moves whole kernels' cycles most: it
// issues loads, and the address arithmetic they need, as early as their operands allow, so that
// their latencies overlap each other and the arithmetic before their first use (the SASS of an
// unrolled loop has the loads of all its iterations ahead of the FFMAs that use them). nvcc's PTX
// puts each load just before its use; an in-order model that issues the PTX as written waits out
// every load's latency in turn. A config may choose to run the kernel as ptxas would order it
// (`sm.hoist_loads`, docs/config.md).
#pragma once

#include <cstdint>
#include <vector>

#include "isa/isa.h"
#include "loader/cfg.h"

namespace gpusim::loader {

// The latencies the scheduler ranks instructions by (cycles, from the config: it stands for
// ptxas's machine model, which knows the chip's).
struct ScheduleLatencies {
    uint32_t arithmetic = 4;   // a register result
    uint32_t shared = 24;      // a shared-memory load
    uint32_t global = 32;      // a global, local or generic load (an L1 hit: ptxas cannot know more)
    uint32_t constant = 4;     // a constant or parameter load (an operand of the instruction in SASS)
};

// Within each basic block of the kernel body, reorders each run of register arithmetic, plain
// loads (a weak ld of global, shared, local, constant or parameter memory) and plain stores (a
// weak st of global, shared, local or generic memory) as a list scheduler does: of the
// instructions whose operands are ready, the one with the longest latency path to the run's end
// goes first, ties in the PTX's order. Loads pass each other, the arithmetic, and stores to
// another space (a global load passes a shared store; a generic access passes nothing of memory);
// a store keeps its place after the accesses of its space. An atomic, a barrier, a fence, a
// branch, a special-register read or a warp instruction ends a run and never moves, so every
// thread computes and reads what it did before: only the order of independent instructions
// changes (register and predicate dependences, true, anti and output, are kept). `flow` is
// permuted with the code. An image with called functions is left as it is.
void hoist_loads(KernelImage& img, std::vector<Flow>& flow, const ScheduleLatencies& lat = {});

} // namespace gpusim::loader
