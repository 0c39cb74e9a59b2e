// Golden tests: warp-level operations.
//   vote.sync ballot/any/all/uni: predicates from the inputs, per-warp uniform predicates (so .all and
//     .uni give both answers), under divergence with the member mask from __activemask(), nested
//     divergence, lanes that exited before the vote (full mask), partial warps (blocks of 48/80/200),
//     per-group member masks, inline asm with negated predicates and register masks.
//   activemask.b32 in divergent branches and loops.
//   shfl.sync idx/up/down/bfly through the intrinsics with every width 1..32 (lane offsets from the
//     inputs, including offsets >= width and >= 32), runtime widths, inline asm with arbitrary b and c
//     operands (clamp and segment-mask bits, per lane and per warp) with the predicate packed into d
//     (d = r | p << 32), immediate operands, the form without |p, shuffles inside divergent halves
//     with half-warp masks, per-group masks, 64-bit / f32 / f64 shuffles.
//   Warp reductions and scans built from shuffles, for every segment width.
//   match.any.sync / match.all.sync (.b32/.b64, with and without the predicate), also under
//     divergence and after early exit.
//   %laneid and %lanemask_eq/lt/le/gt/ge via mov.
//   bar.warp.sync (__syncwarp) with shared-memory exchange, full and half-warp masks.
// Every shuffle reads only lanes that are active and in the member mask.
// Dropped: redux.sync (__reduce_*_sync) needs sm_80, the PTX is compute_75; vote/shfl without .sync
// are not allowed for sm_70+ targets (PTX ISA 6.4 removed them).
#include "golden.cuh"

GOLDEN_FAMILY("warp", kU32, kSmall, kU32)

#define FULL 0xffffffffu

__device__ __forceinline__ u32 lane_id() { return threadIdx.x & 31; }
__device__ __forceinline__ u32 rotl32(u32 x, u32 r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
__device__ __forceinline__ u64 mix64(u64 h, u64 v) { return (h ^ v) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }

// A predicate that is uniform in some warps (all true / all false) and varies in others.
__device__ __forceinline__ bool warp_pred(u32 i, u32 x, u32 y) {
    u32 mode = (i >> 5) % 5;
    if (mode == 0) return true;
    if (mode == 1) return false;
    if (mode == 2) return x & 1;
    if (mode == 3) return y != 7;  // mostly true
    return x > 0x80000000u;
}

// ---------------------------------------------------------------- vote.sync

GOLDEN_KERNEL(vote_ballot) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    u32 b1 = __ballot_sync(FULL, x & 1);
    u32 b2 = __ballot_sync(FULL, x > (u32)c[i]);
    d[i] = b1 | (u64)(b2 ^ __ballot_sync(FULL, y >= 16)) << 32;
}

GOLDEN_KERNEL(vote_any_all_uni) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    bool p = warp_pred(i, x, y);
    bool q = (x >> (lane_id() & 7)) & 1;
    u32 f = __any_sync(FULL, p) | __all_sync(FULL, p) << 1 | __uni_sync(FULL, p) << 2 |
            __any_sync(FULL, q) << 3 | __all_sync(FULL, q) << 4 | __uni_sync(FULL, q) << 5 |
            __any_sync(FULL, !p) << 6 | __all_sync(FULL, !p) << 7;
    d[i] = f | (u64)__ballot_sync(FULL, p) << 32;
}

GOLDEN_KERNEL(vote_divergent_ballot) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    __syncwarp();
    u64 r;
    if (y & 1) {
        u32 m = __activemask();
        r = __ballot_sync(m, x & 1) | (u64)m << 32;
    } else {
        u32 m = __activemask();
        r = (__ballot_sync(m, x & 2) ^ 0xA5000000u) | (u64)m << 32;
    }
    d[i] = r;
}

