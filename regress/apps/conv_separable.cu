// Separable 2D convolution (a 17-tap Gaussian-like filter applied along rows, then columns) in the
// style of the CUDA samples' "convolutionSeparable": the filter lives in __constant__ memory set
// with cudaMemcpyToSymbol, and the row and column kernels stage their tiles plus halo "aprons" in
// shared memory with zero padding at the image border. Exercises constant memory, symbol copies in
// both directions, #pragma unroll, 2D shared arrays, and an L2-norm check against the CPU.

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/cuda_helpers.h"

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__constant__ float c_Kernel[KERNEL_LENGTH];

extern "C" void setConvolutionKernel(const float* h_Kernel) {
    checkCudaErrors(cudaMemcpyToSymbol(c_Kernel, h_Kernel, KERNEL_LENGTH * sizeof(float)));
}

////////////////////////////////////////////////////////////////////////////////
// Row convolution filter: each block loads ROWS_RESULT_STEPS tiles of its rows plus one tile of
// apron on each side, then every thread produces ROWS_RESULT_STEPS outputs.
////////////////////////////////////////////////////////////////////////////////
__global__ void convolutionRowsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH, int pitch) {
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];

    // offset to the left halo edge
    const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
    const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
    const int rowOffset = baseY * pitch;

    // main data
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[rowOffset + baseX + i * ROWS_BLOCKDIM_X];

    // left halo
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[rowOffset + baseX + i * ROWS_BLOCKDIM_X] : 0;

    // right halo
#pragma unroll
    for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[rowOffset + baseX + i * ROWS_BLOCKDIM_X] : 0;

    __syncthreads();

#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
        d_Dst[rowOffset + baseX + i * ROWS_BLOCKDIM_X] = sum;
    }
}

extern "C" void convolutionRowsGPU(float* d_Dst, const float* d_Src, int imageW, int imageH) {
    assert(ROWS_BLOCKDIM_X * ROWS_HALO_STEPS >= KERNEL_RADIUS);
    assert(imageW % (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X) == 0);
    assert(imageH % ROWS_BLOCKDIM_Y == 0);

    dim3 blocks(imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y);
    dim3 threads(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);
    convolutionRowsKernel<<<blocks, threads>>>(d_Dst, d_Src, imageW, imageH, imageW);
    getLastCudaError("convolutionRowsKernel() execution failed\n");
}

