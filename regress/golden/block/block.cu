// Golden tests: block-level barriers.
//   __syncthreads_count/_and/_or (bar.red.popc.u32 / bar.red.and.pred / bar.red.or.pred on barrier 0)
//     with per-block predicate modes (all true, all false, mixed) in blocks of 32..1024 threads,
//     including sizes that are not a multiple of 32 (48, 96, 200, 1000).
//   bar.red in inline asm: other barrier ids, negated predicates, barrier.red.*.aligned, a thread
//     count that covers only some warps (warps 0-1 or 1-2 of a 96-thread block).
//   Barrier reductions after lanes or whole warps returned (§3.2: exited lanes still let their warp
//     arrive; exited warps are dropped from barrier 0). These cases are last in the table.
//   Named barriers: producer/consumer with bar.arrive + bar.sync (ping-pong over two barriers),
//     bar.sync id,count for pairs of warps, barrier.sync with register id and count,
//     bar.arrive with a register count, bar.sync 1,64 in a 48-thread block (partial warp counts as 32),
//     non-aligned barrier.sync reached at two different PCs by the two halves of each warp.
//   Shared-memory exchange patterns around __syncthreads: reverse, 16x16 transpose, 1-D stencil with
//     halo, tree reduction (also for non-power-of-2 blocks), a barrier in a block-uniform loop.
// Dropped: nothing rejected for compute_75. Whole warps exiting before a barrier with an explicit
// thread count would hang, so the exit cases use barrier 0 without a count only.
#include "golden.cuh"

GOLDEN_FAMILY("block", kU32, kSmall, kU32)

__device__ __forceinline__ u64 mix64(u64 h, u64 v) { return (h ^ v) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }

// Per-block predicate mode: all true, all false, mixed from a, mixed from b (mostly true).
__device__ __forceinline__ bool block_pred(u32 x, u32 y) {
    switch (blockIdx.x & 3) {
    case 0: return true;
    case 1: return false;
    case 2: return x & 1;
    default: return y != 5;
    }
}

// ---------------------------------------------------------------- __syncthreads_count/and/or

__device__ __forceinline__ void sync_red_body(const u64* a, const u64* b, const u64* c, u64* d) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    bool p = block_pred(x, y);
    bool q = (x >> 4) & 1;
    u32 cp = __syncthreads_count(p);
    u32 cq = __syncthreads_count(q);
    u32 ap = __syncthreads_and(p), op = __syncthreads_or(p);
    u32 aq = __syncthreads_and(q), oq = __syncthreads_or(q);
    u32 ar = __syncthreads_and(y < 40), orr = __syncthreads_or(y > 100);  // always true / always false
    d[i] = cp | (u64)cq << 16 | (u64)ap << 32 | (u64)op << 33 | (u64)aq << 34 | (u64)oq << 35 | (u64)ar << 36 |
           (u64)orr << 37;
}
GOLDEN_KERNEL(sync_red_b32) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b48) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b96) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b128) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b200) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b256) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b1000) { sync_red_body(a, b, c, d); }
GOLDEN_KERNEL(sync_red_b1024) { sync_red_body(a, b, c, d); }

// ---------------------------------------------------------------- bar.red in inline asm

GOLDEN_KERNEL(bar_red_asm) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    u32 cnt, cnt2, an, orr, an2;
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ne.u32 p, %5, 0;\n\t"
                 "bar.red.popc.u32 %0, 3, !p;\n\t"
                 "barrier.red.popc.aligned.u32 %1, 5, p;\n\t"
                 "bar.red.and.pred q, 7, !p;\n\tselp.u32 %2, 1, 0, q;\n\t"
                 "barrier.red.or.aligned.pred q, 15, !p;\n\tselp.u32 %3, 1, 0, q;\n\t"
                 "setp.lt.u32 p, %6, 40;\n\t"
                 "bar.red.and.pred q, 2, p;\n\tselp.u32 %4, 1, 0, q;\n\t}"
                 : "=r"(cnt), "=r"(cnt2), "=r"(an), "=r"(orr), "=r"(an2)
                 : "r"(block_pred(x, y) ? 1u : 0u), "r"(y)
                 : "memory");
    d[i] = cnt | (u64)cnt2 << 16 | (u64)an << 32 | (u64)orr << 33 | (u64)an2 << 34;
}
GOLDEN_KERNEL(bar_red_asm_b200) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    u32 cnt, an;
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ne.u32 p, %2, 0;\n\t"
                 "bar.red.popc.u32 %0, 1, p;\n\t"
                 "bar.red.and.pred q, 1, p;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(cnt), "=r"(an) : "r"(x & 0x20) : "memory");
    d[i] = cnt | (u64)an << 32;
}

