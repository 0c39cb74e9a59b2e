// Post-dominator reconvergence (the stack-based SIMT scheme of Fermi-class GPUs). A divergent branch
// defers one path and the join; paths run one after another and merge at the branch's immediate
// post-dominator, so nested divergence, loops with break/continue and early exits all reconverge.
#pragma once

#include "isa/warp.h"

namespace gpusim::simt {

// Sentinel reconvergence point for paths that only end when their threads exit (or, inside a
// called function, return).
constexpr uint32_t kExitPc = UINT32_MAX - 1;

// Resets the warp to run `mask` from instruction 0.
void start(Warp& w, LaneMask mask);

// A branch at the current instruction: lanes in `taken` go to `target`, the other active lanes to
// `fallthrough`; both rejoin at `reconv`.
void branch(Warp& w, LaneMask taken, uint32_t target, uint32_t fallthrough, uint32_t reconv);

// The lanes of `paths[k].second` go to `paths[k].first` (brx.idx, indirect branches); all rejoin at
// `reconv`. The first path runs first.
void multiway(Warp& w, const std::pair<uint32_t, LaneMask>* paths, size_t n, uint32_t reconv);

// Pops finished paths until one with live lanes is on top. Returns false when no path of the
// current function is left: the innermost call is complete (see calls::finish_call), or, with no
// call in progress, the warp is done.
bool reconverge(Warp& w);

// Lanes in `mask` finish the kernel.
void exit_lanes(Warp& w, LaneMask mask);

} // namespace gpusim::simt
