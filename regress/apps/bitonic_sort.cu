// Bitonic sort of 8192 (key, value) pairs in the style of NVIDIA's sortingNetworks sample: each
// 1024-element chunk is sorted in shared memory, then larger bitonic merges run as global-memory
// compare-exchange steps for big strides and a shared-memory merge kernel for the small ones.
// Exercises shared memory, many barriers in nested loops, many small launches, and data-oblivious swaps.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

typedef unsigned int uint;

#define SHARED_SIZE_LIMIT 1024U
#define MERGE_THREADS 256U

static const uint kArrayLength = 8192;
static const uint kDirAscending = 1;

__device__ inline void Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint dir) {
    if ((keyA > keyB) == (dir != 0)) {
        uint t = keyA;
        keyA = keyB;
        keyB = t;
        t = valA;
        valA = valB;
        valB = t;
    }
}

// Sort each SHARED_SIZE_LIMIT chunk; consecutive chunks end up in alternating order so that pairs of
// them form bitonic sequences for the merge stages.
__global__ void bitonicSortShared(uint *d_DstKey, uint *d_DstVal, const uint *d_SrcKey, const uint *d_SrcVal, uint dir) {
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x] = d_SrcKey[0];
    s_val[threadIdx.x] = d_SrcVal[0];
    s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_SrcKey[SHARED_SIZE_LIMIT / 2];
    s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_SrcVal[SHARED_SIZE_LIMIT / 2];

    // Global comparator index decides the direction of every stage, including the last one.
    const uint comparatorI = blockIdx.x * (SHARED_SIZE_LIMIT / 2) + threadIdx.x;
    for (uint size = 2; size <= SHARED_SIZE_LIMIT; size <<= 1) {
        uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }
    __syncthreads();

    d_DstKey[0] = s_key[threadIdx.x];
    d_DstVal[0] = s_val[threadIdx.x];
    d_DstKey[SHARED_SIZE_LIMIT / 2] = s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2];
    d_DstVal[SHARED_SIZE_LIMIT / 2] = s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

// One compare-exchange step of a bitonic merge with stride >= SHARED_SIZE_LIMIT, in global memory.
__global__ void bitonicMergeGlobal(uint *d_Key, uint *d_Val, uint arrayLength, uint size, uint stride, uint dir) {
    uint global_comparatorI = blockIdx.x * blockDim.x + threadIdx.x;
    if (global_comparatorI >= arrayLength / 2) return;
    uint comparatorI = global_comparatorI & (arrayLength / 2 - 1);

    uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);
    uint pos = 2 * global_comparatorI - (global_comparatorI & (stride - 1));

    uint keyA = d_Key[pos + 0];
    uint valA = d_Val[pos + 0];
    uint keyB = d_Key[pos + stride];
    uint valB = d_Val[pos + stride];
    Comparator(keyA, valA, keyB, valB, ddd);
    d_Key[pos + 0] = keyA;
    d_Val[pos + 0] = valA;
    d_Key[pos + stride] = keyB;
    d_Val[pos + stride] = valB;
}

// The remaining strides (SHARED_SIZE_LIMIT/2 down to 1) of a merge of the given size, in shared memory.
__global__ void bitonicMergeShared(uint *d_Key, uint *d_Val, uint arrayLength, uint size, uint dir) {
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    d_Key += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_Val += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x] = d_Key[0];
    s_val[threadIdx.x] = d_Val[0];
    s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_Key[SHARED_SIZE_LIMIT / 2];
    s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_Val[SHARED_SIZE_LIMIT / 2];

    uint comparatorI = (blockIdx.x * blockDim.x + threadIdx.x) & ((arrayLength / 2) - 1);
    uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);

    for (uint stride = SHARED_SIZE_LIMIT / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
    }
    __syncthreads();

    d_Key[0] = s_key[threadIdx.x];
    d_Val[0] = s_val[threadIdx.x];
    d_Key[SHARED_SIZE_LIMIT / 2] = s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2];
    d_Val[SHARED_SIZE_LIMIT / 2] = s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

static uint factorRadix2(uint *log2L, uint L) {
    if (!L) {
        *log2L = 0;
        return 0;
    }
    for (*log2L = 0; (L & 1) == 0; L >>= 1, (*log2L)++) {
    }
    return L;
}