GOLDEN_KERNEL(vote_divergent_any_all_uni) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    __syncwarp();
    u64 r = 0;
    if (y < 20) {
        u32 m = __activemask();
        bool p = warp_pred(i, x, y);
        r = __any_sync(m, p) | __all_sync(m, p) << 1 | __uni_sync(m, p) << 2 | __all_sync(m, y < 30) << 3 |
            (u64)m << 32;
    } else {
        u32 m = __activemask();
        r = 0x10 | __any_sync(m, x & 4) | __all_sync(m, x & 4) << 1 | __uni_sync(m, x & 4) << 2 | (u64)m << 32;
    }
    d[i] = r;
}

GOLDEN_KERNEL(vote_nested) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    __syncwarp();
    u64 r;
    if (y & 1) {
        u32 m1 = __activemask();
        if (x & 1) {
            u32 m2 = __activemask();
            r = __ballot_sync(m2, x & 2) | (u64)m2 << 32;
        } else {
            u32 m2 = __activemask();
            r = (__ballot_sync(m2, x & 4) ^ 0x5A5A0000u) | (u64)m2 << 32;
        }
        r ^= (u64)__ballot_sync(m1, x & 8) << 7;   // the m1 lanes meet again in this vote
    } else {
        u32 m = __activemask();
        r = __ballot_sync(m, y > 20) | (u64)(m ^ 0xFFFF) << 32;
    }
    d[i] = r;
}

// Lanes that exited are not in the vote although the mask names them (ISA: non-exited threads).
GOLDEN_KERNEL(vote_early_exit) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    if (y % 3 == 0) return;  // d stays 0
    u32 m = __activemask();
    u32 bal = __ballot_sync(FULL, x & 1);
    u32 f = __any_sync(FULL, x & 2) | __all_sync(FULL, y != 4) << 1 | __uni_sync(FULL, x & 4) << 2;
    d[i] = (bal ^ (f << 29)) | (u64)m << 32;
}

// Partial warps: the member mask is what __activemask() reports for the launched lanes.
__device__ __forceinline__ void vote_partial_body(const u64* a, const u64* b, const u64* c, u64* d) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    u32 m = __activemask();
    u32 bal = __ballot_sync(m, x & 1);
    u32 f = __any_sync(m, x & 2) | __all_sync(m, y != 4) << 1 | __uni_sync(m, warp_pred(i, x, y)) << 2 |
            __all_sync(m, true) << 3;
    d[i] = (bal ^ (f << 28)) | (u64)m << 32;
}
GOLDEN_KERNEL(vote_partial_b48) { vote_partial_body(a, b, c, d); }
GOLDEN_KERNEL(vote_partial_b80) { vote_partial_body(a, b, c, d); }
GOLDEN_KERNEL(vote_partial_b200) { vote_partial_body(a, b, c, d); }

// Each group of 8 lanes votes with its own member mask.
GOLDEN_KERNEL(vote_group_masks) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    u32 g = 0xFFu << (lane_id() & 24);
    u32 bal = __ballot_sync(g, x & 1);
    u32 f = __any_sync(g, x & 2) | __all_sync(g, x & 2) << 1 | __uni_sync(g, x & 2) << 2;
    d[i] = bal | (u64)f << 32;
}

// Inline asm: negated predicates, immediate and register member masks.
GOLDEN_KERNEL(vote_asm_negated) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    u32 bal, any, all, uni, bal2;
    u32 m = __activemask();
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ne.u32 p, %5, 0;\n\t"
                 "vote.sync.ballot.b32 %0, !p, 0xffffffff;\n\t"
                 "vote.sync.any.pred q, !p, %6;\n\tselp.u32 %1, 1, 0, q;\n\t"
                 "vote.sync.all.pred q, !p, %6;\n\tselp.u32 %2, 1, 0, q;\n\t"
                 "vote.sync.uni.pred q, !p, 0xffffffff;\n\tselp.u32 %3, 1, 0, q;\n\t"
                 "setp.lt.u32 p, %7, 8;\n\t"
                 "vote.sync.ballot.b32 %4, p, %6;\n\t}"
                 : "=r"(bal), "=r"(any), "=r"(all), "=r"(uni), "=r"(bal2)
                 : "r"(x & 0x10), "r"(m), "r"(y));
    d[i] = bal | (u64)(bal2 & 0x0FFFFFFF) << 32 | (u64)any << 60 | (u64)all << 61 | (u64)uni << 62;
}

