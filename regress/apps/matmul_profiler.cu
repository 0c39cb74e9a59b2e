// matmul_profiler: C = A * B with a shared-memory tiled kernel templated on the tile size, in the style of
// the CUDA samples' matrixMul: a warm-up launch, cudaProfilerStart/Stop around a timed loop measured with
// events (timings on stderr), and a relative-tolerance check against a CPU product.
// Exercises templates on block size, __shared__ tiles, cudaProfilerStart/Stop, cudaEvent timing.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

// One thread computes one element of C; each block walks the shared dimension one BLOCK_SIZE tile at a time.
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float* C, const float* A, const float* B, int wA, int wB) {
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;

    int aBegin = wA * BLOCK_SIZE * by;   // first tile of A this block reads
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;

    float Csub = 0.0f;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

static void RandomInit(float* data, int size, Lcg& rng) {
    for (int i = 0; i < size; ++i) data[i] = 0.25f + rng.uniform();   // positive: no cancellation in the sums
}

// Relative error of every element against a double-precision CPU product.
static bool CheckResult(const float* C, const float* A, const float* B, dim3 dA, dim3 dB, double eps, double* worst) {
    *worst = 0.0;
    int errors = 0;
    for (unsigned row = 0; row < dA.y; ++row) {
        for (unsigned col = 0; col < dB.x; ++col) {
            double ref = 0.0;
            for (unsigned k = 0; k < dA.x; ++k) ref += (double)A[row * dA.x + k] * (double)B[k * dB.x + col];
            double rel = std::fabs(C[row * dB.x + col] - ref) / std::fabs(ref);
            if (rel > *worst) *worst = rel;
            if (rel > eps && ++errors <= 5)
                fprintf(stderr, "Error! Matrix[%05u]=%.8f, ref=%.8f error term is > %E\n", row * dB.x + col,
                        C[row * dB.x + col], ref, eps);
        }
    }
    return errors == 0;
}

template <int BLOCK_SIZE>
static void Launch(float* d_C, const float* d_A, const float* d_B, dim3 dA, dim3 dB, cudaStream_t stream) {
    dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
    dim3 grid(dB.x / threads.x, dA.y / threads.y);
    MatrixMulCUDA<BLOCK_SIZE><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dA.x, dB.x);
}

static int MatrixMultiply(int block_size, const dim3& dimsA, const dim3& dimsB, int nIter) {
    unsigned size_A = dimsA.x * dimsA.y, size_B = dimsB.x * dimsB.y;
    unsigned mem_size_A = sizeof(float) * size_A, mem_size_B = sizeof(float) * size_B;
    float *h_A, *h_B, *h_C;
    checkCudaErrors(cudaMallocHost(&h_A, mem_size_A));
    checkCudaErrors(cudaMallocHost(&h_B, mem_size_B));
    dim3 dimsC(dimsB.x, dimsA.y, 1);
    unsigned mem_size_C = dimsC.x * dimsC.y * sizeof(float);
    checkCudaErrors(cudaMallocHost(&h_C, mem_size_C));

    Lcg rng(20240607u);
    RandomInit(h_A, size_A, rng);
    RandomInit(h_B, size_B, rng);

    float *d_A, *d_B, *d_C;
    checkCudaErrors(cudaMalloc(&d_A, mem_size_A));
    checkCudaErrors(cudaMalloc(&d_B, mem_size_B));
    checkCudaErrors(cudaMalloc(&d_C, mem_size_C));

    cudaStream_t stream;
    cudaEvent_t start, stop;
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));

    checkCudaErrors(cudaMemcpyAsync(d_A, h_A, mem_size_A, cudaMemcpyHostToDevice, stream));
    checkCudaErrors(cudaMemcpyAsync(d_B, h_B, mem_size_B, cudaMemcpyHostToDevice, stream));
    checkCudaErrors(cudaMemsetAsync(d_C, 0xff, mem_size_C, stream));   // NaNs: a skipped element shows

    printf("Computing result using CUDA Kernel (block size %d)...\n", block_size);
    // Warm-up launch, so that module loading is not timed.
    if (block_size == 16) Launch<16>(d_C, d_A, d_B, dimsA, dimsB, stream);
    else Launch<32>(d_C, d_A, d_B, dimsA, dimsB, stream);
    getLastCudaError("warm-up MatrixMulCUDA launch failed");
    checkCudaErrors(cudaStreamSynchronize(stream));
    printf("done\n");

    checkCudaErrors(cudaProfilerStart());
    checkCudaErrors(cudaEventRecord(start, stream));
    for (int j = 0; j < nIter; ++j) {
        if (block_size == 16) Launch<16>(d_C, d_A, d_B, dimsA, dimsB, stream);
        else Launch<32>(d_C, d_A, d_B, dimsA, dimsB, stream);
    }
    getLastCudaError("timed MatrixMulCUDA launches failed");
    checkCudaErrors(cudaEventRecord(stop, stream));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaProfilerStop());

    float msecTotal = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&msecTotal, start, stop));
    float msecPerMatrixMul = msecTotal / nIter;
    double flopsPerMatrixMul = 2.0 * dimsA.x * dimsA.y * dimsB.x;
    double gigaFlops = (flopsPerMatrixMul * 1.0e-9f) / (msecPerMatrixMul / 1000.0f);
    fprintf(stderr, "Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %u threads/block\n",
            gigaFlops, msecPerMatrixMul, flopsPerMatrixMul, block_size * block_size);

    checkCudaErrors(cudaMemcpyAsync(h_C, d_C, mem_size_C, cudaMemcpyDeviceToHost, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));

    printf("Checking computed result for correctness: ");
    const double eps = 1.e-4;   // fp32 sums of 256 positive products against a double reference
    double worst = 0.0;
    bool correct = CheckResult(h_C, h_A, h_B, dimsA, dimsB, eps, &worst);
    printf("%s\n", correct ? "Result = PASS" : "Result = FAIL");
    printf("max relative error below %.0e: %s\n", eps, worst <= eps ? "yes" : "no");
    fprintf(stderr, "max relative error %.3e\n", worst);

    checkCudaErrors(cudaFreeHost(h_A));
    checkCudaErrors(cudaFreeHost(h_B));
    checkCudaErrors(cudaFreeHost(h_C));
    checkCudaErrors(cudaFree(d_A));
    checkCudaErrors(cudaFree(d_B));
    checkCudaErrors(cudaFree(d_C));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaStreamDestroy(stream));
    return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char** argv) {
    printf("[Matrix Multiply Using CUDA] - Starting...\n");
    int dev = findCudaDevice(argc, argv);
    (void)dev;

    // Kept small for the simulator: 64x256 times 256x64, so each launch is about a million multiply-adds.
    const int block_size = 32;
    dim3 dimsA(8 * block_size, 2 * block_size, 1);   // width 256, height 64
    dim3 dimsB(2 * block_size, 8 * block_size, 1);   // width 64, height 256
    if (dimsA.x != dimsB.y) {
        printf("Error: outer matrix dimensions must be equal. (%d != %d)\n", dimsA.x, dimsB.y);
        return EXIT_FAILURE;
    }
    printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", dimsA.x, dimsA.y, dimsB.x, dimsB.y);

    int result = MatrixMultiply(block_size, dimsA, dimsB, 2);
    if (result == EXIT_SUCCESS) result = MatrixMultiply(16, dimsA, dimsB, 1);
    printf("matmul_profiler: %s\n", result == EXIT_SUCCESS ? "PASSED" : "FAILED");
    return result;
}
