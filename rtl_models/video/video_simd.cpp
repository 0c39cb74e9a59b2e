// SIMD video instructions: vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4, per PTX ISA
// §9.7.18.2 (docs/reference/ptx_semantics.md §2). Each result lane reads one half-word
// (2-way) or byte (4-way) from the pool {a, b} chosen by the lane's selector, extends it by the
// source type, computes and optionally saturates to the lane width. Lanes in the destination mask
// are then either written (other lanes keep c's, measured: S2-S4) or, with .add, summed into c.
#include "isa/exec_context.h"
#include "video/video_code.h"

namespace gpusim::video {
namespace {


template <int Lanes>
void simd(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    constexpr int kLaneBits = kWordBits / Lanes;
    constexpr uint32_t kLaneMask = (1u << kLaneBits) - 1;
    constexpr uint32_t kIndexMask = (1u << kLaneIndexBits) - 1;
    const Code k = unpack(uint64_t(in.offset));
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = c.src(w, in.c);
    for_lanes(m, [&](int l) {
        // Both selectors draw from one pool: a's lanes first, then b's (measured: S20, S21).
        const uint64_t pool = (uint64_t(uint32_t(b[l])) << kWordBits) | uint32_t(a[l]);
        const uint32_t cv = uint32_t(cc[l]);
        uint32_t merged = cv;
        int64_t sum = 0;
        for (int i = 0; i < Lanes; ++i) {
            if (!((k.dsel >> i) & 1)) continue;
            const int ia = int((k.asel >> (kLaneIndexBits * i)) & kIndexMask);
            const int ib = int((k.bsel >> (kLaneIndexBits * i)) & kIndexMask);
            const int64_t va = extend(pool >> (kLaneBits * ia), kLaneBits, k.a_signed);
            const int64_t vb = extend(pool >> (kLaneBits * ib), kLaneBits, k.b_signed);
            int64_t t = operate(k, va, vb);
            if (k.sat) t = clamp_to(t, kLaneBits, k.d_signed);
            sum += t;   // .add sums the full signed lane values (measured: vsub4.add gives 96)
            const uint32_t field = kLaneMask << (kLaneBits * i);
            merged = (merged & ~field) | ((uint32_t(t) << (kLaneBits * i)) & field);
        }
        d[l] = k.op2 == Op2::Add ? uint32_t(int64_t(cv) + sum) : merged;
    });
}

} // namespace

ExecFn simd_fn(Op op, int lanes) {
    if (op == Op::Shl || op == Op::Shr || op == Op::Mad) return nullptr;
    if (lanes == 2) return simd<2>;
    if (lanes == 4) return simd<4>;
    return nullptr;
}

} // namespace gpusim::video
