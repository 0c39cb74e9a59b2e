// reduce_scan: parallel reduction and prefix sum in the style of the CUDA samples (reduction,
// scan) and CUB's block primitives.
// Kernels:
//   reduce_smem_tree     sum of 16 M unsigned ints: grid-stride loads (two per iteration), then a
//                        shared-memory tree with a barrier per level; one partial per block.
//   reduce_warp_shuffle  the same sum with 16-byte loads, warp-shuffle reductions and one global
//                        atomicAdd per block.
//   scan_tiles           phase 1 of an exclusive scan of 6 M ints: each block scans a 2048-element
//                        tile (8 per thread, serial in registers, warp shuffles across lanes,
//                        padded shared memory) and writes the tile's total.
//   scan_tile_totals     phase 2: one block scans the 3072 tile totals.
//   scan_add_offsets     phase 3: adds each tile's offset to its elements.
// They exercise streaming loads, shared-memory barriers and bank layout, shuffles and atomics.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::printf("reduce_scan: %s failed: %s\n", #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                                \
        }                                                                                \
    } while (0)
#define CHECK_LAUNCH(name)                                                                           \
    do {                                                                                             \
        cudaError_t err_ = cudaGetLastError();                                                       \
        if (err_ != cudaSuccess) {                                                                   \
            std::printf("reduce_scan: launch of %s failed: %s\n", name, cudaGetErrorString(err_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

static const unsigned kReduceN = 16u << 20;
static const unsigned kScanN = 6u << 20;
static const unsigned kScanThreads = 256;
static const unsigned kScanItems = 8;  // per thread
static const unsigned kTile = kScanThreads * kScanItems;
static const unsigned kTotalsThreads = 1024;
static const unsigned kTotalsItems = 4;  // per thread: up to 4096 tiles
static const unsigned kFull = 0xffffffffu;
static_assert(kScanN % kTile == 0, "the scan kernels take whole tiles");
static_assert(kScanN / kTile <= kTotalsThreads * kTotalsItems, "too many tiles for one block");

// ---- reduction ----------------------------------------------------------------------------------

template <unsigned BLOCK>
__global__ void reduce_smem_tree(const unsigned* __restrict__ in, unsigned* __restrict__ partial, unsigned n) {
    __shared__ unsigned s[BLOCK];
    const unsigned tid = threadIdx.x;
    const unsigned step = 2 * BLOCK * gridDim.x;
    unsigned sum = 0;
    for (unsigned i = blockIdx.x * 2 * BLOCK + tid; i < n; i += step) {
        sum += in[i];
        if (i + BLOCK < n) sum += in[i + BLOCK];
    }
    s[tid] = sum;
    __syncthreads();
    for (unsigned half = BLOCK / 2; half > 0; half >>= 1) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

__device__ __forceinline__ unsigned warp_sum(unsigned v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFull, v, offset);
    return v;
}

__global__ void reduce_warp_shuffle(const uint4* __restrict__ in, unsigned* __restrict__ result, unsigned n4) {
    __shared__ unsigned warp_totals[32];
    unsigned sum = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        uint4 v = in[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    sum = warp_sum(sum);
    if (lane == 0) warp_totals[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_totals[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0) atomicAdd(result, sum);
    }
}

// ---- scan -------------------------------------------------------------------------------------

__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// Inclusive scan across the warp's lanes.
__device__ __forceinline__ unsigned warp_inclusive_scan(unsigned v, unsigned lane) {
    for (unsigned offset = 1; offset < 32; offset <<= 1) {
        unsigned t = __shfl_up_sync(kFull, v, offset);
        if (lane >= offset) v += t;
    }
    return v;
}

// Scans whole tiles: n is a multiple of kTile.
__global__ void scan_tiles(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                           unsigned* __restrict__ tile_totals) {
    __shared__ unsigned tile[kTile + kTile / 32];
    __shared__ unsigned warp_offsets[kScanThreads / 32];
    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const unsigned base = blockIdx.x * kTile;

    // Coalesced loads into shared memory (striped), then each thread takes 8 consecutive items.
    for (unsigned k = 0; k < kScanItems; ++k) {
        unsigned idx = k * kScanThreads + tid;
        tile[padded(idx)] = in[base + idx];
    }
    __syncthreads();
    unsigned items[kScanItems];
    unsigned total = 0;
    for (unsigned k = 0; k < kScanItems; ++k) {
        items[k] = tile[padded(tid * kScanItems + k)];
        total += items[k];
    }

    unsigned inclusive = warp_inclusive_scan(total, lane);
    if (lane == 31) warp_offsets[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        unsigned w = lane < kScanThreads / 32 ? warp_offsets[lane] : 0;
        unsigned w_incl = warp_inclusive_scan(w, lane);
        if (lane < kScanThreads / 32) warp_offsets[lane] = w_incl - w;
    }
    __syncthreads();

    unsigned running = warp_offsets[warp] + inclusive - total;
    for (unsigned k = 0; k < kScanItems; ++k) {
        tile[padded(tid * kScanItems + k)] = running;
        running += items[k];
    }
    if (tid == kScanThreads - 1) tile_totals[blockIdx.x] = running;
    __syncthreads();
    for (unsigned k = 0; k < kScanItems; ++k) {
        unsigned idx = k * kScanThreads + tid;
        out[base + idx] = tile[padded(idx)];
    }
}

// One block: exclusive scan of the tile totals in place (count <= 1024 * 4).
__global__ void scan_tile_totals(unsigned* totals, unsigned count) {
    __shared__ unsigned warp_offsets[kTotalsThreads / 32];
    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    unsigned items[kTotalsItems];
    unsigned total = 0;
    for (unsigned k = 0; k < kTotalsItems; ++k) {
        unsigned idx = tid * kTotalsItems + k;
        items[k] = idx < count ? totals[idx] : 0;
        total += items[k];
    }
    unsigned inclusive = warp_inclusive_scan(total, lane);
    if (lane == 31) warp_offsets[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        unsigned w = warp_offsets[lane];
        warp_offsets[lane] = warp_inclusive_scan(w, lane) - w;
    }
    __syncthreads();
    unsigned running = warp_offsets[warp] + inclusive - total;
    for (unsigned k = 0; k < kTotalsItems; ++k) {
        unsigned idx = tid * kTotalsItems + k;
        if (idx < count) totals[idx] = running;
        running += items[k];
    }
}

__global__ void scan_add_offsets(unsigned* __restrict__ out, const unsigned* __restrict__ offsets) {
    const unsigned offset = offsets[blockIdx.x];
    unsigned* tile = out + blockIdx.x * kTile;
    for (unsigned k = 0; k < kScanItems; ++k) tile[k * kScanThreads + threadIdx.x] += offset;
}

// ---- host -------------------------------------------------------------------------------------

static unsigned lcg_state = 2024u;
static unsigned lcg() {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    bool ok = true;

    // Reduction input: full 32-bit values, so the sum wraps (mod 2^32) and any lost or doubled
    // element shows.
    std::vector<unsigned> h_in(kReduceN);
    unsigned want_sum = 0;
    for (unsigned i = 0; i < kReduceN; ++i) {
        h_in[i] = lcg();
        want_sum += h_in[i];
    }
    unsigned *d_in, *d_partial, *d_result;
    const unsigned tree_blocks = sms * 4;
    CHECK(cudaMalloc(&d_in, kReduceN * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_partial, tree_blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_result, sizeof(unsigned)));
    CHECK(cudaMemcpy(d_in, h_in.data(), kReduceN * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_result, 0, sizeof(unsigned)));

    reduce_smem_tree<256><<<tree_blocks, 256>>>(d_in, d_partial, kReduceN);
    CHECK_LAUNCH("reduce_smem_tree");
    reduce_warp_shuffle<<<sms * 4, 512>>>(reinterpret_cast<const uint4*>(d_in), d_result, kReduceN / 4);
    CHECK_LAUNCH("reduce_warp_shuffle");

    std::vector<unsigned> h_partial(tree_blocks);
    unsigned got_shuffle = 0;
    CHECK(cudaMemcpy(h_partial.data(), d_partial, tree_blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&got_shuffle, d_result, sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned got_tree = 0;
    for (unsigned p : h_partial) got_tree += p;
    if (got_tree != want_sum) {
        std::printf("reduce_scan: reduce_smem_tree sum %u, expected %u\n", got_tree, want_sum);
        ok = false;
    }
    if (got_shuffle != want_sum) {
        std::printf("reduce_scan: reduce_warp_shuffle sum %u, expected %u\n", got_shuffle, want_sum);
        ok = false;
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_result));

    // Exclusive scan of small values (0..255).
    const unsigned tiles = kScanN / kTile;
    std::vector<unsigned> h_scan_in(kScanN), h_scan_out(kScanN);
    for (unsigned i = 0; i < kScanN; ++i) h_scan_in[i] = lcg() >> 24;
    unsigned *d_scan_in, *d_scan_out, *d_totals;
    CHECK(cudaMalloc(&d_scan_in, kScanN * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_scan_out, kScanN * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_totals, tiles * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_scan_in, h_scan_in.data(), kScanN * sizeof(unsigned), cudaMemcpyHostToDevice));

    scan_tiles<<<tiles, kScanThreads>>>(d_scan_in, d_scan_out, d_totals);
    CHECK_LAUNCH("scan_tiles");
    scan_tile_totals<<<1, kTotalsThreads>>>(d_totals, tiles);
    CHECK_LAUNCH("scan_tile_totals");
    scan_add_offsets<<<tiles, kScanThreads>>>(d_scan_out, d_totals);
    CHECK_LAUNCH("scan_add_offsets");
    CHECK(cudaMemcpy(h_scan_out.data(), d_scan_out, kScanN * sizeof(unsigned), cudaMemcpyDeviceToHost));

    unsigned running = 0, bad = 0;
    for (unsigned i = 0; i < kScanN; ++i) {
        if (h_scan_out[i] != running) {
            if (bad < 5) std::printf("reduce_scan: scan[%u] = %u, expected %u\n", i, h_scan_out[i], running);
            ++bad;
        }
        running += h_scan_in[i];
    }
    if (bad) ok = false;
    CHECK(cudaFree(d_scan_in));
    CHECK(cudaFree(d_scan_out));
    CHECK(cudaFree(d_totals));

    if (!ok) {
        std::printf("reduce_scan: FAILED\n");
        return 1;
    }
    std::printf("reduce_scan: PASSED\n");
    return 0;
}
