// Post-dominator reconvergence (the stack-based SIMT scheme of Fermi-class GPUs). A divergent branch
// defers one path and the join; paths run one after another and merge at the branch's immediate
// post-dominator, so nested divergence, loops with break/continue and early exits all reconverge.
#pragma once

#include "sm/warp.h"

namespace gpusim::simt {

// Sentinel reconvergence point for paths that only end when their threads exit.
constexpr uint32_t kExitPc = UINT32_MAX - 1;

// Resets the warp to run `mask` from instruction 0.
void start(Warp& w, LaneMask mask);

// A branch at the current instruction: lanes in `taken` go to `target`, the other active lanes to
// `fallthrough`; both rejoin at `reconv`.
void branch(Warp& w, LaneMask taken, uint32_t target, uint32_t fallthrough, uint32_t reconv);

// Pops finished paths until one with live lanes is on top; returns false when the warp has no
// live lanes left (it is done).
bool reconverge(Warp& w);

// Lanes in `mask` finish the kernel.
void exit_lanes(Warp& w, LaneMask mask);

} // namespace gpusim::simt
