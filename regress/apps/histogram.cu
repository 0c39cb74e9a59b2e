// Byte histograms of 512 KiB of skewed data in the style of NVIDIA's histogram sample: a 256-bin
// version (per-block shared-memory histogram with shared atomics, merged into the result with global
// atomicAdd) and a 64-bin version with per-warp sub-histograms in shared memory. Exercises shared and
// global integer atomics under heavy contention, grid-stride loops, 32-bit loads split into bytes.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

#define HISTOGRAM256_BIN_COUNT 256
#define HISTOGRAM64_BIN_COUNT 64
#define HISTOGRAM_THREADBLOCK_SIZE 256
#define WARP_SIZE 32
#define WARP_COUNT (HISTOGRAM_THREADBLOCK_SIZE / WARP_SIZE)
#define PARTIAL_HISTOGRAM_COUNT 64

typedef unsigned int uint;
typedef unsigned char uchar;

static const uint kByteCount = 512 * 1024;

////////////////////////////////////////////////////////////////////////////////
// 256 bins: one shared histogram per block.
////////////////////////////////////////////////////////////////////////////////
__global__ void histogram256Kernel(uint *d_Histogram, const uint *d_Data, uint dataCount) {
    __shared__ uint s_Hist[HISTOGRAM256_BIN_COUNT];

    for (uint bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += blockDim.x) s_Hist[bin] = 0;
    __syncthreads();

    for (uint pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x) {
        uint data = d_Data[pos];
        atomicAdd(&s_Hist[(data >> 0) & 0xFFU], 1U);
        atomicAdd(&s_Hist[(data >> 8) & 0xFFU], 1U);
        atomicAdd(&s_Hist[(data >> 16) & 0xFFU], 1U);
        atomicAdd(&s_Hist[(data >> 24) & 0xFFU], 1U);
    }
    __syncthreads();

    for (uint bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += blockDim.x) {
        uint count = s_Hist[bin];
        if (count) atomicAdd(&d_Histogram[bin], count);
    }
}

////////////////////////////////////////////////////////////////////////////////
// 64 bins: every warp owns a sub-histogram, summed per bin at the end of the block.
////////////////////////////////////////////////////////////////////////////////
__device__ inline void addByte64(uint *s_WarpHist, uint data) { atomicAdd(s_WarpHist + (data >> 2), 1U); }

__global__ void histogram64Kernel(uint *d_Histogram, const uint *d_Data, uint dataCount) {
    __shared__ uint s_Hist[WARP_COUNT * HISTOGRAM64_BIN_COUNT];
    uint *s_WarpHist = s_Hist + (threadIdx.x / WARP_SIZE) * HISTOGRAM64_BIN_COUNT;

#pragma unroll
    for (uint i = 0; i < (WARP_COUNT * HISTOGRAM64_BIN_COUNT) / HISTOGRAM_THREADBLOCK_SIZE; i++)
        s_Hist[threadIdx.x + i * HISTOGRAM_THREADBLOCK_SIZE] = 0;
    __syncthreads();

    for (uint pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x) {
        uint data = d_Data[pos];
        addByte64(s_WarpHist, (data >> 0) & 0xFFU);
        addByte64(s_WarpHist, (data >> 8) & 0xFFU);
        addByte64(s_WarpHist, (data >> 16) & 0xFFU);
        addByte64(s_WarpHist, (data >> 24) & 0xFFU);
    }
    __syncthreads();

    for (uint bin = threadIdx.x; bin < HISTOGRAM64_BIN_COUNT; bin += HISTOGRAM_THREADBLOCK_SIZE) {
        uint sum = 0;
        for (uint w = 0; w < WARP_COUNT; w++) sum += s_Hist[w * HISTOGRAM64_BIN_COUNT + bin];
        atomicAdd(&d_Histogram[bin], sum);
    }
}

static bool compareHistograms(const char *name, const uint *gpu, const uint *cpu, uint bins) {
    uint total = 0, nonEmpty = 0, weighted = 0;
    bool ok = true;
    for (uint i = 0; i < bins; i++) {
        if (gpu[i] != cpu[i]) {
            if (ok) printf("  %s: first mismatch at bin %u: %u != %u\n", name, i, gpu[i], cpu[i]);
            ok = false;
        }
        total += gpu[i];
        nonEmpty += gpu[i] != 0;
        weighted += gpu[i] * (i + 1);
    }
    printf("%s: total %u, non-empty bins %u, weighted checksum %u, matches CPU: %s\n", name, total, nonEmpty, weighted,
           ok ? "yes" : "no");
    return ok;
}