////////////////////////////////////////////////////////////////////////////////
// Column convolution filter: the same along y, with the shared array transposed and padded by
// one element so that the column reads do not collide in one bank.
////////////////////////////////////////////////////////////////////////////////
__global__ void convolutionColumnsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH, int pitch) {
    __shared__ float s_Data[COLUMNS_BLOCKDIM_X][(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];

    // offset to the upper halo edge
    const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
    const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
    const int base = baseY * pitch + baseX;

    // main data
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = d_Src[base + i * COLUMNS_BLOCKDIM_Y * pitch];

    // upper halo
#pragma unroll
    for (int i = 0; i < COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[base + i * COLUMNS_BLOCKDIM_Y * pitch] : 0;

    // lower halo
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
         i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[base + i * COLUMNS_BLOCKDIM_Y * pitch] : 0;

    __syncthreads();

#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
        d_Dst[base + i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
    }
}

extern "C" void convolutionColumnsGPU(float* d_Dst, const float* d_Src, int imageW, int imageH) {
    assert(COLUMNS_BLOCKDIM_Y * COLUMNS_HALO_STEPS >= KERNEL_RADIUS);
    assert(imageW % COLUMNS_BLOCKDIM_X == 0);
    assert(imageH % (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y) == 0);

    dim3 blocks(imageW / COLUMNS_BLOCKDIM_X, imageH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y));
    dim3 threads(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y);
    convolutionColumnsKernel<<<blocks, threads>>>(d_Dst, d_Src, imageW, imageH, imageW);
    getLastCudaError("convolutionColumnsKernel() execution failed\n");
}

////////////////////////////////////////////////////////////////////////////////
// Reference row and column convolutions
////////////////////////////////////////////////////////////////////////////////
extern "C" void convolutionRowCPU(float* h_Dst, const float* h_Src, const float* h_Kernel, int imageW, int imageH,
                                  int kernelR) {
    for (int y = 0; y < imageH; y++)
        for (int x = 0; x < imageW; x++) {
            float sum = 0;
            for (int k = -kernelR; k <= kernelR; k++) {
                int d = x + k;
                if (d >= 0 && d < imageW) sum += h_Src[y * imageW + d] * h_Kernel[kernelR - k];
            }
            h_Dst[y * imageW + x] = sum;
        }
}

extern "C" void convolutionColumnCPU(float* h_Dst, const float* h_Src, const float* h_Kernel, int imageW, int imageH,
                                     int kernelR) {
    for (int y = 0; y < imageH; y++)
        for (int x = 0; x < imageW; x++) {
            float sum = 0;
            for (int k = -kernelR; k <= kernelR; k++) {
                int d = y + k;
                if (d >= 0 && d < imageH) sum += h_Src[d * imageW + x] * h_Kernel[kernelR - k];
            }
            h_Dst[y * imageW + x] = sum;
        }
}

int main(int argc, char** argv) {
    float *h_Kernel, *h_Input, *h_Buffer, *h_OutputCPU, *h_OutputGPU;
    float *d_Input, *d_Output, *d_Buffer;

    const int imageW = 256;
    const int imageH = 192;

    std::printf("[%s] - Starting...\n", "conv_separable");
    findCudaDevice(argc, argv);

    std::printf("Image Width x Height = %i x %i\n\n", imageW, imageH);
    std::printf("Allocating and initializing host arrays...\n");
    h_Kernel = (float*)malloc(KERNEL_LENGTH * sizeof(float));
    h_Input = (float*)malloc(imageW * imageH * sizeof(float));
    h_Buffer = (float*)malloc(imageW * imageH * sizeof(float));
    h_OutputCPU = (float*)malloc(imageW * imageH * sizeof(float));
    h_OutputGPU = (float*)malloc(imageW * imageH * sizeof(float));

    // a normalized, slightly asymmetric bell so that a flipped filter would be caught
    Lcg rng(2024);
    float kernelSum = 0;
    for (int i = 0; i < KERNEL_LENGTH; i++) {
        float d = (float)(i - KERNEL_RADIUS) / KERNEL_RADIUS;
        h_Kernel[i] = (1.0f - d * d) + 0.05f + 0.01f * i + 0.02f * rng.uniform();
        kernelSum += h_Kernel[i];
    }
    for (int i = 0; i < KERNEL_LENGTH; i++) h_Kernel[i] /= kernelSum;
    for (int i = 0; i < imageW * imageH; i++) h_Input[i] = (float)rng.below(16);

    std::printf("Allocating and initializing CUDA arrays...\n");
    checkCudaErrors(cudaMalloc((void**)&d_Input, imageW * imageH * sizeof(float)));
    checkCudaErrors(cudaMalloc((void**)&d_Output, imageW * imageH * sizeof(float)));
    checkCudaErrors(cudaMalloc((void**)&d_Buffer, imageW * imageH * sizeof(float)));

    setConvolutionKernel(h_Kernel);
    checkCudaErrors(cudaMemcpy(d_Input, h_Input, imageW * imageH * sizeof(float), cudaMemcpyHostToDevice));

    // the symbol round trip: read the constant bank back and look at its size
    float h_KernelBack[KERNEL_LENGTH];
    size_t symbolSize = 0;
    checkCudaErrors(cudaGetSymbolSize(&symbolSize, c_Kernel));
    checkCudaErrors(cudaMemcpyFromSymbol(h_KernelBack, c_Kernel, KERNEL_LENGTH * sizeof(float)));
    bool symbolOk = (symbolSize == KERNEL_LENGTH * sizeof(float));
    for (int i = 0; i < KERNEL_LENGTH; i++) symbolOk = symbolOk && (h_KernelBack[i] == h_Kernel[i]);
    std::printf("c_Kernel symbol size %zu bytes, read back intact: %s\n", symbolSize, symbolOk ? "yes" : "no");

    std::printf("Running GPU convolution...\n");
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaEventRecord(start));
    convolutionRowsGPU(d_Buffer, d_Input, imageW, imageH);
    convolutionColumnsGPU(d_Output, d_Buffer, imageW, imageH);
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    std::fprintf(stderr, "convolutionSeparable, Throughput = %.4f MPixels/sec, Time = %.5f s, Size = %u Pixels\n",
                 (double)(imageW * imageH) * 1.0e-6 / (ms * 1.0e-3 > 0 ? ms * 1.0e-3 : 1.0), ms * 1.0e-3,
                 imageW * imageH);

    std::printf("Reading back GPU results...\n");
    checkCudaErrors(cudaMemcpy(h_OutputGPU, d_Output, imageW * imageH * sizeof(float), cudaMemcpyDeviceToHost));

    std::printf("Checking the results...\n");
    convolutionRowCPU(h_Buffer, h_Input, h_Kernel, imageW, imageH, KERNEL_RADIUS);
    convolutionColumnCPU(h_OutputCPU, h_Buffer, h_Kernel, imageW, imageH, KERNEL_RADIUS);

    double sum = 0, delta = 0;
    for (unsigned i = 0; i < (unsigned)(imageW * imageH); i++) {
        delta += (h_OutputGPU[i] - h_OutputCPU[i]) * (h_OutputGPU[i] - h_OutputCPU[i]);
        sum += h_OutputCPU[i] * h_OutputCPU[i];
    }
    double L2norm = std::sqrt(delta / sum);
    std::fprintf(stderr, " ...Relative L2 norm: %E\n", L2norm);
    bool l2ok = L2norm < 1e-6;
    std::printf(" ...Relative L2 norm below 1e-6: %s\n", l2ok ? "yes" : "no");

    // the borders are where the zero-padded aprons matter: check them pointwise as well
    double maxBorderErr = 0;
    for (int y = 0; y < imageH; y++)
        for (int x = 0; x < imageW; x++) {
            if (x >= KERNEL_RADIUS && x < imageW - KERNEL_RADIUS && y >= KERNEL_RADIUS && y < imageH - KERNEL_RADIUS)
                continue;
            double e = std::fabs((double)h_OutputGPU[y * imageW + x] - (double)h_OutputCPU[y * imageW + x]);
            if (!(e <= maxBorderErr)) maxBorderErr = e;
        }
    bool borderOk = maxBorderErr < 1e-4;
    std::printf(" ...border pixels within 1e-4: %s\n", borderOk ? "yes" : "no");

    std::printf("Shutting down...\n");
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_Buffer));
    checkCudaErrors(cudaFree(d_Output));
    checkCudaErrors(cudaFree(d_Input));
    free(h_OutputGPU);
    free(h_OutputCPU);
    free(h_Buffer);
    free(h_Input);
    free(h_Kernel);

    bool ok = symbolOk && l2ok && borderOk;
    std::printf("\nconv_separable: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
