// sort_dp: sorting networks, atomics and a wavefront dynamic program, in the style of the CUDA
// samples (sortingNetworks, histogram) and Rodinia's nw.
// Kernels:
//   bitonic_sort_tiles    bitonic sort of 2048-key tiles in shared memory (1024 threads, a barrier
//                         per compare step, data-dependent swaps).
//   bitonic_merge_global  one compare step of a merge whose stride spans tiles: a pair of keys per
//                         thread, read and written in global memory.
//   bitonic_merge_tiles   the remaining steps of a merge (strides 1024..1) in shared memory.
//                         Together they sort a batch of 8 arrays of 32 K unsigned keys (256 K keys,
//                         15 launches, as the sample sorts batches of arrays).
//   histogram_global_atomics  256-bin histogram of 8 MB of skewed bytes (half of them from 16
//                         values) with an atomicAdd to global memory per byte: heavy contention.
//   histogram_shared_atomics  the histogram of 16 MB of the same bytes with per-block bins in
//                         shared memory, merged with one global atomicAdd per bin per block.
//   lcs_tile_diagonal     longest common subsequence of 16 pairs of 512-symbol strings, in 64x64
//                         tiles: one launch per tile anti-diagonal (15; 16 to 128 blocks), one
//                         block per tile sweeping its own anti-diagonals with a barrier per step;
//                         tile edges go through global memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err_ = (call);                                                   \
        if (err_ != cudaSuccess) {                                                   \
            std::printf("sort_dp: %s failed: %s\n", #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)
#define CHECK_LAUNCH(name)                                                                       \
    do {                                                                                         \
        cudaError_t err_ = cudaGetLastError();                                                   \
        if (err_ != cudaSuccess) {                                                               \
            std::printf("sort_dp: launch of %s failed: %s\n", name, cudaGetErrorString(err_)); \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while (0)

// Bitonic sort: kArrays arrays of kArrayLength keys, tiles of kTileKeys keys in shared memory.
static const unsigned kArrayLength = 32 * 1024;
static const unsigned kArrays = 8;
static const unsigned kKeys = kArrayLength * kArrays;
static const unsigned kTileKeys = 2048;
static const unsigned kSortThreads = kTileKeys / 2;

// Histograms: the shared-memory one counts kHistBytes, the global-atomics one (much slower to
// simulate) the first kGlobalHistBytes of them.
static const unsigned kHistBytes = 16u << 20;
static const unsigned kGlobalHistBytes = 8u << 20;
static const unsigned kBins = 256;

// LCS: kLcsProblems pairs of strings of kLcsLength symbols, in kLcsTiles x kLcsTiles tiles of
// kLcsTile x kLcsTile cells.
static const int kLcsProblems = 16;
static const int kLcsLength = 512;
static const int kLcsTile = 64;
static const int kLcsTiles = kLcsLength / kLcsTile;

// ---- bitonic sort -----------------------------------------------------------------------------

// Puts the pair (lo at the lower index, hi at the higher) in ascending or descending order.
__device__ __forceinline__ void compare_exchange(unsigned& lo, unsigned& hi, bool ascending) {
    if ((lo > hi) == ascending) {
        unsigned t = lo;
        lo = hi;
        hi = t;
    }
}

// The comparator for pair p at this stride: its lower index, and the direction, which makes
// every array of `length` keys come out ascending (length and size are powers of two).
__device__ __forceinline__ unsigned pair_low(unsigned p, unsigned stride) { return 2 * p - (p & (stride - 1)); }
__device__ __forceinline__ bool ascending_at(unsigned global_index, unsigned size, unsigned length) {
    return (global_index & (length - 1) & size) == 0;
}

__global__ void bitonic_sort_tiles(unsigned* keys, unsigned length) {
    __shared__ unsigned s[kTileKeys];
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * kTileKeys;
    s[tid] = keys[base + tid];
    s[tid + kSortThreads] = keys[base + tid + kSortThreads];
    for (unsigned size = 2; size <= kTileKeys; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned i = pair_low(tid, stride);
            compare_exchange(s[i], s[i + stride], ascending_at(base + i, size, length));
        }
    }
    __syncthreads();
    keys[base + tid] = s[tid];
    keys[base + tid + kSortThreads] = s[tid + kSortThreads];
}

__global__ void bitonic_merge_global(unsigned* keys, unsigned size, unsigned stride, unsigned length) {
    const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = pair_low(p, stride);
    unsigned lo = keys[i], hi = keys[i + stride];
    compare_exchange(lo, hi, ascending_at(i, size, length));
    keys[i] = lo;
    keys[i + stride] = hi;
}

__global__ void bitonic_merge_tiles(unsigned* keys, unsigned size, unsigned length) {
    __shared__ unsigned s[kTileKeys];
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * kTileKeys;
    s[tid] = keys[base + tid];
    s[tid + kSortThreads] = keys[base + tid + kSortThreads];
    for (unsigned stride = kTileKeys / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned i = pair_low(tid, stride);
        compare_exchange(s[i], s[i + stride], ascending_at(base + i, size, length));
    }
    __syncthreads();
    keys[base + tid] = s[tid];
    keys[base + tid + kSortThreads] = s[tid + kSortThreads];
}

// ---- histograms -------------------------------------------------------------------------------

__global__ void histogram_global_atomics(const unsigned* __restrict__ words, unsigned n_words,
                                         unsigned* __restrict__ bins) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_words; i += gridDim.x * blockDim.x) {
        unsigned w = words[i];
        atomicAdd(&bins[w & 0xff], 1u);
        atomicAdd(&bins[(w >> 8) & 0xff], 1u);
        atomicAdd(&bins[(w >> 16) & 0xff], 1u);
        atomicAdd(&bins[w >> 24], 1u);
    }
}

__global__ void histogram_shared_atomics(const unsigned* __restrict__ words, unsigned n_words,
                                         unsigned* __restrict__ bins) {
    __shared__ unsigned local[kBins];
    for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_words; i += gridDim.x * blockDim.x) {
        unsigned w = words[i];
        atomicAdd(&local[w & 0xff], 1u);
        atomicAdd(&local[(w >> 8) & 0xff], 1u);
        atomicAdd(&local[(w >> 16) & 0xff], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

// ---- LCS wavefront ----------------------------------------------------------------------------

// For problem p (blockIdx.y), H[i][j] = LCS length of a[0..i) and b[0..j). The problem's
// row_edges[t][j] holds H[t * kLcsTile][j] and col_edges[t][i] holds H[i][t * kLcsTile] (rows of
// kLcsLength + 1; row and column 0 stay zero). The block of tile (ti, tj) reads its top and left
// edges and writes its bottom and right ones. Thread t owns row t of the tile and computes column
// step - t at each step, taking the cell above from thread t - 1's previous step.
__global__ void lcs_tile_diagonal(const unsigned char* __restrict__ a_all, const unsigned char* __restrict__ b_all,
                                  int* __restrict__ row_edges_all, int* __restrict__ col_edges_all, int diagonal) {
    __shared__ int top[kLcsTile + 1];
    __shared__ unsigned char b_tile[kLcsTile];
    __shared__ int wave[2][kLcsTile];
    const int pitch = kLcsLength + 1;
    const int problem = blockIdx.y;
    const unsigned char* a = a_all + problem * kLcsLength;
    const unsigned char* b = b_all + problem * kLcsLength;
    int* row_edges = row_edges_all + problem * (kLcsTiles + 1) * pitch;
    int* col_edges = col_edges_all + problem * (kLcsTiles + 1) * pitch;
    const int ti = max(0, diagonal - (kLcsTiles - 1)) + blockIdx.x;
    const int tj = diagonal - ti;
    const int r0 = ti * kLcsTile, c0 = tj * kLcsTile;
    const int t = threadIdx.x;

    top[t + 1] = row_edges[ti * pitch + c0 + 1 + t];
    if (t == 0) top[0] = row_edges[ti * pitch + c0];
    b_tile[t] = b[c0 + t];
    const unsigned char mine = a[r0 + t];
    int left = col_edges[tj * pitch + r0 + 1 + t];  // H[r][c0]
    int up_left = col_edges[tj * pitch + r0 + t];   // H[r - 1][c0]
    __syncthreads();

    for (int step = 0; step < 2 * kLcsTile - 1; ++step) {
        const int j = step - t;
        if (j >= 0 && j < kLcsTile) {
            const int up = t == 0 ? top[j + 1] : wave[(step - 1) & 1][t - 1];
            const int v = mine == b_tile[j] ? up_left + 1 : max(up, left);
            wave[step & 1][t] = v;
            up_left = up;
            left = v;
            if (t == kLcsTile - 1) row_edges[(ti + 1) * pitch + c0 + 1 + j] = v;
        }
        __syncthreads();
    }
    col_edges[(tj + 1) * pitch + r0 + 1 + t] = left;
}

// ---- host -------------------------------------------------------------------------------------

static unsigned lcg_state = 31337u;
static unsigned lcg() {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

static bool run_bitonic() {
    std::vector<unsigned> h_keys(kKeys);
    for (unsigned i = 0; i < kKeys; ++i) h_keys[i] = (lcg() << 8) ^ lcg();
    unsigned* d_keys;
    CHECK(cudaMalloc(&d_keys, kKeys * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_keys, h_keys.data(), kKeys * sizeof(unsigned), cudaMemcpyHostToDevice));

    const unsigned tiles = kKeys / kTileKeys;
    bitonic_sort_tiles<<<tiles, kSortThreads>>>(d_keys, kArrayLength);
    CHECK_LAUNCH("bitonic_sort_tiles");
    for (unsigned size = 2 * kTileKeys; size <= kArrayLength; size <<= 1) {
        unsigned stride = size / 2;
        for (; stride >= kTileKeys; stride >>= 1) {
            bitonic_merge_global<<<kKeys / 2 / 256, 256>>>(d_keys, size, stride, kArrayLength);
            CHECK_LAUNCH("bitonic_merge_global");
        }
        bitonic_merge_tiles<<<tiles, kSortThreads>>>(d_keys, size, kArrayLength);
        CHECK_LAUNCH("bitonic_merge_tiles");
    }

    std::vector<unsigned> got(kKeys);
    CHECK(cudaMemcpy(got.data(), d_keys, kKeys * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_keys));
    for (unsigned a = 0; a < kArrays; ++a) {
        auto first = h_keys.begin() + a * kArrayLength;
        std::sort(first, first + kArrayLength);
    }
    for (unsigned i = 0; i < kKeys; ++i)
        if (got[i] != h_keys[i]) {
            std::printf("sort_dp: sorted key %u = %u, expected %u\n", i, got[i], h_keys[i]);
            return false;
        }
    return true;
}

static bool run_histograms(int sms) {
    // Text-like bytes: half from 16 common letters, half uniform.
    static const char common[] = "etaoinshrdlucmfw";
    std::vector<unsigned char> data(kHistBytes);
    std::vector<unsigned> want_global(kBins, 0), want_shared(kBins, 0);
    for (unsigned i = 0; i < kHistBytes; ++i) {
        unsigned r = lcg();
        data[i] = (r & 1) ? (unsigned char)common[(r >> 1) & 15] : (unsigned char)(r >> 8);
        if (i < kGlobalHistBytes) ++want_global[data[i]];
        ++want_shared[data[i]];
    }
    unsigned *d_words, *d_bins_global, *d_bins_shared;
    CHECK(cudaMalloc(&d_words, kHistBytes));
    CHECK(cudaMalloc(&d_bins_global, kBins * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_bins_shared, kBins * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_words, data.data(), kHistBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_bins_global, 0, kBins * sizeof(unsigned)));
    CHECK(cudaMemset(d_bins_shared, 0, kBins * sizeof(unsigned)));

    histogram_global_atomics<<<sms * 8, 256>>>(d_words, kGlobalHistBytes / 4, d_bins_global);
    CHECK_LAUNCH("histogram_global_atomics");
    histogram_shared_atomics<<<sms * 4, 512>>>(d_words, kHistBytes / 4, d_bins_shared);
    CHECK_LAUNCH("histogram_shared_atomics");

    std::vector<unsigned> got_global(kBins), got_shared(kBins);
    CHECK(cudaMemcpy(got_global.data(), d_bins_global, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_shared.data(), d_bins_shared, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_words));
    CHECK(cudaFree(d_bins_global));
    CHECK(cudaFree(d_bins_shared));
    bool ok = true;
    for (unsigned b = 0; b < kBins; ++b) {
        if (got_global[b] != want_global[b]) {
            std::printf("sort_dp: global-atomics bin %u = %u, expected %u\n", b, got_global[b], want_global[b]);
            ok = false;
        }
        if (got_shared[b] != want_shared[b]) {
            std::printf("sort_dp: shared-atomics bin %u = %u, expected %u\n", b, got_shared[b], want_shared[b]);
            ok = false;
        }
        if (!ok) break;
    }
    return ok;
}

static bool run_lcs() {
    // Pairs of strings over a 4-letter alphabet; each b is its a with 1 in 4 symbols redrawn.
    const int pitch = kLcsLength + 1;
    const int edges_per_problem = (kLcsTiles + 1) * pitch;
    std::vector<unsigned char> a(kLcsProblems * kLcsLength), b(kLcsProblems * kLcsLength);
    for (size_t i = 0; i < a.size(); ++i) a[i] = (unsigned char)("ACGT"[lcg() & 3]);
    for (size_t i = 0; i < b.size(); ++i) b[i] = (lcg() & 3) ? a[i] : (unsigned char)("ACGT"[lcg() & 3]);

    unsigned char *d_a, *d_b;
    int *d_rows, *d_cols;
    const size_t edge_bytes = (size_t)kLcsProblems * edges_per_problem * sizeof(int);
    CHECK(cudaMalloc(&d_a, a.size()));
    CHECK(cudaMalloc(&d_b, b.size()));
    CHECK(cudaMalloc(&d_rows, edge_bytes));
    CHECK(cudaMalloc(&d_cols, edge_bytes));
    CHECK(cudaMemcpy(d_a, a.data(), a.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), b.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_rows, 0, edge_bytes));
    CHECK(cudaMemset(d_cols, 0, edge_bytes));

    for (int d = 0; d < 2 * kLcsTiles - 1; ++d) {
        dim3 grid(std::min(d, 2 * kLcsTiles - 2 - d) + 1, kLcsProblems);
        lcs_tile_diagonal<<<grid, kLcsTile>>>(d_a, d_b, d_rows, d_cols, d);
        CHECK_LAUNCH("lcs_tile_diagonal");
    }

    std::vector<int> rows((size_t)kLcsProblems * edges_per_problem), cols(rows.size());
    CHECK(cudaMemcpy(rows.data(), d_rows, edge_bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(cols.data(), d_cols, edge_bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_rows));
    CHECK(cudaFree(d_cols));

    // Host reference: the full table of each problem, compared along every tile edge.
    std::vector<int> h((size_t)pitch * pitch, 0);
    for (int p = 0; p < kLcsProblems; ++p) {
        const unsigned char* pa = &a[p * kLcsLength];
        const unsigned char* pb = &b[p * kLcsLength];
        for (int i = 1; i <= kLcsLength; ++i)
            for (int j = 1; j <= kLcsLength; ++j)
                h[i * pitch + j] = pa[i - 1] == pb[j - 1] ? h[(i - 1) * pitch + j - 1] + 1
                                                          : std::max(h[(i - 1) * pitch + j], h[i * pitch + j - 1]);
        const int* got_rows = &rows[(size_t)p * edges_per_problem];
        const int* got_cols = &cols[(size_t)p * edges_per_problem];
        for (int t = 0; t <= kLcsTiles; ++t)
            for (int k = 0; k <= kLcsLength; ++k) {
                const int want_row = h[t * kLcsTile * pitch + k], want_col = h[k * pitch + t * kLcsTile];
                if (got_rows[t * pitch + k] != want_row || got_cols[t * pitch + k] != want_col) {
                    std::printf("sort_dp: LCS problem %d: H[%d][%d] = %d (expected %d), H[%d][%d] = %d (expected %d)\n",
                                p, t * kLcsTile, k, got_rows[t * pitch + k], want_row, k, t * kLcsTile,
                                got_cols[t * pitch + k], want_col);
                    return false;
                }
            }
    }
    return true;
}

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    bool ok = run_bitonic();
    ok = run_histograms(sms) && ok;
    ok = run_lcs() && ok;
    if (!ok) {
        std::printf("sort_dp: FAILED\n");
        return 1;
    }
    std::printf("sort_dp: PASSED\n");
    return 0;
}
