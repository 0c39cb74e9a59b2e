// Golden family "async": the asynchronous copies and transaction barriers of sm_80 and sm_90, and
// elect.sync, one kernel per behaviour (inline asm, so the exact instruction is in the PTX). Built
// for compute_90 (the arch file). Inputs: a holds random words (copied through shared memory),
// b small values (sizes, counts, masks), c random words. Outputs: d[i] per thread, as each kernel
// says.
#include "golden.cuh"
GOLDEN_FAMILY("async", kU64, kSmall, kU32)

typedef unsigned short u16;

__device__ __forceinline__ u32 smem_addr(const void* p) { return (u32)__cvta_generic_to_shared(p); }

// cp.async of 16 bytes with a source size of 0..16 (b[i] % 17): the bytes past it are zero. Each
// thread copies a[2i..2i+1] to its own 16 bytes of shared memory and writes back what arrived,
// folded into one word.
GOLDEN_KERNEL(cp_async_zero_fill) {
    __shared__ __align__(16) u64 s[2 * 128];
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    s[2 * t] = s[2 * t + 1] = 0xDEADBEEFDEADBEEFull;
    u32 n = (u32)(b[i] % 17);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(smem_addr(&s[2 * t])), "l"(&a[2 * (i % 1024)]), "r"(n) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    d[i] = s[2 * t] ^ (s[2 * t + 1] * 3);
}

// cp.async.ca of 4 and 8 bytes, with the ignore-src predicate (odd b: zeros), in two groups, the
// first waited for with wait_group 1 and the second with wait_group 0.
GOLDEN_KERNEL(cp_async_groups) {
    __shared__ __align__(16) u64 s[2 * 128];
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    s[2 * t] = s[2 * t + 1] = ~0ull;
    u32 ignore = (u32)(b[i] & 1);
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0;\n"
                 "cp.async.ca.shared.global [%0], [%1], 8, p; }" :: "r"(smem_addr(&s[2 * t])), "l"(&a[i]), "r"(ignore) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&s[2 * t + 1])), "l"(&c[i]) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    u64 first = s[2 * t];
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    d[i] = first ^ (s[2 * t + 1] << 1);
}

// mbarrier state words: one thread per block runs a sequence and records what each step returns
// (pending counts of the state tokens, test_wait and its parity form before and after a phase).
GOLDEN_KERNEL(mbarrier_sequence) {
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID;
    if (threadIdx.x != 0) { d[i] = 0; return; }
    u32 count = 2 + (u32)(b[i] % 5), addr = smem_addr(&bar);
    u64 s1, s2, s3;
    u32 p1, p2, p3, p4, p5, n1, n2, n3;
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(addr), "r"(count) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s1) : "r"(addr) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n1) : "l"(s1));
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(p1) : "r"(addr), "l"(s1) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(s2) : "r"(addr), "r"(count - 1) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n2) : "l"(s2));
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(p2) : "r"(addr), "l"(s1) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(p3) : "r"(addr) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }" : "=r"(p4) : "r"(addr) : "memory");
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s3) : "r"(addr) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n3) : "l"(s3));
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }" : "=r"(p5) : "r"(addr) : "memory");
    d[i] = n1 | (u64)n2 << 8 | (u64)n3 << 16 | (u64)p1 << 24 | (u64)p2 << 25 | (u64)p3 << 26 | (u64)p4 << 27 | (u64)p5 << 28;
}

// A phase that needs arrivals and a transaction count: expect_tx, complete_tx and arrive.expect_tx,
// with the order of arrival and completion from b; each step's test_wait.parity recorded.
GOLDEN_KERNEL(mbarrier_tx) {
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID;
    if (threadIdx.x != 0) { d[i] = 0; return; }
    u32 addr = smem_addr(&bar), bytes = 16 * (1 + (u32)(b[i] % 7));
    u32 p[4];
    u64 st;
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(addr) : "memory");
    if (b[i] & 1) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(bytes) : "memory");
        asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(p[0]) : "r"(addr) : "memory");
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(addr) : "memory");
    } else {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(addr), "r"(bytes) : "memory");
        asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(p[0]) : "r"(addr) : "memory");
    }
    asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(p[1]) : "r"(addr) : "memory");
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(bytes - 16) : "memory");
    asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(p[2]) : "r"(addr) : "memory");
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 16;" :: "r"(addr) : "memory");
    asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(p[3]) : "r"(addr) : "memory");
    asm volatile("" :: "l"(st));   // the token is opaque: only used
    d[i] = p[0] | p[1] << 1 | p[2] << 2 | p[3] << 3;
}

// A block-wide pipeline: every thread copies with cp.async and arrives on the barrier when its
// copies land (cp.async.mbarrier.arrive.noinc), then waits with try_wait on the phase's parity and
// sums a neighbour's data; two stages, so each parity is waited on.
GOLDEN_KERNEL(mbarrier_pipeline) {
    __shared__ __align__(16) u64 s[2][128];
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    u32 addr = smem_addr(&bar);
    if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(addr), "r"(blockDim.x) : "memory");
    __syncthreads();
    u64 sum = 0;
    for (int stage = 0; stage < 2; ++stage) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(smem_addr(&s[stage][t])), "l"(&a[(i + stage * 977) % 2048]) : "memory");
        asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(addr) : "memory");
        // noinc: the arrival of the copies counts as this thread's arrival.
        asm volatile("{ .reg .pred q; W: mbarrier.try_wait.parity.shared.b64 q, [%0], %1; @!q bra W; }" :: "r"(addr), "r"(stage & 1) : "memory");
        sum += s[stage][(t * 37 + 11) % blockDim.x] * (stage + 1);
    }
    d[i] = sum;
}

// elect.sync over a member mask from b and c (never empty), executed by exactly its members:
// d = the elected lane, plus 64 when this lane is the leader.
GOLDEN_KERNEL(elect_sync) {
    unsigned i = GOLDEN_TID, lane = threadIdx.x & 31;
    u32 r = 0xFFFF, leader = 0;
    u32 mask = ((u32)c[i & ~31u] | 0x80000000u) & (0xFFFFFFFFu << (b[i & ~31u] % 8));
    if ((mask >> lane) & 1) {   // each executing lane is a member (an outsider is an illegal instruction)
        asm volatile("{ .reg .pred p; elect.sync %0|p, %2; selp.u32 %1, 1, 0, p; }" : "=r"(r), "=r"(leader) : "r"(mask));
    }
    d[i] = r | leader << 6;
}

GOLDEN_CASES {
    {"cp_async_zero_fill", 16, 128, ""},
    {"cp_async_groups", 16, 128, ""},
    {"mbarrier_sequence", 16, 128, ""},
    {"mbarrier_tx", 16, 128, ""},
    {"mbarrier_pipeline", 16, 128, ""},
    {"elect_sync", 16, 128, ""},
};
GOLDEN_MAIN