// Thread count on the reduction: only the participating warps are counted (§3.2, measured 32).
GOLDEN_KERNEL(bar_red_count_warps01_b96) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    u32 w = threadIdx.x >> 5, r = 0xFFFF, o = 0;
    if (w < 2) {
        asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %2, 0;\n\t"
                     "bar.red.popc.u32 %0, 1, 64, p;\n\t"
                     "bar.red.or.pred q, 2, 64, p;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                     : "=r"(r), "=r"(o) : "r"(x & 1) : "memory");
    }
    d[i] = r | (u64)o << 32 | (u64)w << 40;
}
GOLDEN_KERNEL(bar_red_count_warps12_b96) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    u32 w = threadIdx.x >> 5, r = 0xFFFF, an = 7;
    if (w >= 1) {
        asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %2, 0;\n\t"
                     "bar.red.popc.u32 %0, 4, 64, !p;\n\t"
                     "bar.red.and.pred q, 4, 64, p;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                     : "=r"(r), "=r"(an) : "r"(x & 2) : "memory");
    }
    d[i] = r | (u64)an << 32 | (u64)w << 40;
}

// ---------------------------------------------------------------- named barriers

// Warps 0-1 produce into shared memory and arrive on barrier 1; warps 2-3 wait on barrier 1,
// consume, and arrive on barrier 2, on which the producers wait before overwriting the buffer.
GOLDEN_KERNEL(named_producer_consumer) {
    __shared__ u32 buf[64];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i];
    u64 h = 0;
    for (u32 it = 0; it < 4; ++it) {
        if (t < 64) {
            if (it > 0) asm volatile("bar.sync 2, 128;" ::: "memory");
            u32 v = x * (it + 1) + y * 0x01000193u + it;
            buf[t] = v;
            h = mix64(h, v);
            asm volatile("bar.arrive 1, 128;" ::: "memory");
        } else {
            asm volatile("bar.sync 1, 128;" ::: "memory");
            u32 k = (t - 64 + it * 5 + y) & 63;
            h = mix64(h, buf[k]);
            if (it < 3) asm volatile("bar.arrive 2, 128;" ::: "memory");
        }
    }
    d[i] = h;
}

// Same pattern with barrier.* spelling, register ids and a register count; 8 warps: 0-3 produce.
GOLDEN_KERNEL(named_producer_consumer_reg) {
    __shared__ u32 buf[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i];
    u32 full = 3 + (u32)(b[0] & 0), empty = 9 + (u32)(b[1] & 0), n = blockDim.x;
    u64 h = 0;
    for (u32 it = 0; it < 3; ++it) {
        if (t < 128) {
            if (it > 0) asm volatile("barrier.sync %0, %1;" :: "r"(empty), "r"(n) : "memory");
            buf[t] = x ^ (it * 0x9E3779B9u);
            asm volatile("barrier.arrive %0, %1;" :: "r"(full), "r"(n) : "memory");
            h = mix64(h, it);
        } else {
            asm volatile("barrier.sync %0, %1;" :: "r"(full), "r"(n) : "memory");
            h = mix64(h, buf[(t * 7 + it) & 127]);
            if (it < 2) asm volatile("barrier.arrive %0, %1;" :: "r"(empty), "r"(n) : "memory");
        }
    }
    d[i] = h;
}

// Pairs of warps synchronize on their own barrier (id 1 + warp/2, count 64, both in registers).
GOLDEN_KERNEL(named_pairs_reg_id) {
    __shared__ u32 s[256];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i];
    u32 id = 1 + (t >> 6), cnt = 64;
    s[t] = x;
    asm volatile("barrier.sync %0, %1;" :: "r"(id), "r"(cnt) : "memory");
    u32 r = s[(t & ~63u) | ((t + 32 + (u32)b[i]) & 63)];
    asm volatile("barrier.sync %0, %1;" :: "r"(id), "r"(cnt) : "memory");
    s[t] = r * 3;
    asm volatile("bar.sync %0, 64;" :: "r"(id) : "memory");
    r ^= s[(t & ~63u) | ((t + 1) & 63)] << 1;
    d[i] = r | (u64)id << 32;
}