// ---------------------------------------------------------------- activemask

GOLDEN_KERNEL(activemask_ifelse) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    __syncwarp();
    u32 m1, m2 = 0;
    if (x & 1) {
        m1 = __activemask();
        if (y > 10) m2 = __activemask();
    } else {
        m1 = __activemask() ^ 0x80000000u;
        if (y <= 10) m2 = __activemask() ^ 1u;
    }
    __syncwarp();
    d[i] = m1 | (u64)m2 << 32;
}

GOLDEN_KERNEL(activemask_loop) {
    u32 i = GOLDEN_TID, y = (u32)b[i];
    __syncwarp();
    u32 n = y & 7;
    u64 h = 0;
    for (u32 k = 0; k < n; ++k) h = mix64(h, __activemask());
    d[i] = h;
}

GOLDEN_KERNEL(activemask_exit) {
    u32 i = GOLDEN_TID, y = (u32)b[i];
    if (y & 2) return;
    d[i] = __activemask() | (u64)__activemask() << 32;
}

GOLDEN_KERNEL(activemask_partial_b72) {
    u32 i = GOLDEN_TID;
    u32 m = __activemask();
    d[i] = m | (u64)(lane_id() + 1) << 32;
}

// ---------------------------------------------------------------- shfl.sync through the intrinsics

// Low half: offset / source lane from b (0..39); high half: from c (any 32-bit value).
#define SHFL_KERNELS(W)                                                                  \
    GOLDEN_KERNEL(shfl_idx_w##W) {                                                       \
        u32 i = GOLDEN_TID, v = (u32)a[i];                                               \
        u32 r1 = __shfl_sync(FULL, v, (int)b[i], W);                                     \
        u32 r2 = __shfl_sync(FULL, v ^ 0x5BD1E995u, (int)(u32)c[i], W);                  \
        d[i] = r1 | (u64)r2 << 32;                                                       \
    }                                                                                    \
    GOLDEN_KERNEL(shfl_up_w##W) {                                                        \
        u32 i = GOLDEN_TID, v = (u32)a[i];                                               \
        u32 r1 = __shfl_up_sync(FULL, v, (u32)b[i], W);                                  \
        u32 r2 = __shfl_up_sync(FULL, v ^ 0x5BD1E995u, (u32)c[i], W);                    \
        d[i] = r1 | (u64)r2 << 32;                                                       \
    }                                                                                    \
    GOLDEN_KERNEL(shfl_down_w##W) {                                                      \
        u32 i = GOLDEN_TID, v = (u32)a[i];                                               \
        u32 r1 = __shfl_down_sync(FULL, v, (u32)b[i], W);                                \
        u32 r2 = __shfl_down_sync(FULL, v ^ 0x5BD1E995u, (u32)c[i], W);                  \
        d[i] = r1 | (u64)r2 << 32;                                                       \
    }                                                                                    \
    GOLDEN_KERNEL(shfl_xor_w##W) {                                                       \
        u32 i = GOLDEN_TID, v = (u32)a[i];                                               \
        u32 r1 = __shfl_xor_sync(FULL, v, (int)b[i], W);                                 \
        u32 r2 = __shfl_xor_sync(FULL, v ^ 0x5BD1E995u, (int)(u32)c[i], W);              \
        d[i] = r1 | (u64)r2 << 32;                                                       \
    }
SHFL_KERNELS(1)
SHFL_KERNELS(2)
SHFL_KERNELS(4)
SHFL_KERNELS(8)
SHFL_KERNELS(16)
SHFL_KERNELS(32)

