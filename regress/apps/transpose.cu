// Matrix transpose of non-square matrices in the style of the CUDA samples' "transpose": a plain
// copy as the bandwidth baseline, a naive transpose, a coalesced one through a 32x32 shared tile
// and one through a padded tile (no bank conflicts), TILE_DIM 32 x BLOCK_ROWS 8 thread blocks.
// Exercises 2D grids, static 2D shared arrays, cudaEvent timing (stderr) and exact comparison.

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/cuda_helpers.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

// Each block copies/transposes one TILE_DIM x TILE_DIM tile; each thread handles
// TILE_DIM/BLOCK_ROWS elements of it. Matrices are stored row-major, idata is height x width,
// odata is width x height. Bounds checks let the sizes be any value.

__global__ void copySharedMem(float* odata, const float* idata, int width, int height) {
    __shared__ float tile[TILE_DIM * TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height) tile[(threadIdx.y + j) * TILE_DIM + threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height) odata[(y + j) * width + x] = tile[(threadIdx.y + j) * TILE_DIM + threadIdx.x];
}

__global__ void transposeNaive(float* odata, const float* idata, int width, int height) {
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + width * yIndex;
    int index_out = yIndex + height * xIndex;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        if (xIndex < width && yIndex + i < height) odata[index_out + i] = idata[index_in + i * width];
}

// Reads a tile with coalesced row loads, writes the transposed tile with coalesced row stores;
// the column reads from shared memory hit the same bank 32 times.
__global__ void transposeCoalesced(float* odata, const float* idata, int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        if (xIndex < width && yIndex + i < height) tile[threadIdx.y + i][threadIdx.x] = idata[(yIndex + i) * width + xIndex];
    __syncthreads();
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;   // column in the output (= row of the input)
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        if (xIndex < height && yIndex + i < width) odata[(yIndex + i) * height + xIndex] = tile[threadIdx.x][threadIdx.y + i];
}

// The same with one padding column so that a tile column spans all banks.
__global__ void transposeNoBankConflicts(float* odata, const float* idata, int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        if (xIndex < width && yIndex + i < height) tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        if (xIndex < height && yIndex + i < width) odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

void computeTransposeGold(float* gold, const float* idata, int width, int height) {
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) gold[(x * height) + y] = idata[(y * width) + x];
}

typedef void (*kernel_t)(float*, const float*, int, int);

struct KernelEntry {
    kernel_t kernel;
    const char* name;
    bool isCopy;
};

static bool compareData(const float* reference, const float* data, int n, int* firstBad) {
    for (int i = 0; i < n; ++i)
        if (std::memcmp(&reference[i], &data[i], sizeof(float)) != 0) {   // bitwise: a transpose moves bits
            *firstBad = i;
            return false;
        }
    return true;
}

static bool runSize(int size_x, int size_y) {
    std::printf("Matrix size: %dx%d (%dx%d tiles), tile %dx%d, block %dx%d\n", size_x, size_y,
                (size_x + TILE_DIM - 1) / TILE_DIM, (size_y + TILE_DIM - 1) / TILE_DIM, TILE_DIM, TILE_DIM, TILE_DIM,
                BLOCK_ROWS);
    dim3 grid((size_x + TILE_DIM - 1) / TILE_DIM, (size_y + TILE_DIM - 1) / TILE_DIM);
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    const int n = size_x * size_y;
    const size_t mem_size = sizeof(float) * n;

    float* h_idata = (float*)malloc(mem_size);
    float* h_odata = (float*)malloc(mem_size);
    float* transposeGold = (float*)malloc(mem_size);
    Lcg rng(1234 + size_x * 7 + size_y);
    for (int i = 0; i < n; ++i) h_idata[i] = (float)(rng.next() & 0xFFFFF) / 1024.0f - 512.0f;
    computeTransposeGold(transposeGold, h_idata, size_x, size_y);

    float *d_idata, *d_odata;
    checkCudaErrors(cudaMalloc((void**)&d_idata, mem_size));
    checkCudaErrors(cudaMalloc((void**)&d_odata, mem_size));
    checkCudaErrors(cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));

    const KernelEntry kernels[] = {
        {&copySharedMem, "shared memory copy", true},
        {&transposeNaive, "naive transpose", false},
        {&transposeCoalesced, "coalesced transpose", false},
        {&transposeNoBankConflicts, "optimized transpose", false},
    };
    bool success = true;
    for (const KernelEntry& k : kernels) {
        // poison the output so that a missing store is noticed
        checkCudaErrors(cudaMemset(d_odata, 0xFF, mem_size));
        checkCudaErrors(cudaEventRecord(start, 0));
        k.kernel<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
        getLastCudaError("kernel launch failure");
        checkCudaErrors(cudaEventRecord(stop, 0));
        checkCudaErrors(cudaEventSynchronize(stop));
        float kernelTime = 0.0f;
        checkCudaErrors(cudaEventElapsedTime(&kernelTime, start, stop));
        checkCudaErrors(cudaMemcpy(h_odata, d_odata, mem_size, cudaMemcpyDeviceToHost));

        int bad = -1;
        bool ok = compareData(k.isCopy ? h_idata : transposeGold, h_odata, n, &bad);
        double gbps = 2.0 * mem_size / 1.0e9 / (kernelTime > 0 ? kernelTime / 1000.0 : 1.0);
        std::fprintf(stderr, "transpose %-22s %dx%d: time %.4f ms, bandwidth %.2f GB/s\n", k.name, size_x, size_y, kernelTime,
                     gbps);
        if (ok) {
            std::printf("  %-22s: results match\n", k.name);
        } else {
            std::printf("  %-22s: *** mismatch at element %d ***\n", k.name, bad);
            success = false;
        }
    }

    // the transposes are involutions: transposing back must restore the input
    checkCudaErrors(cudaMemset(d_idata, 0, mem_size));
    transposeNoBankConflicts<<<dim3(grid.y, grid.x), threads>>>(d_idata, d_odata, size_y, size_x);
    getLastCudaError("transpose back failed");
    checkCudaErrors(cudaMemcpy(h_odata, d_idata, mem_size, cudaMemcpyDeviceToHost));
    int bad = -1;
    bool roundTrip = compareData(h_idata, h_odata, n, &bad);
    std::printf("  round trip restores the input: %s\n", roundTrip ? "yes" : "no");
    success = success && roundTrip;

    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_idata));
    checkCudaErrors(cudaFree(d_odata));
    free(h_idata);
    free(h_odata);
    free(transposeGold);
    return success;
}

int main(int argc, char** argv) {
    std::printf("transpose Starting...\n\n");
    int devID = findCudaDevice(argc, argv);
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, devID));
    std::fprintf(stderr, "> Device %d: \"%s\"\n> SM Capability %d.%d detected:\n", devID, deviceProp.name,
                 deviceProp.major, deviceProp.minor);

    bool ok = runSize(384, 256);   // multiples of the tile, wider than tall
    ok = runSize(200, 72) && ok;   // ragged edges in both dimensions, taller tiles cut off

    std::printf("\ntranspose: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