// Two halves of a 256-thread block on barriers 1 and 2 with count 128 (immediates).
GOLDEN_KERNEL(named_halves_imm) {
    __shared__ u32 s[256];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i];
    s[t] = x + t;
    if (t < 128) asm volatile("bar.sync 1, 128;" ::: "memory");
    else asm volatile("bar.sync 2, 128;" ::: "memory");
    u32 r = s[(t & 128) | ((t * 5 + 3) & 127)];
    d[i] = r | (u64)(t >> 7) << 32;
}

// Barrier id from an input, the same for the whole launch, no count (all threads).
GOLDEN_KERNEL(named_reg_id_all) {
    __shared__ u32 s[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i];
    u32 id = (u32)b[180] & 15;  // b[180] = 5 (kSmall edge 5)
    s[t] = x;
    asm volatile("bar.sync %0;" :: "r"(id) : "memory");
    d[i] = s[127 - t] | (u64)id << 32;
}

// 48-thread block: warp 1 has 16 lanes and still counts as a whole warp for bar.sync 1, 64.
GOLDEN_KERNEL(named_partial_warp_b48) {
    __shared__ u32 s[48];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i];
    s[t] = x;
    asm volatile("bar.sync 1, 64;" ::: "memory");
    u32 r = s[(t + 17) % 48];
    asm volatile("bar.sync 1, 64;" ::: "memory");
    s[t] = r ^ 0xFFFF;
    asm volatile("barrier.sync 2, 64;" ::: "memory");
    d[i] = r | (u64)s[47 - t] << 32;
}

// Non-aligned barrier.sync reached at two PCs: lanes < 16 and lanes >= 16 of every warp.
GOLDEN_KERNEL(named_divergent_pcs) {
    __shared__ u32 s[128], s2[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], one = 1;
    s[t] = x;
    u32 r;
    if ((t & 31) < 16) {
        s2[t] = x * 3;
        asm volatile("barrier.sync 1;" ::: "memory");
        r = s[(t + 33) & 127] + s2[(t + 16) & 127];
    } else {
        s2[t] = x * 5;
        asm volatile("barrier.sync %0;" :: "r"(one) : "memory");
        r = s[(t + 7) & 127] ^ s2[(t + 80) & 127];
    }
    d[i] = r;
}

// ---------------------------------------------------------------- shared-memory exchange

__device__ __forceinline__ void smem_reverse_body(const u64* a, u64* d) {
    __shared__ u64 s[1024];
    u32 i = GOLDEN_TID, t = threadIdx.x, n = blockDim.x;
    s[t] = a[i] * 0x100000001ull;
    __syncthreads();
    d[i] = s[n - 1 - t];
}
GOLDEN_KERNEL(smem_reverse_b96) { smem_reverse_body(a, d); }
GOLDEN_KERNEL(smem_reverse_b1024) { smem_reverse_body(a, d); }

GOLDEN_KERNEL(smem_transpose16) {
    __shared__ u32 tile[16][17];
    u32 i = GOLDEN_TID, t = threadIdx.x, r = t >> 4, col = t & 15;
    tile[r][col] = (u32)a[i];
    __syncthreads();
    u32 v = tile[col][r];
    __syncthreads();
    tile[col][r] = v + (u32)b[i];
    __syncthreads();
    d[i] = v | (u64)tile[r][col] << 32;
}

GOLDEN_KERNEL(smem_stencil_b200) {
    __shared__ int s[200 + 4];
    u32 i = GOLDEN_TID, t = threadIdx.x, n = blockDim.x;
    s[t + 2] = (int)(u32)a[i];
    if (t < 2) {
        s[t] = (int)(u32)c[i];             // left halo from c
        s[n + 2 + t] = (int)(u32)c[i + 2]; // right halo
    }
    __syncthreads();
    int r = s[t] - 2 * s[t + 1] + 3 * s[t + 2] - 2 * s[t + 3] + s[t + 4];
    d[i] = (u64)(s64)r;
}

__device__ __forceinline__ void smem_tree_reduce_body(const u64* a, u64* d) {
    __shared__ u64 s[1024];
    __shared__ u32 smax[1024];
    u32 i = GOLDEN_TID, t = threadIdx.x, n = blockDim.x;
    s[t] = a[i];
    smax[t] = (u32)a[i];
    __syncthreads();
    u32 p = 1;
    while (p < n) p <<= 1;
    for (u32 st = p >> 1; st > 0; st >>= 1) {
        if (t < st && t + st < n) {
            s[t] += s[t + st];
            smax[t] = max(smax[t], smax[t + st]);
        }
        __syncthreads();
    }
    d[i] = (t == 0) ? s[0] : (s[0] ^ ((u64)smax[0] << 32) ^ t);
}
GOLDEN_KERNEL(smem_tree_reduce_b64) { smem_tree_reduce_body(a, d); }
GOLDEN_KERNEL(smem_tree_reduce_b200) { smem_tree_reduce_body(a, d); }
GOLDEN_KERNEL(smem_tree_reduce_b1000) { smem_tree_reduce_body(a, d); }

