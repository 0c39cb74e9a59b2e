// coop_grid_sync: a two-phase sum in one kernel - per-block partial sums, cg::this_grid().sync(), then block 0
// folds the partials - launched with cudaLaunchCooperativeKernel on a grid sized from the occupancy API, in
// the style of the samples' reductionMultiBlockCG. Exercises cooperative groups (grid_group, thread_block_tile<32>,
// cg::reduce, tile shfl_down), cudaDevAttrCooperativeLaunch, and cudaErrorCooperativeLaunchTooLarge.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/cuda_helpers.h"

namespace cg = cooperative_groups;

constexpr int kBlockSize = 256;
constexpr int kWarpsPerBlock = kBlockSize / 32;
constexpr int kItemsPerThread = 8;   // grid-stride work per thread when the grid is not limited by residency

// Sums of squares modulo 2^32 (unsigned arithmetic is exact, so the result does not depend on the order).
__global__ void two_phase_sum(const unsigned* in, unsigned* partial, unsigned* out, int* grid_valid, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ unsigned warp_sums[kWarpsPerBlock];

    if (grid.thread_rank() == 0) *grid_valid = grid.is_valid() ? 1 : 0;

    // Phase 1: grid-stride loop, a tile reduction, then the block's warps combined.
    unsigned v = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        unsigned x = in[i];
        v += x * x;
    }
    v = cg::reduce(tile, v, cg::plus<unsigned>());
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        unsigned w = tile.thread_rank() < tile.meta_group_size() ? warp_sums[tile.thread_rank()] : 0u;
        for (int offset = tile.size() / 2; offset > 0; offset /= 2) w += tile.shfl_down(w, offset);
        if (tile.thread_rank() == 0) partial[blockIdx.x] = w;
    }

    grid.sync();   // every block's partial is now visible to every other block

    // Phase 2: block 0 folds the partial sums, its first warp finishing with shuffles.
    if (grid.block_rank() == 0) {
        unsigned s = 0;
        for (unsigned b = block.thread_rank(); b < grid.num_blocks(); b += block.size()) s += partial[b];
        s = cg::reduce(tile, s, cg::plus<unsigned>());
        if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = s;
        block.sync();
        if (tile.meta_group_rank() == 0) {
            unsigned w = tile.thread_rank() < tile.meta_group_size() ? warp_sums[tile.thread_rank()] : 0u;
            for (int offset = 16; offset > 0; offset >>= 1) w += tile.shfl_down(w, offset);
            if (tile.thread_rank() == 0) *out = w;
        }
    }
}

int main(int argc, char** argv) {
    printf("coop_grid_sync: starting\n");
    int dev = findCudaDevice(argc, argv);

    int supports_coop = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&supports_coop, cudaDevAttrCooperativeLaunch, dev));
    printf("cooperative launch supported: %s\n", supports_coop ? "yes" : "no");
    if (!supports_coop) {
        printf("coop_grid_sync: FAILED (device cannot launch cooperative kernels)\n");
        return EXIT_FAILURE;
    }

    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    int blocks_per_sm = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, two_phase_sum, kBlockSize, 0));
    const int max_coresident = blocks_per_sm * prop.multiProcessorCount;
    fprintf(stderr, "%d blocks of %d threads per SM x %d SMs = %d co-resident blocks\n", blocks_per_sm, kBlockSize,
            prop.multiProcessorCount, max_coresident);
    printf("occupancy allows at least one block per SM: %s\n", blocks_per_sm >= 1 ? "yes" : "no");

    const int n = 1 << 16;
    std::vector<unsigned> h_in(n);
    Lcg rng(77);
    for (int i = 0; i < n; ++i) h_in[i] = rng.next();
    unsigned expected = 0;
    for (unsigned x : h_in) expected += x * x;

    // Never more blocks than the work needs, never more than can be resident at once.
    const int work_blocks = (n + kBlockSize * kItemsPerThread - 1) / (kBlockSize * kItemsPerThread);
    const int grid_blocks = work_blocks < max_coresident ? work_blocks : max_coresident;
    fprintf(stderr, "launching %d blocks\n", grid_blocks);

    unsigned *d_in, *d_partial, *d_out;
    int* d_valid;
    const int partial_slots = max_coresident + 1;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_partial, partial_slots * sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_out, sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_valid, sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_in, h_in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(d_out, 0, sizeof(unsigned)));
    checkCudaErrors(cudaMemset(d_valid, 0, sizeof(int)));

    int n_arg = n;
    void* args[] = {&d_in, &d_partial, &d_out, &d_valid, &n_arg};
    checkCudaErrors(cudaLaunchCooperativeKernel((void*)two_phase_sum, dim3(grid_blocks), dim3(kBlockSize), args, 0, 0));
    checkCudaErrors(cudaDeviceSynchronize());

    unsigned got = 0;
    int valid = 0;
    checkCudaErrors(cudaMemcpy(&got, d_out, sizeof(unsigned), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(&valid, d_valid, sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = got == expected && valid == 1;
    printf("grid group valid in the kernel: %s\n", valid ? "yes" : "no");
    printf("sum of squares mod 2^32: GPU 0x%08x, CPU 0x%08x, %s\n", got, expected, got == expected ? "match" : "MISMATCH");

    // One block more than can be co-resident must be refused, and nothing must run.
    checkCudaErrors(cudaMemset(d_out, 0, sizeof(unsigned)));
    cudaError_t too_large = cudaLaunchCooperativeKernel((void*)two_phase_sum, dim3(max_coresident + 1),
                                                        dim3(kBlockSize), args, 0, 0);
    printf("cooperative launch of one block more than co-resident: %s\n", cudaGetErrorName(too_large));
    cudaError_t last = cudaGetLastError();   // the refusal is also the last error; it is not sticky
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaMemcpy(&got, d_out, sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("refused launch left the output untouched: %s\n", got == 0 ? "yes" : "no");
    printf("cudaGetLastError after the refusal: %s\n", cudaGetErrorName(last));
    ok = ok && too_large == cudaErrorCooperativeLaunchTooLarge && got == 0;

    // The device is still usable afterwards: relaunch the good configuration.
    checkCudaErrors(cudaLaunchCooperativeKernel((void*)two_phase_sum, dim3(grid_blocks), dim3(kBlockSize), args, 0, 0));
    checkCudaErrors(cudaMemcpy(&got, d_out, sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("relaunch after the refusal: %s\n", got == expected ? "match" : "MISMATCH");
    ok = ok && got == expected;

    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_partial));
    checkCudaErrors(cudaFree(d_out));
    checkCudaErrors(cudaFree(d_valid));
    printf("coop_grid_sync: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