// Width known only at run time (warp-uniform, from c), so the c operand is computed in a register.
GOLDEN_KERNEL(shfl_runtime_width) {
    u32 i = GOLDEN_TID, v = (u32)a[i], y = (u32)b[i];
    int w = 1 << ((u32)c[i & ~31u] % 6);
    u32 r1 = __shfl_sync(FULL, v, (int)y, w);
    u32 r2 = __shfl_up_sync(FULL, v, y & 7, w) ^ __shfl_down_sync(FULL, rotl32(v, 8), y >> 2, w) ^
             __shfl_xor_sync(FULL, rotl32(v, 16), (int)(y * 3), w);
    d[i] = r1 | (u64)r2 << 32;
}

// Shuffles inside divergent halves: each half uses its own mask and only reads its own half.
GOLDEN_KERNEL(shfl_divergent_halves) {
    u32 i = GOLDEN_TID, v = (u32)a[i], y = (u32)b[i];
    __syncwarp();
    u32 r1, r2;
    if (lane_id() < 16) {
        r1 = __shfl_sync(0x0000FFFFu, v, (int)y, 16);
        r2 = __shfl_down_sync(0x0000FFFFu, v, y, 16) ^ __shfl_xor_sync(0x0000FFFFu, v, (int)y, 16);
    } else {
        r1 = __shfl_sync(0xFFFF0000u, v, (int)y, 16);
        r2 = __shfl_up_sync(0xFFFF0000u, v, y, 16) ^ __shfl_xor_sync(0xFFFF0000u, v, (int)(y & 15), 16);
    }
    d[i] = r1 | (u64)r2 << 32;
}

// Groups of 8 lanes, each with its own member mask and width 8.
GOLDEN_KERNEL(shfl_group_masks) {
    u32 i = GOLDEN_TID, v = (u32)a[i], y = (u32)b[i];
    u32 g = 0xFFu << (lane_id() & 24);
    u32 r1 = __shfl_sync(g, v, (int)y, 8);
    u32 r2 = __shfl_xor_sync(g, v, (int)y & 7, 8) + __shfl_up_sync(g, v, y, 8);
    d[i] = r1 | (u64)r2 << 32;
}

GOLDEN_KERNEL(shfl_u64_idx) {
    u32 i = GOLDEN_TID;
    u64 v = (u64)a[i] * 0x9E3779B97F4A7C15ull ^ ((u64)c[i] << 32);
    d[i] = __shfl_sync(FULL, v, (int)b[i], 8) ^ __shfl_down_sync(FULL, v, (u32)b[i] & 3, 32);
}

GOLDEN_KERNEL(shfl_s64_up) {
    u32 i = GOLDEN_TID;
    long long v = (long long)((u64)c[i] << 32 | a[i]);
    d[i] = (u64)__shfl_up_sync(FULL, v, (u32)b[i], 16);
}

GOLDEN_KERNEL(shfl_f64_xor) {
    u32 i = GOLDEN_TID;
    double v = __longlong_as_double((long long)((u64)a[i] << 32 | c[i]));
    d[i] = (u64)__double_as_longlong(__shfl_xor_sync(FULL, v, (int)b[i], 32));
}

GOLDEN_KERNEL(shfl_f32_up_down) {
    u32 i = GOLDEN_TID;
    float v = __uint_as_float((u32)a[i]);
    float r1 = __shfl_up_sync(FULL, v, (u32)b[i], 16);
    float r2 = __shfl_down_sync(FULL, v, (u32)c[i] & 31, 4);
    d[i] = __float_as_uint(r1) | (u64)__float_as_uint(r2) << 32;
}

// ---------------------------------------------------------------- shfl.sync in inline asm

