// Block- and warp-level CUB collectives as library users write them (cf. CUB's example_block_scan):
// cub::BlockLoad / cub::BlockStore with the TRANSPOSE algorithms (full and guarded partial tiles),
// cub::BlockReduce (Sum and a custom maximum), cub::BlockScan (ExclusiveSum and an inclusive running
// max), cub::WarpReduce (Sum and a segmented-by-warp Reduce), all sharing a union of TempStorage in
// shared memory. Integer data, so every result is compared exactly with a CPU reference.

#include <cub/cub.cuh>
#include <cuda/functional>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#define CUDA_TRY(call)                                                                                \
    do {                                                                                              \
        cudaError_t status_ = (call);                                                                 \
        if (status_ != cudaSuccess) {                                                                 \
            std::printf("CUDA call '%s' failed at %s:%d: %s\n", #call, __FILE__, __LINE__,            \
                        cudaGetErrorString(status_));                                                 \
            std::exit(EXIT_FAILURE);                                                                  \
        }                                                                                             \
    } while (0)

struct BlockResult {
    int sum;        // cub::BlockReduce::Sum
    int max;        // cub::BlockReduce::Reduce(cuda::maximum)
    int aggregate;  // block aggregate reported by ExclusiveSum
};

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void block_collectives(const int* d_in, int* d_exclusive, int* d_running_max, BlockResult* d_block,
                                  int* d_warp_sums, int* d_warp_min_abs, int num_items) {
    using BlockLoadT = cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_TRANSPOSE>;
    using BlockStoreT = cub::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_TRANSPOSE>;
    using BlockScanT = cub::BlockScan<int, BLOCK_THREADS>;
    using BlockReduceT = cub::BlockReduce<int, BLOCK_THREADS>;
    using WarpReduceT = cub::WarpReduce<int>;
    constexpr int WARPS = BLOCK_THREADS / 32;
    constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;

    __shared__ union {
        typename BlockLoadT::TempStorage load;
        typename BlockStoreT::TempStorage store;
        typename BlockScanT::TempStorage scan;
        typename BlockReduceT::TempStorage reduce;
        typename WarpReduceT::TempStorage warp[WARPS];
    } temp_storage;

    const int block_offset = blockIdx.x * TILE;
    const int valid = min(TILE, num_items - block_offset);

    // blocked arrangement after the transposing load: thread t owns items [t*IPT, t*IPT+IPT)
    int items[ITEMS_PER_THREAD];
    if (valid == TILE)
        BlockLoadT(temp_storage.load).Load(d_in + block_offset, items);
    else
        BlockLoadT(temp_storage.load).Load(d_in + block_offset, items, valid, 0);   // guarded, pad with 0
    __syncthreads();

    int thread_sum = 0;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) thread_sum += items[i];

    int block_sum = BlockReduceT(temp_storage.reduce).Sum(thread_sum);
    __syncthreads();
    int block_max = BlockReduceT(temp_storage.reduce).Reduce(items, cuda::maximum<>{});
    __syncthreads();

    // warp sums of the per-thread partials, and a min of |x| over each warp's first items
    const int warp_id = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    int warp_sum = WarpReduceT(temp_storage.warp[warp_id]).Sum(thread_sum);
    __syncwarp();
    int warp_min_abs = WarpReduceT(temp_storage.warp[warp_id]).Reduce(abs(items[0]), cuda::minimum<>{});
    if (lane == 0) {
        d_warp_sums[blockIdx.x * WARPS + warp_id] = warp_sum;
        d_warp_min_abs[blockIdx.x * WARPS + warp_id] = warp_min_abs;
    }
    __syncthreads();

    int running[ITEMS_PER_THREAD];
    BlockScanT(temp_storage.scan).InclusiveScan(items, running, cuda::maximum<>{});
    __syncthreads();

    int aggregate = 0;
    BlockScanT(temp_storage.scan).ExclusiveSum(items, items, aggregate);
    __syncthreads();

    if (valid == TILE) {
        BlockStoreT(temp_storage.store).Store(d_exclusive + block_offset, items);
        __syncthreads();
        BlockStoreT(temp_storage.store).Store(d_running_max + block_offset, running);
    } else {
        BlockStoreT(temp_storage.store).Store(d_exclusive + block_offset, items, valid);
        __syncthreads();
        BlockStoreT(temp_storage.store).Store(d_running_max + block_offset, running, valid);
    }

    if (threadIdx.x == 0) d_block[blockIdx.x] = BlockResult{block_sum, block_max, aggregate};
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
bool run(int num_items, unsigned seed) {
    constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    constexpr int WARPS = BLOCK_THREADS / 32;
    const int blocks = (num_items + TILE - 1) / TILE;

    // std::mt19937 is specified exactly by the standard, so the input is the same everywhere;
    // the bounded draw is done by hand (distributions are implementation-defined)
    std::mt19937 gen(seed);
    std::vector<int> h_in(num_items);
    for (auto& v : h_in) v = static_cast<int>(gen() % 2001u) - 1000;

    int *d_in, *d_excl, *d_rmax, *d_wsum, *d_wmin;
    BlockResult* d_block;
    CUDA_TRY(cudaMalloc(&d_in, sizeof(int) * num_items));
    CUDA_TRY(cudaMalloc(&d_excl, sizeof(int) * num_items));
    CUDA_TRY(cudaMalloc(&d_rmax, sizeof(int) * num_items));
    CUDA_TRY(cudaMalloc(&d_wsum, sizeof(int) * blocks * WARPS));
    CUDA_TRY(cudaMalloc(&d_wmin, sizeof(int) * blocks * WARPS));
    CUDA_TRY(cudaMalloc(&d_block, sizeof(BlockResult) * blocks));
    CUDA_TRY(cudaMemcpy(d_in, h_in.data(), sizeof(int) * num_items, cudaMemcpyHostToDevice));

    block_collectives<BLOCK_THREADS, ITEMS_PER_THREAD>
        <<<blocks, BLOCK_THREADS>>>(d_in, d_excl, d_rmax, d_block, d_wsum, d_wmin, num_items);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaDeviceSynchronize());

    std::vector<int> excl(num_items), rmax(num_items), wsum(blocks * WARPS), wmin(blocks * WARPS);
    std::vector<BlockResult> res(blocks);
    CUDA_TRY(cudaMemcpy(excl.data(), d_excl, sizeof(int) * num_items, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(rmax.data(), d_rmax, sizeof(int) * num_items, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(wsum.data(), d_wsum, sizeof(int) * blocks * WARPS, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(wmin.data(), d_wmin, sizeof(int) * blocks * WARPS, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(res.data(), d_block, sizeof(BlockResult) * blocks, cudaMemcpyDeviceToHost));

    bool ok_scan = true, ok_max = true, ok_reduce = true, ok_warp = true;
    long long grand_total = 0;
    for (int b = 0; b < blocks; ++b) {
        const int begin = b * TILE;
        const int valid = std::min(TILE, num_items - begin);
        // padded items are 0, which takes part in the block max and the running max
        std::vector<int> tile(TILE, 0);
        std::copy(h_in.begin() + begin, h_in.begin() + begin + valid, tile.begin());

        int acc = 0, run_max = tile[0];
        for (int i = 0; i < TILE; ++i) {
            run_max = std::max(run_max, tile[i]);
            if (i < valid) {
                ok_scan = ok_scan && excl[begin + i] == acc;
                ok_max = ok_max && rmax[begin + i] == run_max;
            }
            acc += tile[i];
        }
        const int sum = std::accumulate(tile.begin(), tile.end(), 0);
        const int mx = *std::max_element(tile.begin(), tile.end());
        ok_reduce = ok_reduce && res[b].sum == sum && res[b].max == mx && res[b].aggregate == sum;
        grand_total += res[b].sum;

        for (int w = 0; w < WARPS; ++w) {
            int s = 0, m = 1 << 30;
            for (int t = w * 32; t < w * 32 + 32; ++t) {
                for (int i = 0; i < ITEMS_PER_THREAD; ++i) s += tile[t * ITEMS_PER_THREAD + i];
                m = std::min(m, std::abs(tile[t * ITEMS_PER_THREAD]));
            }
            ok_warp = ok_warp && wsum[b * WARPS + w] == s && wmin[b * WARPS + w] == m;
        }
    }

    std::printf("BlockLoad/Store TRANSPOSE, %d threads x %d items, %d items in %d blocks (last tile %d):\n",
                BLOCK_THREADS, ITEMS_PER_THREAD, num_items, blocks, num_items - (blocks - 1) * TILE);
    std::printf("  total of block sums %lld, last block max %d\n", grand_total, res[blocks - 1].max);
    std::printf("  BlockScan ExclusiveSum          : %s\n", ok_scan ? "ok" : "MISMATCH");
    std::printf("  BlockScan InclusiveScan(maximum): %s\n", ok_max ? "ok" : "MISMATCH");
    std::printf("  BlockReduce Sum / Reduce(max)   : %s\n", ok_reduce ? "ok" : "MISMATCH");
    std::printf("  WarpReduce Sum / Reduce(min)    : %s\n", ok_warp ? "ok" : "MISMATCH");

    CUDA_TRY(cudaFree(d_in));
    CUDA_TRY(cudaFree(d_excl));
    CUDA_TRY(cudaFree(d_rmax));
    CUDA_TRY(cudaFree(d_wsum));
    CUDA_TRY(cudaFree(d_wmin));
    CUDA_TRY(cudaFree(d_block));
    return ok_scan && ok_max && ok_reduce && ok_warp;
}

int main() {
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    std::fprintf(stderr, "Using device %d: %s\n", device, prop.name);
    std::fprintf(stderr, "CUB %d.%d.%d\n", CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
    std::printf("cub_block: CUB block collectives\n");

    bool ok = run<128, 4>(32 * 512 - 100, 1u);   // 32 tiles, the last one partial
    ok = run<256, 3>(5000, 2u) && ok;            // odd items per thread
    ok = run<64, 8>(64 * 8 * 5, 3u) && ok;       // full tiles only

    std::printf("cub_block: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
