// ptxas's instruction scheduling, in the one respect that moves whole kernels' cycles most: it
// issues loads as early as their operands allow, so that their latency overlaps the arithmetic
// before their first use (the SASS of a tiled matrix product has its shared loads grouped ahead of
// the FFMAs that use them). nvcc's PTX puts each load just before its use; an in-order model that
// issues the PTX as written waits out every load's latency in turn. A config may choose to run
// the kernel as ptxas would order it (`sm.hoist_loads`, docs/config.md).
#pragma once

#include <vector>

#include "isa/isa.h"
#include "loader/cfg.h"

namespace gpusim::loader {

// Within each basic block of the kernel body, moves every plain load (a weak ld of global, shared,
// local, constant or parameter memory) up past the arithmetic before it, as far as its operands,
// its destination and its guard allow. It never crosses another memory instruction, a barrier, a
// fence, a branch, a special-register read or a warp instruction, so every thread computes and
// reads what it did before: only the order of independent instructions changes. `flow` is
// permuted with the code. An image with called functions is left as it is.
void hoist_loads(KernelImage& img, std::vector<Flow>& flow);

} // namespace gpusim::loader