// b: low 6 bits from b[] (0..39) plus junk above bit 5 (ignored by the hardware); c: any 32 bits.
#define SHFL_ASM_KERNEL(name, mode, CEXPR)                                               \
    GOLDEN_KERNEL(name) {                                                                \
        u32 i = GOLDEN_TID, v = (u32)a[i];                                               \
        u32 bb = (u32)b[i] + ((u32)c[i ^ 1] & ~63u), cc = (CEXPR), r, p;                 \
        asm volatile("{\n\t.reg .pred q;\n\tshfl.sync." mode ".b32 %0|q, %2, %3, %4, 0xffffffff;\n\t" \
                     "selp.u32 %1, 1, 0, q;\n\t}"                                        \
                     : "=r"(r), "=r"(p) : "r"(v), "r"(bb), "r"(cc));                     \
        d[i] = r | (u64)p << 32;                                                         \
    }
SHFL_ASM_KERNEL(shfl_asm_idx_lanec, "idx", (u32)c[i])
SHFL_ASM_KERNEL(shfl_asm_up_lanec, "up", (u32)c[i])
SHFL_ASM_KERNEL(shfl_asm_down_lanec, "down", (u32)c[i])
SHFL_ASM_KERNEL(shfl_asm_bfly_lanec, "bfly", (u32)c[i])
SHFL_ASM_KERNEL(shfl_asm_idx_warpc, "idx", (u32)c[i | 31])
SHFL_ASM_KERNEL(shfl_asm_up_warpc, "up", (u32)c[i | 31])
SHFL_ASM_KERNEL(shfl_asm_down_warpc, "down", (u32)c[i | 31])
SHFL_ASM_KERNEL(shfl_asm_bfly_warpc, "bfly", (u32)c[i | 31])
// c built from two small numbers: clamp 0..31 and a segment mask 0..31 (many non-power-of-2 masks).
SHFL_ASM_KERNEL(shfl_asm_idx_segc, "idx", ((u32)c[i | 31] & 31) | ((u32)b[i | 31] & 31) << 8)
SHFL_ASM_KERNEL(shfl_asm_up_segc, "up", ((u32)c[i | 31] & 31) | ((u32)b[i | 31] & 31) << 8)
SHFL_ASM_KERNEL(shfl_asm_down_segc, "down", ((u32)c[i | 31] & 31) | ((u32)b[i | 31] & 31) << 8)
SHFL_ASM_KERNEL(shfl_asm_bfly_segc, "bfly", ((u32)c[i | 31] & 31) | ((u32)b[i | 31] & 31) << 8)

// Immediate b and c operands, a register member mask, and the form without a predicate output.
GOLDEN_KERNEL(shfl_asm_imm) {
    u32 i = GOLDEN_TID, v = (u32)a[i], m = FULL, r1, r2, r3, r4, r5, p;
    asm volatile("{\n\t.reg .pred q1, q2, q3, q4;\n\t"
                 "shfl.sync.idx.b32 %0|q1, %6, 37, 0x0c03, 0xffffffff;\n\t"
                 "shfl.sync.up.b32 %1|q2, %6, 3, 0x1804, %7;\n\t"
                 "shfl.sync.down.b32 %2|q3, %6, 5, 0x101c, %7;\n\t"
                 "shfl.sync.bfly.b32 %3|q4, %6, 18, 0x0a1f, 0xffffffff;\n\t"
                 "shfl.sync.idx.b32 %4, %6, 7, 0x1f, %7;\n\t"
                 "selp.u32 %5, 1, 0, q1;\n\t"
                 "@q2 or.b32 %5, %5, 2;\n\t"
                 "@q3 or.b32 %5, %5, 4;\n\t"
                 "@q4 or.b32 %5, %5, 8;\n\t}"
                 : "=r"(r1), "=r"(r2), "=r"(r3), "=r"(r4), "=r"(r5), "=r"(p)
                 : "r"(v), "r"(m));
    d[i] = (r1 ^ rotl32(r2, 8) ^ rotl32(r3, 16) ^ rotl32(r4, 24)) | (u64)(r5 & 0x0FFFFFFF) << 32 | (u64)p << 60;
}

// ---------------------------------------------------------------- reductions and scans