int main(int argc, char **argv) {
    printf("[histogram] - Starting...\n");
    findCudaDevice(argc, argv);

    uchar *h_Data = (uchar *)malloc(kByteCount);
    uint *h_Histogram256CPU = (uint *)calloc(HISTOGRAM256_BIN_COUNT, sizeof(uint));
    uint *h_Histogram64CPU = (uint *)calloc(HISTOGRAM64_BIN_COUNT, sizeof(uint));
    uint *h_Histogram256GPU = (uint *)malloc(HISTOGRAM256_BIN_COUNT * sizeof(uint));
    uint *h_Histogram64GPU = (uint *)malloc(HISTOGRAM64_BIN_COUNT * sizeof(uint));

    // Skewed input: a third of the bytes hit a handful of hot values (heavy atomic contention),
    // the rest are uniform.
    Lcg rng(2009);
    for (uint i = 0; i < kByteCount; i++) {
        uint r = rng.next();
        if ((r & 0xFF) < 85) h_Data[i] = (uchar)(0x41 + ((r >> 8) & 3));
        else h_Data[i] = (uchar)(r >> 16);
    }
    for (uint i = 0; i < kByteCount; i++) {
        h_Histogram256CPU[h_Data[i]]++;
        h_Histogram64CPU[h_Data[i] >> 2]++;
    }

    uchar *d_Data;
    uint *d_Histogram;
    checkCudaErrors(cudaMalloc((void **)&d_Data, kByteCount));
    checkCudaErrors(cudaMalloc((void **)&d_Histogram, HISTOGRAM256_BIN_COUNT * sizeof(uint)));
    checkCudaErrors(cudaMemcpy(d_Data, h_Data, kByteCount, cudaMemcpyHostToDevice));

    const uint dataCount = kByteCount / sizeof(uint);
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    float ms = 0.0f;

    printf("Running 256-bin GPU histogram for %u bytes (%d blocks of %d threads)...\n", kByteCount,
           PARTIAL_HISTOGRAM_COUNT, HISTOGRAM_THREADBLOCK_SIZE);
    checkCudaErrors(cudaMemset(d_Histogram, 0, HISTOGRAM256_BIN_COUNT * sizeof(uint)));
    checkCudaErrors(cudaEventRecord(start));
    histogram256Kernel<<<PARTIAL_HISTOGRAM_COUNT, HISTOGRAM_THREADBLOCK_SIZE>>>(d_Histogram, (const uint *)d_Data, dataCount);
    getLastCudaError("histogram256Kernel() execution failed\n");
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "histogram256() time: %.5f ms, %.2f MB/s\n", ms, kByteCount / (ms * 1e-3) / 1048576.0);
    checkCudaErrors(cudaMemcpy(h_Histogram256GPU, d_Histogram, HISTOGRAM256_BIN_COUNT * sizeof(uint), cudaMemcpyDeviceToHost));
    bool ok256 = compareHistograms("histogram256", h_Histogram256GPU, h_Histogram256CPU, HISTOGRAM256_BIN_COUNT);

    printf("Running 64-bin GPU histogram with per-warp sub-histograms...\n");
    checkCudaErrors(cudaMemset(d_Histogram, 0, HISTOGRAM64_BIN_COUNT * sizeof(uint)));
    checkCudaErrors(cudaEventRecord(start));
    histogram64Kernel<<<PARTIAL_HISTOGRAM_COUNT, HISTOGRAM_THREADBLOCK_SIZE>>>(d_Histogram, (const uint *)d_Data, dataCount);
    getLastCudaError("histogram64Kernel() execution failed\n");
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "histogram64() time: %.5f ms, %.2f MB/s\n", ms, kByteCount / (ms * 1e-3) / 1048576.0);
    checkCudaErrors(cudaMemcpy(h_Histogram64GPU, d_Histogram, HISTOGRAM64_BIN_COUNT * sizeof(uint), cudaMemcpyDeviceToHost));
    bool ok64 = compareHistograms("histogram64", h_Histogram64GPU, h_Histogram64CPU, HISTOGRAM64_BIN_COUNT);

    printf("hot bins 0x41..0x44: %u %u %u %u\n", h_Histogram256GPU[0x41], h_Histogram256GPU[0x42], h_Histogram256GPU[0x43],
           h_Histogram256GPU[0x44]);

    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_Data));
    checkCudaErrors(cudaFree(d_Histogram));
    free(h_Data);
    free(h_Histogram256CPU);
    free(h_Histogram64CPU);
    free(h_Histogram256GPU);
    free(h_Histogram64GPU);

    bool ok = ok256 && ok64;
    printf("histogram: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
