// Litmus tests of the memory model on global memory, between blocks on different SMs (run with
// sim.memory_model=relaxed; docs/memory_model.md). Each group of blocks (2, or 4 for IRIW) uses its
// own words, `kLineWords` apart so that no two share a cache line; each block is one thread
// (the manifests' launches) playing its role. Block b of a group writes its SM's id to out[8 g + b] and its results to out[8 g + 4 + i],
// for litmus_tally to count the outcomes of the groups whose blocks ran on different SMs.
//
// Every test comes plain and fenced (__threadfence(), membar.gl, between the accesses). Readers
// first wait, a bounded number of polls, for the flag they test, so that they read while the
// writers' stores are on their way.
#include <cstdint>

constexpr int kLineWords = 32;   // 128 bytes
constexpr int kPolls = 4096;

__device__ __forceinline__ unsigned smid() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

template <bool Fenced>
__device__ __forceinline__ void fence() {
    if (Fenced) __threadfence();
}

// Polls a volatile word until it differs from `init` (or the polls run out); returns what it read.
__device__ __forceinline__ int poll(volatile int* p, int init) {
    int v = *p;
    for (int i = 0; i < kPolls && v == init; ++i) v = *p;
    return v;
}

// A group's two words, and this block's role in it; records the block's SM.
struct Group {
    int g, role;
    volatile int* x;
    volatile int* y;
};

__device__ __forceinline__ Group group_of(volatile int* mem, int* out, int roles) {
    Group k;
    k.g = blockIdx.x / roles;
    k.role = blockIdx.x % roles;
    k.x = mem + (2 * k.g) * kLineWords;
    k.y = mem + (2 * k.g + 1) * kLineWords;
    out[8 * k.g + k.role] = smid();
    return k;
}

// The readers' pattern: poll `flag` until it leaves `init`, then (past the fence) read `data`;
// the two values go to result[0] and result[1].
template <bool Fenced>
__device__ __forceinline__ void poll_then_read(volatile int* flag, int init, volatile int* data, int* result) {
    const int seen = poll(flag, init);
    fence<Fenced>();
    result[0] = seen;
    result[1] = *data;
}

// Message passing: x = 1; y = 1 || r0 = y (polled); r1 = x. Forbidden with fences: r0 = 1, r1 = 0.
template <bool Fenced>
__device__ void mp(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 2);
    if (k.role == 0) {
        *k.x = 1;
        fence<Fenced>();
        *k.y = 1;
    } else {
        poll_then_read<Fenced>(k.y, 0, k.x, out + 8 * k.g + 4);
    }
}

// Store buffering: x = 1; r0 = y || y = 1; r1 = x. Forbidden with fences: r0 = 0, r1 = 0.
template <bool Fenced>
__device__ void sb(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 2);
    *(k.role == 0 ? k.x : k.y) = 1;
    fence<Fenced>();
    out[8 * k.g + 4 + k.role] = *(k.role == 0 ? k.y : k.x);
}

// Load buffering: r0 = x; y = 1 || r1 = y; x = 1. Forbidden with fences: r0 = 1, r1 = 1.
template <bool Fenced>
__device__ void lb(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 2);
    const int r = *(k.role == 0 ? k.x : k.y);
    fence<Fenced>();
    *(k.role == 0 ? k.y : k.x) = 1;
    out[8 * k.g + 4 + k.role] = r;
}

// Independent reads of independent writes: x = 1 || y = 1 || r0 = x (polled); r1 = y ||
// r2 = y (polled); r3 = x. Forbidden with fences: r0 = 1, r1 = 0, r2 = 1, r3 = 0.
template <bool Fenced>
__device__ void iriw(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 4);
    if (k.role == 0) *k.x = 1;
    if (k.role == 1) *k.y = 1;
    if (k.role == 2) poll_then_read<Fenced>(k.x, 0, k.y, out + 8 * k.g + 4);
    if (k.role == 3) poll_then_read<Fenced>(k.y, 0, k.x, out + 8 * k.g + 6);
}

// Coherence of reads: x = 1 || r0 = x (polled); r1 = x. Forbidden always: r0 = 1, r1 = 0.
template <bool Fenced>
__device__ void corr(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 2);
    if (k.role == 0) *k.x = 1;
    else poll_then_read<Fenced>(k.x, 0, k.x, out + 8 * k.g + 4);
}

// Coherence of writes: x = 1; x = 2 || r0 = x (polled); r1 = x. Forbidden always: r0 = 2, r1 = 1;
// x holds 2 in the end (the manifest compares).
template <bool Fenced>
__device__ void coww(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 2);
    if (k.role == 0) {
        *k.x = 1;
        fence<Fenced>();
        *k.x = 2;
    } else {
        poll_then_read<Fenced>(k.x, 0, k.x, out + 8 * k.g + 4);
    }
}

// The CUDA Programming Guide's example of __threadfence(): X (x) and Y (y) start at 1 and 2;
// writeXY: X = 10; Y = 20 || readXY: B = Y (polled); A = X. Results (A, B). Without the fences
// A == 1 && B == 20 may be seen; with them, B == 20 implies A == 10.
template <bool Fenced>
__device__ void xy(volatile int* mem, int* out) {
    const Group k = group_of(mem, out, 2);
    if (k.role == 0) {   // writeXY
        *k.x = 10;
        fence<Fenced>();
        *k.y = 20;
    } else {             // readXY
        int BA[2];
        poll_then_read<Fenced>(k.y, 2, k.x, BA);
        out[8 * k.g + 4] = BA[1];
        out[8 * k.g + 5] = BA[0];
    }
}

#define LITMUS(name)                                                                             \
    extern "C" __global__ void name##_plain(int* mem, int* out) { name<false>(mem, out); }     \
    extern "C" __global__ void name##_fenced(int* mem, int* out) { name<true>(mem, out); }
LITMUS(mp)
LITMUS(sb)
LITMUS(lb)
LITMUS(iriw)
LITMUS(corr)
LITMUS(coww)
LITMUS(xy)

// The last-block reduction of the threadFenceReduction sample: each block sums its part of `in`
// and stores the sum in `partial`; a ticket (atomicInc) tells the block that finishes last, which
// adds up every partial sum. Without the __threadfence() between the store and the ticket, the
// last block may read a partial sum that has not reached memory yet.
template <bool Fenced>
__device__ void last_block_sum(const int* in, int n, volatile int* partial, unsigned* count, int* result) {
    __shared__ int sums[128];
    __shared__ bool last;
    int s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
    sums[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) sums[threadIdx.x] += sums[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sums[0];
        fence<Fenced>();
        const unsigned ticket = atomicInc(count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int total = 0;
        for (int b = 0; b < gridDim.x; ++b) total += partial[b];
        *result = total;
        *count = 0;
    }
}

extern "C" __global__ void reduce_plain(const int* in, int n, int* partial, unsigned* count, int* result) {
    last_block_sum<false>(in, n, partial, count, result);
}
extern "C" __global__ void reduce_fenced(const int* in, int n, int* partial, unsigned* count, int* result) {
    last_block_sum<true>(in, n, partial, count, result);
}
