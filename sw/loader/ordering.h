// Which instructions order with other SMs (Inst kOrdered): functional mode runs the SMs of a
// quantum apart on host threads and each of these in the SMs' turn (rtl_models/gpu/sm_cluster.h),
// so that a program's results do not depend on how many threads there are.
//   - a global atomic whose old value the program reads: which value each lane gets depends on
//     the order of the SMs' atomics;
//   - a floating-point or non-commuting reduction (add.f32, exch, cas, inc, dec): the value left
//     in memory depends on that order too;
//   - a strong load or store (.volatile, .relaxed, .acquire, .release): how SMs signal each other;
//   - a surface reduction (sured).
// An integer add, min, max, and, or or xor whose old value no instruction reads leaves the same
// value in any order: it runs apart, as the host's own atomic operation.
// (Calls to the device runtime are ordered where the decoder builds them.)
// A kernel with both, reductions apart and ordered instructions, is marked (reductions_meet_ordered):
// an ordered instruction may read what reductions left, so its value depends on which reductions
// ran before it, and timing mode keeps its rounds apart (rtl_models/gpu/sm_cluster.h).
#pragma once

#include "isa/isa.h"

namespace gpusim::loader {

void mark_ordered(KernelImage& img);

} // namespace gpusim::loader