// A barrier inside a loop whose trip count is uniform per block (from c[blockIdx]).
GOLDEN_KERNEL(smem_loop_barrier) {
    __shared__ u32 s[2][128];
    u32 i = GOLDEN_TID, t = threadIdx.x, n = blockDim.x;
    u32 trips = ((u32)c[blockIdx.x] & 7) + 1;
    s[0][t] = (u32)a[i];
    __syncthreads();
    u32 cur = 0;
    for (u32 k = 0; k < trips; ++k) {
        u32 l = s[cur][(t + n - 1) % n], r = s[cur][(t + 1) % n];
        s[cur ^ 1][t] = l ^ (r << 1) ^ s[cur][t];
        cur ^= 1;
        __syncthreads();
    }
    d[i] = s[cur][t] | (u64)trips << 32;
}

// ---------------------------------------------------------------- after early exits (barrier 0)

// Lanes return before the barrier (their warps still arrive, §3.2 measurement 2).
GOLDEN_KERNEL(exit_lanes_sync_red_b96) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    if (y % 5 == 0) return;
    u32 cp = __syncthreads_count(x & 1);
    u32 ap = __syncthreads_and(block_pred(x, y)), op = __syncthreads_or(block_pred(x, y));
    d[i] = cp | (u64)ap << 32 | (u64)op << 33;
}

// Whole warps return (warp 3, and the partial last warp of the 200-thread block) plus some lanes.
GOLDEN_KERNEL(exit_warps_sync_red_b200) {
    __shared__ u32 s[200];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i];
    u32 w = t >> 5;
    if (w == 3 || w == 6) return;
    if (y == 7) return;
    s[t] = x;
    u32 cp = __syncthreads_count(x & 2);
    u32 ap = __syncthreads_and(block_pred(x, y)), op = __syncthreads_or(block_pred(x, y));
    u32 nb = s[(t + 32) % 96];  // warps 0-2 are fully there apart from lanes with y == 7
    if (b[blockIdx.x * 200 + (t + 32) % 96] == 7) nb = 0;
    d[i] = cp | (u64)ap << 32 | (u64)op << 33 | (u64)(nb & 0xFFFFFF) << 40;
}

// ---------------------------------------------------------------- the table

GOLDEN_CASES {
    {"sync_red_b32", 64, 32, ""},
    {"sync_red_b48", 40, 48, ""},
    {"sync_red_b96", 20, 96, ""},
    {"sync_red_b128", 16, 128, ""},
    {"sync_red_b200", 10, 200, ""},
    {"sync_red_b256", 8, 256, ""},
    {"sync_red_b1000", 2, 1000, ""},
    {"sync_red_b1024", 2, 1024, ""},
    {"bar_red_asm", 16, 128, ""},
    {"bar_red_asm_b200", 10, 200, ""},
    {"bar_red_count_warps01_b96", 20, 96, ""},
    {"bar_red_count_warps12_b96", 20, 96, ""},
    {"named_producer_consumer", 16, 128, ""},
    {"named_producer_consumer_reg", 8, 256, ""},
    {"named_pairs_reg_id", 8, 256, ""},
    {"named_halves_imm", 8, 256, ""},
    {"named_reg_id_all", 16, 128, ""},
    {"named_partial_warp_b48", 40, 48, ""},
    {"named_divergent_pcs", 16, 128, ""},
    {"smem_reverse_b96", 20, 96, ""},
    {"smem_reverse_b1024", 2, 1024, ""},
    {"smem_transpose16", 8, 256, ""},
    {"smem_stencil_b200", 10, 200, ""},
    {"smem_tree_reduce_b64", 32, 64, ""},
    {"smem_tree_reduce_b200", 10, 200, ""},
    {"smem_tree_reduce_b1000", 2, 1000, ""},
    {"smem_loop_barrier", 16, 128, ""},
    {"exit_lanes_sync_red_b96", 20, 96, ""},
    {"exit_warps_sync_red_b200", 10, 200, ""},
};
GOLDEN_MAIN