template <int W>
__device__ __forceinline__ void reduce_body(const u64* a, const u64* b, const u64* c, u64* d) {
    u32 i = GOLDEN_TID, v = (u32)a[i];
    u32 s = v, mx = v;
    for (int o = W / 2; o > 0; o /= 2) s += __shfl_down_sync(FULL, s, o, W);       // valid at segment lane 0
    for (int o = 1; o < W; o *= 2) mx = max(mx, __shfl_xor_sync(FULL, mx, o, W));  // valid everywhere
    d[i] = s | (u64)mx << 32;
}
GOLDEN_KERNEL(warp_reduce_w2) { reduce_body<2>(a, b, c, d); }
GOLDEN_KERNEL(warp_reduce_w4) { reduce_body<4>(a, b, c, d); }
GOLDEN_KERNEL(warp_reduce_w8) { reduce_body<8>(a, b, c, d); }
GOLDEN_KERNEL(warp_reduce_w16) { reduce_body<16>(a, b, c, d); }
GOLDEN_KERNEL(warp_reduce_w32) { reduce_body<32>(a, b, c, d); }

GOLDEN_KERNEL(warp_scan_inclusive) {
    u32 i = GOLDEN_TID, v = (u32)a[i];
    u32 s32 = v, s8 = v;
    for (u32 o = 1; o < 32; o *= 2) {
        u32 t = __shfl_up_sync(FULL, s32, o, 32);
        if (lane_id() >= o) s32 += t;
    }
    for (u32 o = 1; o < 8; o *= 2) {
        u32 t = __shfl_up_sync(FULL, s8, o, 8);
        if ((lane_id() & 7) >= o) s8 += t;
    }
    d[i] = s32 | (u64)s8 << 32;
}

// Float and double sums of small integers are exact, so the order does not matter.
GOLDEN_KERNEL(warp_reduce_float) {
    u32 i = GOLDEN_TID;
    float f = (float)((int)((u32)a[i] & 0xFFFF) - 0x8000);
    double g = (double)(int)(u32)a[i];
    for (int o = 16; o > 0; o /= 2) {
        f += __shfl_xor_sync(FULL, f, o);
        g += __shfl_down_sync(FULL, g, o);
    }
    d[i] = __float_as_uint(f) | (u64)(__double_as_longlong(g) >> 32) << 32;
}

// ---------------------------------------------------------------- match.sync

GOLDEN_KERNEL(match_any_b32) {
    u32 i = GOLDEN_TID;
    u32 m1 = __match_any_sync(FULL, (u32)a[i] & 3);
    u32 m2 = __match_any_sync(FULL, (u32)b[i]);
    d[i] = m1 | (u64)m2 << 32;
}

GOLDEN_KERNEL(match_any_b64) {
    u32 i = GOLDEN_TID;
    u64 v1 = (a[i] & 1) << 40 | (b[i] & 1);
    u64 v2 = (b[i] & 3) << 33 | (u64)((u32)c[i] & 0x80000000u);
    u32 m1 = __match_any_sync(FULL, v1);
    u32 m2 = __match_any_sync(FULL, (long long)v2);
    d[i] = m1 | (u64)m2 << 32;
}

GOLDEN_KERNEL(match_all_b32) {
    u32 i = GOLDEN_TID, w = i >> 5;
    u32 v = (w % 3 == 0) ? 7u : (w % 3 == 1) ? ((u32)a[i] & 1) : ((u32)b[i] == 99);
    int p1 = 0, p2 = 0;
    u32 m1 = __match_all_sync(FULL, v, &p1);
    u32 m2 = __match_all_sync(FULL, (u32)a[i] & 0x80000000u, &p2);
    d[i] = (m1 ^ (m2 & 0xFFFF0000u)) | (u64)p1 << 32 | (u64)p2 << 33 | (u64)(m2 & 0xFFFF) << 40;
}

