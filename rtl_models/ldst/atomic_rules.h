// What the scalar and the vector atomics share (ldst_ops.cpp, atom_vector_ops.cpp): their
// coherence with the SM's buffered stores, and the arithmetic the H200 does for the float forms.
#pragma once

#include <cmath>

#include "alu/float_common.h"
#include "alu/narrow_float.h"
#include "isa/exec_context.h"
#include "ldst/lane_access.h"

namespace gpusim::atomic_rules {

// Atomics are coherent: they act on memory after the SM's own buffered stores to their `bytes`
// (after all of them for a release), and an acquire drops what the SM saw stale.
template <MemSpace S>
void before_atomic(ExecContext& c, Warp& w, const Inst& in, LaneMask m, uint32_t bytes) {
    if (!c.stores) return;
    if (in.aux & kOrderRelease) c.stores->drain_all();
    for_lanes(m, [&](int l) {
        const uint64_t a = lane_access::address(c, w, in, l);
        if (lane_access::buffered_space<S>(a)) c.stores->before_access(a, bytes), c.stores->forget(a, bytes);
    });
    if (in.aux & kOrderAcquire) c.stores->clear_stale();
}

// f32 adds in global memory flush subnormal inputs and results (PTX ISA, measured on the H200).
inline float flushed_add(float old, float b) { return flush(flush(old) + flush(b)); }

// f16 and bf16 adds (.noftz): rounded once to nearest, subnormals kept; a NaN gives the format's
// canonical NaN.
inline uint16_t half_add(uint16_t old, uint16_t b, bool bf) {
    const NarrowFormat& f = bf ? kBf16Format : kF16Format;
    const long double x = narrow_value(old, f), y = narrow_value(b, f);
    return uint16_t(round_to_narrow(bf ? add_round_odd(x, y) : x + y, kRn, f));
}

// f16 and bf16 min and max: minNum/maxNum with -0 below +0 (a NaN operand gives the other one),
// two NaNs the canonical NaN.
template <bool Max>
uint16_t half_min_max(uint16_t old, uint16_t b, bool bf) {
    const NarrowFormat& f = bf ? kBf16Format : kF16Format;
    const long double r = min_max_mode<Max, false, false>(narrow_value(old, f), narrow_value(b, f));
    return uint16_t(round_to_narrow(r, kRn, f));
}

} // namespace gpusim::atomic_rules
