/*
 * warp_size: warp-level programming as performance code writes it - the builtin warpSize (nvcc emits
 * WARP_SZ) for lane math and strides, __shfl_down_sync / __shfl_xor_sync reductions, __ballot_sync + __popc
 * warp compaction with %lanemask_lt, __activemask, and the special registers %laneid, %warpid, %nwarpid,
 * %dynamic_smem_size, %total_smem_size and %gridid read through inline PTX. C style with #defines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define N (1 << 16)
#define SEG 256              /* elements per warp in the segmented reduction */
#define RED_THREADS 128
#define FULL_MASK 0xffffffffu
#define SPECIAL_THREADS 48   /* one full warp and one half warp per block */
#define SPECIAL_BLOCKS 8
#define DYN_SMEM 1000        /* bytes of dynamic shared memory for the special-register kernel */
#define NUM_CHECKS 9

#define CUDA_CALL(x)                                                                         \
    do {                                                                                     \
        cudaError_t e_ = (x);                                                                \
        if (e_ != cudaSuccess) {                                                             \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorName(e_), __FILE__, __LINE__);    \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

static const char *check_names[NUM_CHECKS] = {
    "%laneid == threadIdx.x % 32",
    "%lanemask_lt == (1 << lane) - 1",
    "%warpid < %nwarpid",
    "%nwarpid >= warps per block",
    "%dynamic_smem_size == launch's dynamic size",
    "%total_smem_size >= %dynamic_smem_size",
    "__activemask() at entry == the warp's threads",
    "__activemask() in a branch is within the branch",
    "%gridid equal across the launch's blocks",
};

int h_in[N];
int h_warp_sum_down[N / SEG], h_warp_sum_xor[N / SEG], h_xor_disagree[N / SEG];
unsigned h_ballot[N / 32];
int h_compact[N], h_compact_count[N / 32];

__device__ __forceinline__ unsigned ptx_laneid(void) { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned ptx_warpid(void) { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned ptx_nwarpid(void) { unsigned r; asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned ptx_lanemask_lt(void) { unsigned r; asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned ptx_dynamic_smem(void) { unsigned r; asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned ptx_total_smem(void) { unsigned r; asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long ptx_gridid(void) { unsigned long long r; asm volatile("mov.u64 %0, %%gridid;" : "=l"(r)); return r; }

/* Each warp sums one SEG-long segment: lanes stride by warpSize, then two shuffle reductions. */
__global__ void warp_segment_sum(const int *in, int *sum_down, int *sum_xor, int *xor_disagree) {
    int lane = threadIdx.x % warpSize;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    const int *seg = in + warp * SEG;
    int v = 0;
    for (int j = lane; j < SEG; j += warpSize) v += seg[j];

    int down = v;
    for (int offset = warpSize / 2; offset > 0; offset /= 2) down += __shfl_down_sync(FULL_MASK, down, offset);

    int all = v;
    for (int mask = 1; mask < warpSize; mask *= 2) all += __shfl_xor_sync(FULL_MASK, all, mask);
    /* after the butterfly every lane holds the total: count the lanes that disagree with lane 0 */
    int lane0 = __shfl_sync(FULL_MASK, all, 0);
    unsigned disagree = __ballot_sync(FULL_MASK, all != lane0);

    if (lane == 0) {
        sum_down[warp] = down;
        sum_xor[warp] = all;
        xor_disagree[warp] = __popc(disagree);
    }
}

/* Warp-level stream compaction of the odd values: ballot, popc, and the rank from %lanemask_lt. */
__global__ void warp_compact_odd(const int *in, unsigned *ballots, int *out, int *counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / warpSize;
    int lane = threadIdx.x & (warpSize - 1);
    int x = in[i];
    int pred = x & 1;
    unsigned b = __ballot_sync(FULL_MASK, pred);
    int rank = __popc(b & ptx_lanemask_lt());
    if (pred) out[warp * warpSize + rank] = x;
    if (lane == 0) {
        ballots[warp] = b;
        counts[warp] = __popc(b);
    }
}

/* Checks the special registers; every failed check adds one to its counter. */
__global__ void special_registers(int *failures, unsigned long long *gridids, unsigned dyn_expected) {
    extern __shared__ unsigned char dyn[];
    __shared__ unsigned stat[64];
    unsigned entry_mask = __activemask();
    unsigned tid = threadIdx.x;
    unsigned lane = ptx_laneid();
    unsigned warps_per_block = (blockDim.x + warpSize - 1) / warpSize;

    stat[tid % 64] = tid;
    dyn[tid] = (unsigned char)tid;
    __syncthreads();

    unsigned warp_first = tid - tid % 32;
    unsigned warp_threads = blockDim.x - warp_first < 32 ? blockDim.x - warp_first : 32;
    unsigned expected_entry = warp_threads == 32 ? FULL_MASK : ((1u << warp_threads) - 1u);

    unsigned branch_mask = FULL_MASK;
    int in_branch = (lane % 3) == 0;
    if (in_branch) branch_mask = __activemask();
    unsigned branch_lanes = 0;
    for (unsigned l = 0; l < warp_threads; l++)
        if (l % 3 == 0) branch_lanes |= 1u << l;

    int bad[NUM_CHECKS];
    bad[0] = lane != tid % 32;
    bad[1] = ptx_lanemask_lt() != ((1u << lane) - 1u);
    bad[2] = ptx_warpid() >= ptx_nwarpid();
    bad[3] = ptx_nwarpid() < warps_per_block;
    bad[4] = ptx_dynamic_smem() != dyn_expected;
    bad[5] = ptx_total_smem() < ptx_dynamic_smem();
    bad[6] = entry_mask != expected_entry;
    bad[7] = in_branch && (((branch_mask >> lane) & 1u) == 0 || (branch_mask & ~branch_lanes) != 0);
    bad[8] = 0;
    /* use both shared arrays so neither is optimised away */
    if (stat[tid % 64] != tid || dyn[tid] != (unsigned char)tid) bad[0] = 1;
    for (int c = 0; c < NUM_CHECKS; c++)
        if (bad[c]) atomicAdd(&failures[c], 1);
    if (tid == 0) gridids[blockIdx.x] = ptx_gridid();
}

static unsigned lcg = 2463534242u;
static int next_int(void) {
    lcg = lcg * 1103515245u + 12345u;
    return (int)((lcg >> 8) & 0xffff);
}

int main(void) {
    int *d_in, *d_sum_down, *d_sum_xor, *d_disagree, *d_compact, *d_counts, *d_failures;
    unsigned *d_ballots;
    unsigned long long *d_gridids;
    unsigned long long gridids[2][SPECIAL_BLOCKS];
    int failures[NUM_CHECKS];
    int i, w, ok = 1, warp_size = 0;

    printf("warp_size: starting\n");
    CUDA_CALL(cudaSetDevice(0));
    CUDA_CALL(cudaDeviceGetAttribute(&warp_size, cudaDevAttrWarpSize, 0));
    printf("device warp size: %d\n", warp_size);

    for (i = 0; i < N; i++) h_in[i] = next_int();

    CUDA_CALL(cudaMalloc((void **)&d_in, N * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_sum_down, (N / SEG) * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_sum_xor, (N / SEG) * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_disagree, (N / SEG) * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_ballots, (N / 32) * sizeof(unsigned)));
    CUDA_CALL(cudaMalloc((void **)&d_compact, N * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_counts, (N / 32) * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_failures, NUM_CHECKS * sizeof(int)));
    CUDA_CALL(cudaMalloc((void **)&d_gridids, SPECIAL_BLOCKS * sizeof(unsigned long long)));
    CUDA_CALL(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CALL(cudaMemset(d_compact, 0, N * sizeof(int)));
    CUDA_CALL(cudaMemset(d_failures, 0, NUM_CHECKS * sizeof(int)));

    /* 1: segmented warp sums */
    warp_segment_sum<<<(N / SEG) * 32 / RED_THREADS, RED_THREADS>>>(d_in, d_sum_down, d_sum_xor, d_disagree);
    CUDA_CALL(cudaGetLastError());
    CUDA_CALL(cudaMemcpy(h_warp_sum_down, d_sum_down, sizeof(h_warp_sum_down), cudaMemcpyDeviceToHost));
    CUDA_CALL(cudaMemcpy(h_warp_sum_xor, d_sum_xor, sizeof(h_warp_sum_xor), cudaMemcpyDeviceToHost));
    CUDA_CALL(cudaMemcpy(h_xor_disagree, d_disagree, sizeof(h_xor_disagree), cudaMemcpyDeviceToHost));
    {
        int bad_down = 0, bad_xor = 0, disagreeing = 0;
        unsigned checksum = 0;
        for (w = 0; w < N / SEG; w++) {
            int ref = 0;
            for (i = 0; i < SEG; i++) ref += h_in[w * SEG + i];
            if (h_warp_sum_down[w] != ref) bad_down++;
            if (h_warp_sum_xor[w] != ref) bad_xor++;
            disagreeing += h_xor_disagree[w];
            checksum = checksum * 31u + (unsigned)ref;
        }
        printf("segment sums (shfl_down): %d segments, %d wrong\n", N / SEG, bad_down);
        printf("segment sums (shfl_xor): %d wrong, %d lanes disagreeing after the butterfly\n", bad_xor, disagreeing);
        printf("segment checksum: 0x%08x\n", checksum);
        if (bad_down || bad_xor || disagreeing) ok = 0;
    }

    /* 2: ballot compaction */
    warp_compact_odd<<<N / 256, 256>>>(d_in, d_ballots, d_compact, d_counts);
    CUDA_CALL(cudaGetLastError());
    CUDA_CALL(cudaMemcpy(h_ballot, d_ballots, sizeof(h_ballot), cudaMemcpyDeviceToHost));
    CUDA_CALL(cudaMemcpy(h_compact, d_compact, sizeof(h_compact), cudaMemcpyDeviceToHost));
    CUDA_CALL(cudaMemcpy(h_compact_count, d_counts, sizeof(h_compact_count), cudaMemcpyDeviceToHost));
    {
        int bad_ballot = 0, bad_compact = 0, total_odd = 0;
        for (w = 0; w < N / 32; w++) {
            unsigned ref = 0;
            int k = 0;
            for (i = 0; i < 32; i++) {
                int x = h_in[w * 32 + i];
                if (x & 1) {
                    ref |= 1u << i;
                    if (h_compact[w * 32 + k] != x) bad_compact++;
                    k++;
                }
            }
            if (h_ballot[w] != ref || h_compact_count[w] != k) bad_ballot++;
            total_odd += k;
        }
        printf("ballots: %d warps, %d wrong; odd values: %d; compaction errors: %d\n", N / 32, bad_ballot, total_odd,
               bad_compact);
        if (bad_ballot || bad_compact) ok = 0;
    }

    /* 3: special registers, two launches */
    for (i = 0; i < 2; i++) {
        special_registers<<<SPECIAL_BLOCKS, SPECIAL_THREADS, DYN_SMEM>>>(d_failures, d_gridids, DYN_SMEM);
        CUDA_CALL(cudaGetLastError());
        CUDA_CALL(cudaMemcpy(gridids[i], d_gridids, sizeof(gridids[i]), cudaMemcpyDeviceToHost));
    }
    CUDA_CALL(cudaMemcpy(failures, d_failures, sizeof(failures), cudaMemcpyDeviceToHost));
    for (i = 0; i < 2; i++)
        for (w = 1; w < SPECIAL_BLOCKS; w++)
            if (gridids[i][w] != gridids[i][0]) failures[8]++;
    for (i = 0; i < NUM_CHECKS; i++) {
        printf("%-50s %s\n", check_names[i], failures[i] == 0 ? "consistent" : "INCONSISTENT");
        if (failures[i]) ok = 0;
    }
    fprintf(stderr, "%%gridid of the two launches: %llu and %llu (%s)\n", gridids[0][0], gridids[1][0],
            gridids[0][0] != gridids[1][0] ? "different" : "same");

    CUDA_CALL(cudaFree(d_in));
    CUDA_CALL(cudaFree(d_sum_down));
    CUDA_CALL(cudaFree(d_sum_xor));
    CUDA_CALL(cudaFree(d_disagree));
    CUDA_CALL(cudaFree(d_ballots));
    CUDA_CALL(cudaFree(d_compact));
    CUDA_CALL(cudaFree(d_counts));
    CUDA_CALL(cudaFree(d_failures));
    CUDA_CALL(cudaFree(d_gridids));
    printf("warp_size: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