GOLDEN_KERNEL(match_all_b64) {
    u32 i = GOLDEN_TID, w = i >> 5;
    u64 v = (w & 1) ? 0x123456789ull << 20 : (w & 2) ? (a[i] & 1) << 63 : (b[i] < 40 ? 5ull : b[i]);
    int p = 0;
    u32 m = __match_all_sync(FULL, v, &p);
    d[i] = m | (u64)p << 32;
}

GOLDEN_KERNEL(match_divergent) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    __syncwarp();
    u64 r;
    if (y & 1) {
        u32 m = __activemask();
        int p;
        u32 all = __match_all_sync(m, x & 0x100, &p);
        r = __match_any_sync(m, x & 3) | (u64)(all ^ (u32)p) << 32;
    } else {
        u32 m = __activemask();
        r = __match_any_sync(m, (u64)(y >> 2)) | (u64)m << 32;
    }
    d[i] = r;
}

GOLDEN_KERNEL(match_early_exit) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    if (y % 5 == 1) return;
    int p;
    u32 m1 = __match_any_sync(FULL, x & 1);
    u32 m2 = __match_all_sync(FULL, y < 100, &p);
    d[i] = m1 | (u64)(m2 ^ (u32)p) << 32;
}

GOLDEN_KERNEL(match_asm) {
    u32 i = GOLDEN_TID, x = (u32)a[i], m = FULL, r1, r2, r3, p;
    u64 y64 = b[i] >> 3;
    asm volatile("{\n\t.reg .pred q;\n\t"
                 "match.any.sync.b32 %0, %4, 0xffffffff;\n\t"
                 "match.all.sync.b64 %1|q, %5, %6;\n\t"
                 "selp.u32 %3, 1, 0, q;\n\t"
                 "match.all.sync.b32 %2, %7, %6;\n\t}"
                 : "=r"(r1), "=r"(r2), "=r"(r3), "=r"(p)
                 : "r"(x >> 30), "l"(y64), "r"(m), "r"((i >> 5) & 1 ? 3u : x & 1));
    d[i] = r1 | (u64)(r2 ^ r3) << 32 | (u64)p << 63;
}

// ---------------------------------------------------------------- special registers

#define SREG(name) ({ u32 _r; asm volatile("mov.u32 %0, %%" #name ";" : "=r"(_r)); _r; })
__device__ __forceinline__ void sreg_body(const u64* a, u64* d) {
    u32 i = GOLDEN_TID;
    u32 eq = SREG(lanemask_eq), lt = SREG(lanemask_lt), le = SREG(lanemask_le), gt = SREG(lanemask_gt),
        ge = SREG(lanemask_ge), lane = SREG(laneid);
    // eq | lt << 32 exactly; the others folded in by xor with distinct rotations
    d[i] = (eq ^ rotl32(le, 5) ^ rotl32(ge, 11)) | (u64)(lt ^ rotl32(gt, 17) ^ (lane << 26)) << 32;
    if (a[i] == 1) d[i] = eq | (u64)lt << 32;  // some rows exact
}
GOLDEN_KERNEL(sreg_lanemask) { sreg_body(a, d); }
GOLDEN_KERNEL(sreg_lanemask_b48) { sreg_body(a, d); }

GOLDEN_KERNEL(sreg_lanemask_divergent) {
    u32 i = GOLDEN_TID;
    u64 r;
    if (b[i] & 1) r = SREG(lanemask_lt) | (u64)SREG(laneid) << 32;
    else r = SREG(lanemask_ge) | (u64)(SREG(lanemask_gt) ^ SREG(lanemask_le)) << 32;
    d[i] = r;
}

// ---------------------------------------------------------------- bar.warp.sync

GOLDEN_KERNEL(syncwarp_exchange) {
    __shared__ u32 s[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i];
    s[t] = x;
    __syncwarp();
    u32 r1 = s[(t & ~31u) | ((t ^ y) & 31)];
    __syncwarp();
    u32 r2 = 0;
    if (lane_id() < 16) {
        s[t] = x * 3 + 1;
        __syncwarp(0x0000FFFFu);
        r2 = s[(t & ~15u) | ((t + y) & 15)];
    } else {
        s[t] = x * 5 + 7;
        __syncwarp(0xFFFF0000u);
        r2 = s[(t & ~15u) | ((t - y) & 15)];
    }
    d[i] = r1 | (u64)r2 << 32;
}

