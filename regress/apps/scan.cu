// Work-efficient (Blelloch) exclusive prefix sum of 70001 integers, in the style of the classic
// "scanLargeArray" / GPU Gems 3 chapter 39 sample: up-sweep and down-sweep in shared memory padded with
// CONFLICT_FREE_OFFSET, a multi-level scan (per-block sums are themselves scanned recursively, then
// added back). Exercises shared memory, barriers inside loops, recursion on the host and partial blocks.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

#define SCAN_THREADS 128
#define ELEMENTS_PER_BLOCK (2 * SCAN_THREADS)
#define SHARED_ELEMENTS (ELEMENTS_PER_BLOCK + CONFLICT_FREE_OFFSET(ELEMENTS_PER_BLOCK - 1) + 1)

#define MAX_LEVELS 8

// Exclusive scan of one ELEMENTS_PER_BLOCK chunk per block. When blockSums is non-null, each block
// stores the total of its chunk there.
__global__ void prescanKernel(int *g_out, const int *g_in, int *blockSums, int n) {
    __shared__ int temp[SHARED_ELEMENTS];

    const int thid = threadIdx.x;
    const int blockBase = blockIdx.x * ELEMENTS_PER_BLOCK;

    int ai = thid;
    int bi = thid + (ELEMENTS_PER_BLOCK / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = (blockBase + ai < n) ? g_in[blockBase + ai] : 0;
    temp[bi + bankOffsetB] = (blockBase + bi < n) ? g_in[blockBase + bi] : 0;

    // Up-sweep (reduce) phase.
    int offset = 1;
    for (int d = ELEMENTS_PER_BLOCK >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }

    // Save the block total and clear the last element.
    if (thid == 0) {
        const int last = ELEMENTS_PER_BLOCK - 1 + CONFLICT_FREE_OFFSET(ELEMENTS_PER_BLOCK - 1);
        if (blockSums != NULL) blockSums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }

    // Down-sweep phase.
    for (int d = 1; d < ELEMENTS_PER_BLOCK; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();

    if (blockBase + ai < n) g_out[blockBase + ai] = temp[ai + bankOffsetA];
    if (blockBase + bi < n) g_out[blockBase + bi] = temp[bi + bankOffsetB];
}

// Adds the scanned block sum of block b to every element of chunk b.
__global__ void uniformAddKernel(int *g_data, const int *incr, int n) {
    __shared__ int blockIncr;
    if (threadIdx.x == 0) blockIncr = incr[blockIdx.x];
    __syncthreads();

    const int base = blockIdx.x * ELEMENTS_PER_BLOCK + threadIdx.x;
    if (base < n) g_data[base] += blockIncr;
    if (base + SCAN_THREADS < n) g_data[base + SCAN_THREADS] += blockIncr;
}

static int *g_scanBlockSums[MAX_LEVELS];
static int g_numLevelsAllocated = 0;

static void preallocBlockSums(int n) {
    int level = 0;
    int elements = n;
    do {
        int numBlocks = (elements + ELEMENTS_PER_BLOCK - 1) / ELEMENTS_PER_BLOCK;
        if (numBlocks > 1) {
            checkCudaErrors(cudaMalloc((void **)&g_scanBlockSums[level], numBlocks * sizeof(int)));
            ++level;
        }
        elements = numBlocks;
    } while (elements > 1);
    g_numLevelsAllocated = level;
    printf("scan levels with block sums: %d\n", g_numLevelsAllocated);
}

static void deallocBlockSums() {
    for (int i = 0; i < g_numLevelsAllocated; ++i) checkCudaErrors(cudaFree(g_scanBlockSums[i]));
    g_numLevelsAllocated = 0;
}

static void prescanArrayRecursive(int *d_out, const int *d_in, int n, int level) {
    const int numBlocks = (n + ELEMENTS_PER_BLOCK - 1) / ELEMENTS_PER_BLOCK;
    if (numBlocks > 1) {
        prescanKernel<<<numBlocks, SCAN_THREADS>>>(d_out, d_in, g_scanBlockSums[level], n);
        getLastCudaError("prescanKernel (multi-block) failed");
        // Scan the block sums in place, then add them back.
        prescanArrayRecursive(g_scanBlockSums[level], g_scanBlockSums[level], numBlocks, level + 1);
        uniformAddKernel<<<numBlocks, SCAN_THREADS>>>(d_out, g_scanBlockSums[level], n);
        getLastCudaError("uniformAddKernel failed");
    } else {
        prescanKernel<<<1, SCAN_THREADS>>>(d_out, d_in, NULL, n);
        getLastCudaError("prescanKernel (single block) failed");
    }
}

int main(int argc, char **argv) {
    printf("%s Starting...\n\n", "scan");
    findCudaDevice(argc, argv);

    const int numElements = 70001;
    const size_t memSize = sizeof(int) * numElements;

    int *h_data = (int *)malloc(memSize);
    int *h_result = (int *)malloc(memSize);
    int *reference = (int *)malloc(memSize);

    Lcg rng(99);
    for (int i = 0; i < numElements; ++i) h_data[i] = rng.below(1000) - 100;   // some negatives

    int *d_in = NULL, *d_out = NULL;
    checkCudaErrors(cudaMalloc((void **)&d_in, memSize));
    checkCudaErrors(cudaMalloc((void **)&d_out, memSize));
    checkCudaErrors(cudaMemcpy(d_in, h_data, memSize, cudaMemcpyHostToDevice));

    printf("Scanning %d elements, %d per block\n", numElements, ELEMENTS_PER_BLOCK);
    preallocBlockSums(numElements);
    prescanArrayRecursive(d_out, d_in, numElements, 0);
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaMemcpy(h_result, d_out, memSize, cudaMemcpyDeviceToHost));

    // CPU exclusive scan.
    reference[0] = 0;
    for (int i = 1; i < numElements; ++i) reference[i] = reference[i - 1] + h_data[i - 1];

    int mismatches = 0;
    for (int i = 0; i < numElements; ++i) {
        if (h_result[i] != reference[i]) {
            if (mismatches < 5) printf("mismatch at %d: gpu %d cpu %d\n", i, h_result[i], reference[i]);
            ++mismatches;
        }
    }
    unsigned int checksum = 0;
    for (int i = 0; i < numElements; ++i) checksum = checksum * 31u + (unsigned int)h_result[i];
    const long long total = (long long)h_result[numElements - 1] + h_data[numElements - 1];

    printf("total sum = %lld\n", total);
    printf("checksum of scanned array = %u\n", checksum);
    printf("mismatches = %d\n", mismatches);

    deallocBlockSums();
    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_out));
    free(h_data);
    free(h_result);
    free(reference);

    printf("scan: %s\n", mismatches == 0 ? "PASSED" : "FAILED");
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
