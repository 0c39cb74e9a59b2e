// Golden family "bulk": the one-dimensional bulk copies of sm_90 (cp.async.bulk between global
// and shared memory, and shared to shared, completing on an mbarrier or in bulk groups), the bulk
// reductions (cp.reduce.async.bulk) and the bulk prefetch, one block of 128 threads moving 1 KB
// per kernel; thread 0 issues the copy, the others wait. Built for compute_90. Inputs: a, b and c
// random words. Outputs: d[i] as each kernel says.
#include "golden.cuh"
GOLDEN_FAMILY("bulk", kU64, kU64, kU64)

__device__ __forceinline__ u32 smem(const void* p) { return (u32)__cvta_generic_to_shared(p); }

// Waits until the mbarrier's phase 0 completes.
__device__ __forceinline__ void wait_phase0(u64* bar) {
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" :: "r"(smem(bar)) : "memory");
}

// Global to shared, completing on an mbarrier that expects the bytes: d[i] = what landed in
// shared memory, mixed with the thread's own c[i].
GOLDEN_KERNEL(bulk_global_to_shared) {
    __shared__ __align__(128) u64 s[128];
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(smem(&bar)) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     :: "r"(smem(s)), "l"(a + blockIdx.x * 128), "r"(smem(&bar)) : "memory");
    }
    wait_phase0(&bar);
    d[i] = s[(t * 37) % 128] ^ (c[i] << 1);
}

// The copy first and the expectation after it: the transaction count goes below zero first.
GOLDEN_KERNEL(bulk_copy_before_expect) {
    __shared__ __align__(128) u64 s[128];
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     :: "r"(smem(s)), "l"(b + blockIdx.x * 128), "r"(smem(&bar)) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(smem(&bar)) : "memory");
    }
    wait_phase0(&bar);
    d[i] = s[127 - t] + t;
}

// Shared to shared (the cluster's shared memory is the block's own), on an mbarrier.
// A shared::cluster destination needs a cluster launch on the H100 (an illegal instruction
// otherwise): these kernels name a cluster of one block.
extern "C" __global__ void __cluster_dims__(1, 1, 1) bulk_shared_to_shared(const u64* __restrict__ a, const u64* __restrict__ b, const u64* __restrict__ c, u64* __restrict__ d) {
    __shared__ __align__(128) u64 s[128];
    __shared__ __align__(128) u64 s2[128];
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    s[t] = b[i] * 3;
    if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(smem(&bar)) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     :: "r"(smem(s2)), "r"(smem(s)), "r"(smem(&bar)) : "memory");
    }
    wait_phase0(&bar);
    d[i] = s2[(t * 5) % 128] - t;
}

// Shared to global in a bulk group: the block's 1 KB of d is written by the copy alone.
GOLDEN_KERNEL(bulk_shared_to_global) {
    __shared__ __align__(128) u64 s[128];
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    s[t] = a[i] ^ (b[i] >> 3);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(d + blockIdx.x * 128), "r"(smem(s)) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// Bulk reductions into global memory: d[i] starts as a[i], then gains shared memory's b[i]-based
// values by the operation, in a bulk group.
#define REDUCE(name, op)                                                                          \
    GOLDEN_KERNEL(name) {                                                                        \
        __shared__ __align__(128) u64 s[128];                                                    \
        unsigned i = GOLDEN_TID, t = threadIdx.x;                                                \
        d[i] = a[i];                                                                             \
        s[t] = b[i] ^ (c[i] << 17);                                                              \
        asm volatile("fence.proxy.async.global;" ::: "memory");                                  \
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                             \
        __syncthreads();                                                                         \
        if (t == 0) {                                                                            \
            asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." op " [%0], [%1], 1024;" \
                         :: "l"(d + blockIdx.x * 128), "r"(smem(s)) : "memory");                 \
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");                            \
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                            \
        }                                                                                        \
    }
REDUCE(reduce_add_u32, "add.u32")
REDUCE(reduce_add_u64, "add.u64")
REDUCE(reduce_min_s32, "min.s32")
REDUCE(reduce_max_u64, "max.u64")
REDUCE(reduce_xor_b64, "xor.b64")
REDUCE(reduce_and_b32, "and.b32")
REDUCE(reduce_inc_u32, "inc.u32")
REDUCE(reduce_add_f32, "add.f32")
REDUCE(reduce_add_f64, "add.f64")

// A bulk reduction into shared memory, completing on an mbarrier.
extern "C" __global__ void __cluster_dims__(1, 1, 1) reduce_shared_add_u32(const u64* __restrict__ a, const u64* __restrict__ b, const u64* __restrict__ c, u64* __restrict__ d) {
    __shared__ __align__(128) u64 s[128];
    __shared__ __align__(128) u64 t2[128];
    __shared__ __align__(8) u64 bar;
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    s[t] = b[i];
    t2[t] = a[i];
    if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(smem(&bar)) : "memory");
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 1024, [%2];"
                     :: "r"(smem(t2)), "r"(smem(s)), "r"(smem(&bar)) : "memory");
    }
    wait_phase0(&bar);
    d[i] = t2[t];
}

// The bulk prefetch to L2 changes nothing: d[i] = a[i] + c[i].
GOLDEN_KERNEL(bulk_prefetch) {
    unsigned i = GOLDEN_TID;
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.prefetch.L2.global [%0], 1024;" :: "l"(a + blockIdx.x * 128) : "memory");
    d[i] = a[i] + c[i];
}

GOLDEN_CASES {
    {"bulk_global_to_shared", 16, 128, ""},
    {"bulk_copy_before_expect", 16, 128, ""},
    {"bulk_shared_to_global", 16, 128, ""},
    {"reduce_add_u32", 16, 128, ""},
    {"reduce_add_u64", 16, 128, ""},
    {"reduce_min_s32", 16, 128, ""},
    {"reduce_max_u64", 16, 128, ""},
    {"reduce_xor_b64", 16, 128, ""},
    {"reduce_and_b32", 16, 128, ""},
    {"reduce_inc_u32", 16, 128, ""},
    {"reduce_add_f32", 16, 128, ""},
    {"reduce_add_f64", 16, 128, ""},
    {"reduce_shared_add_u32", 16, 128, ""},
    {"bulk_prefetch", 16, 128, ""},
    {"bulk_shared_to_shared", 16, 128, ""},
};
GOLDEN_MAIN