// ---------------------------------------------------------------- the table

#define SHFL_CASES(W)                                                                    \
    {"shfl_idx_w" #W, 16, 128, ""}, {"shfl_up_w" #W, 16, 128, ""}, {"shfl_down_w" #W, 16, 128, ""}, {"shfl_xor_w" #W, 16, 128, ""},

GOLDEN_CASES {
    {"vote_ballot", 16, 128, ""},
    {"vote_any_all_uni", 16, 128, ""},
    {"vote_divergent_ballot", 16, 128, ""},
    {"vote_divergent_any_all_uni", 16, 128, ""},
    {"vote_nested", 16, 128, ""},
    {"vote_early_exit", 16, 128, ""},
    {"vote_partial_b48", 40, 48, ""},
    {"vote_partial_b80", 25, 80, ""},
    {"vote_partial_b200", 10, 200, ""},
    {"vote_group_masks", 16, 128, ""},
    {"vote_asm_negated", 16, 128, ""},
    {"activemask_ifelse", 16, 128, ""},
    {"activemask_loop", 16, 128, ""},
    {"activemask_exit", 16, 128, ""},
    {"activemask_partial_b72", 28, 72, ""},
    SHFL_CASES(1) SHFL_CASES(2) SHFL_CASES(4) SHFL_CASES(8) SHFL_CASES(16) SHFL_CASES(32)
    {"shfl_runtime_width", 16, 128, ""},
    {"shfl_divergent_halves", 16, 128, ""},
    {"shfl_group_masks", 16, 128, ""},
    {"shfl_u64_idx", 16, 128, ""},
    {"shfl_s64_up", 16, 128, ""},
    {"shfl_f64_xor", 16, 128, ""},
    {"shfl_f32_up_down", 16, 128, ""},
    {"shfl_asm_idx_lanec", 16, 128, ""},
    {"shfl_asm_up_lanec", 16, 128, ""},
    {"shfl_asm_down_lanec", 16, 128, ""},
    {"shfl_asm_bfly_lanec", 16, 128, ""},
    {"shfl_asm_idx_warpc", 16, 128, ""},
    {"shfl_asm_up_warpc", 16, 128, ""},
    {"shfl_asm_down_warpc", 16, 128, ""},
    {"shfl_asm_bfly_warpc", 16, 128, ""},
    {"shfl_asm_idx_segc", 16, 128, ""},
    {"shfl_asm_up_segc", 16, 128, ""},
    {"shfl_asm_down_segc", 16, 128, ""},
    {"shfl_asm_bfly_segc", 16, 128, ""},
    {"shfl_asm_imm", 16, 128, ""},
    {"warp_reduce_w2", 16, 128, ""},
    {"warp_reduce_w4", 16, 128, ""},
    {"warp_reduce_w8", 16, 128, ""},
    {"warp_reduce_w16", 16, 128, ""},
    {"warp_reduce_w32", 16, 128, ""},
    {"warp_scan_inclusive", 16, 128, ""},
    {"warp_reduce_float", 16, 128, ""},
    {"match_any_b32", 16, 128, ""},
    {"match_any_b64", 16, 128, ""},
    {"match_all_b32", 16, 128, ""},
    {"match_all_b64", 16, 128, ""},
    {"match_divergent", 16, 128, ""},
    {"match_early_exit", 16, 128, ""},
    {"match_asm", 16, 128, ""},
    {"sreg_lanemask", 16, 128, ""},
    {"sreg_lanemask_b48", 40, 48, ""},
    {"sreg_lanemask_divergent", 16, 128, ""},
    {"syncwarp_exchange", 16, 128, ""},
};
GOLDEN_MAIN
