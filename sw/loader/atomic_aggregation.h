// ptxas's warp-aggregated atomics: an integer atomic add whose address is the same in every lane of
// the warp becomes one lane's add of the warp's sum (the other lanes get their results by a prefix
// over the active mask, where the operand is the same in every lane too). Measured on the H100 by
// regress/correlation/programs/atomic_probe.cu: every lane of the chip adding 1 to one word runs at
// 23 additions a cycle, where lanes on one word otherwise take a cycle each at the L2; and
// tex_volume_sampler's per-block sums (32 lanes adding their own values to one word) take less
// than a lane a cycle would. The model executes every lane's add (results are the same); this pass
// marks the instructions whose timing is one lane's (kAtomAggregated), when a config asks for it
// (`sm.aggregate_atomics`).
#pragma once

#include "isa/isa.h"

namespace gpusim::loader {

// Marks every atom or red .add of an integer type on global or generic memory whose address is
// warp-uniform and whose operand is warp-uniform too, or whose result no instruction reads.
// Warp-uniform: an immediate, a special register that is the same across a warp (%ctaid, %ntid,
// %nctaid, %warpid, %smid, ...), or a register defined once, unguarded, by register arithmetic or
// a parameter load from warp-uniform operands. An image with called functions is left as it is.
void mark_aggregated_atomics(KernelImage& img);

} // namespace gpusim::loader