// Returns the number of kernel launches.
static uint bitonicSort(uint *d_DstKey, uint *d_DstVal, const uint *d_SrcKey, const uint *d_SrcVal, uint arrayLength, uint dir) {
    uint log2L;
    uint factorizationRemainder = factorRadix2(&log2L, arrayLength);
    if (factorizationRemainder != 1 || arrayLength < SHARED_SIZE_LIMIT) {
        fprintf(stdout, "bitonicSort: array length must be a power of two >= %u\n", SHARED_SIZE_LIMIT);
        exit(EXIT_FAILURE);
    }

    uint launches = 0;
    const uint blockCount = arrayLength / SHARED_SIZE_LIMIT;
    const uint threadCount = SHARED_SIZE_LIMIT / 2;

    bitonicSortShared<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, d_SrcKey, d_SrcVal, dir);
    getLastCudaError("bitonicSortShared failed");
    ++launches;

    for (uint size = 2 * SHARED_SIZE_LIMIT; size <= arrayLength; size <<= 1) {
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            if (stride >= SHARED_SIZE_LIMIT) {
                const uint comparators = arrayLength / 2;
                bitonicMergeGlobal<<<(comparators + MERGE_THREADS - 1) / MERGE_THREADS, MERGE_THREADS>>>(
                    d_DstKey, d_DstVal, arrayLength, size, stride, dir);
                getLastCudaError("bitonicMergeGlobal failed");
                ++launches;
            } else {
                bitonicMergeShared<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, arrayLength, size, dir);
                getLastCudaError("bitonicMergeShared failed");
                ++launches;
                break;
            }
        }
    }
    return launches;
}

int main(int argc, char **argv) {
    printf("bitonic_sort Starting...\n\n");
    findCudaDevice(argc, argv);

    const uint N = kArrayLength;
    uint *h_InputKey = (uint *)malloc(N * sizeof(uint));
    uint *h_InputVal = (uint *)malloc(N * sizeof(uint));
    uint *h_OutputKey = (uint *)malloc(N * sizeof(uint));
    uint *h_OutputVal = (uint *)malloc(N * sizeof(uint));

    // Keys with plenty of duplicates (and the extremes) to exercise equal-key handling.
    Lcg rng(4242);
    for (uint i = 0; i < N; ++i) {
        h_InputKey[i] = rng.next() % 5000u;
        h_InputVal[i] = i;
    }
    h_InputKey[17] = 0xffffffffu;
    h_InputKey[4000] = 0u;

    uint *d_InputKey, *d_InputVal, *d_OutputKey, *d_OutputVal;
    checkCudaErrors(cudaMalloc((void **)&d_InputKey, N * sizeof(uint)));
    checkCudaErrors(cudaMalloc((void **)&d_InputVal, N * sizeof(uint)));
    checkCudaErrors(cudaMalloc((void **)&d_OutputKey, N * sizeof(uint)));
    checkCudaErrors(cudaMalloc((void **)&d_OutputVal, N * sizeof(uint)));
    checkCudaErrors(cudaMemcpy(d_InputKey, h_InputKey, N * sizeof(uint), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_InputVal, h_InputVal, N * sizeof(uint), cudaMemcpyHostToDevice));

    printf("Sorting %u key/value pairs (ascending)...\n", N);
    uint launches = bitonicSort(d_OutputKey, d_OutputVal, d_InputKey, d_InputVal, N, kDirAscending);
    checkCudaErrors(cudaDeviceSynchronize());
    printf("kernel launches: %u\n", launches);

    checkCudaErrors(cudaMemcpy(h_OutputKey, d_OutputKey, N * sizeof(uint), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(h_OutputVal, d_OutputVal, N * sizeof(uint), cudaMemcpyDeviceToHost));

    // 1) sorted, 2) values form a permutation, 3) each key travelled with its value,
    // 4) keys equal a CPU sort of the input.
    bool sorted = true, perm = true, paired = true, matches = true;
    for (uint i = 1; i < N; ++i)
        if (h_OutputKey[i - 1] > h_OutputKey[i]) sorted = false;

    std::vector<char> seen(N, 0);
    for (uint i = 0; i < N; ++i) {
        uint v = h_OutputVal[i];
        if (v >= N || seen[v]) {
            perm = false;
            break;
        }
        seen[v] = 1;
        if (h_InputKey[v] != h_OutputKey[i]) paired = false;
    }

    std::vector<uint> ref(h_InputKey, h_InputKey + N);
    std::sort(ref.begin(), ref.end());
    for (uint i = 0; i < N; ++i)
        if (ref[i] != h_OutputKey[i]) matches = false;

    unsigned long long keySum = 0, valHash = 0;
    for (uint i = 0; i < N; ++i) {
        keySum += h_OutputKey[i];
        valHash = valHash * 1000003ull + h_OutputVal[i];
    }

    printf("keys sorted: %s\n", sorted ? "yes" : "no");
    printf("values are a permutation: %s\n", perm ? "yes" : "no");
    printf("keys travel with their values: %s\n", paired ? "yes" : "no");
    printf("keys equal CPU sort: %s\n", matches ? "yes" : "no");
    printf("key sum = %llu, value order hash = %llu\n", keySum, valHash);

    checkCudaErrors(cudaFree(d_InputKey));
    checkCudaErrors(cudaFree(d_InputVal));
    checkCudaErrors(cudaFree(d_OutputKey));
    checkCudaErrors(cudaFree(d_OutputVal));
    free(h_InputKey);
    free(h_InputVal);
    free(h_OutputKey);
    free(h_OutputVal);

    const bool ok = sorted && perm && paired && matches;
    printf("bitonic_sort: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
