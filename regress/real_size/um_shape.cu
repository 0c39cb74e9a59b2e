// um_shape: a matrix product over several kinds of memory, in the shape of NVIDIA's
// UnifiedMemoryPerf sample: square matrices of 32 to 2048 (`--small`: 32 to 64), each size and
// kind timed over 20 products: managed memory touched by the host between products, managed with
// a prefetch to the device, zero-copy mapped host memory, and device memory fed from pageable,
// pinned, and pinned asynchronous copies. Each product is checked on a sample of elements.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../apps/common/cuda_helpers.h"

constexpr int kTile = 16, kRuns = 20;

__global__ void matmul(float* c, const float* a, const float* b, int n) {
    __shared__ float as[kTile][kTile], bs[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
    float sum = 0;
    for (int t = 0; t < n; t += kTile) {
        as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < kTile; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

static void fill(float* m, int n, unsigned seed) {
    for (int i = 0; i < n * n; ++i) m[i] = float((seed = seed * 1664525u + 1013904223u) >> 20) / 4096.0f - 0.5f;
}

// A sample of the product's elements against the host's, in double precision.
static bool check(const float* c, const float* a, const float* b, int n) {
    for (int s = 0; s < 64; ++s) {
        const int i = (s * 7919) % n, j = (s * 104729) % n;
        double ref = 0;
        for (int k = 0; k < n; ++k) ref += double(a[i * n + k]) * b[k * n + j];
        if (std::fabs(c[i * n + j] - ref) > 1e-3 * (1 + std::fabs(ref))) return false;
    }
    return true;
}

int main(int argc, char** argv) {
    const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
    const int largest = small ? 64 : 2048;
    const char* kinds[] = {"managed", "managed, prefetched", "zero-copy", "device, pageable copies", "device, pinned copies",
                           "device, pinned async copies"};
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreate(&stream));
    bool all = true;
    std::printf("um_shape: matrices of 32 to %d, %d products per size and kind\n", largest, kRuns);
    for (int n = 32; n <= largest; n *= 2) {
        const size_t bytes = size_t(n) * n * sizeof(float);
        const dim3 block(kTile, kTile), grid(n / kTile, n / kTile);
        for (int kind = 0; kind < 6; ++kind) {
            float *a, *b, *c;         // what the host reads and writes
            float *da, *db, *dc;      // what the kernel reads and writes
            if (kind <= 1) {
                checkCudaErrors(cudaMallocManaged(&a, bytes));
                checkCudaErrors(cudaMallocManaged(&b, bytes));
                checkCudaErrors(cudaMallocManaged(&c, bytes));
                da = a, db = b, dc = c;
            } else if (kind == 2) {
                checkCudaErrors(cudaHostAlloc(&a, bytes, cudaHostAllocMapped));
                checkCudaErrors(cudaHostAlloc(&b, bytes, cudaHostAllocMapped));
                checkCudaErrors(cudaHostAlloc(&c, bytes, cudaHostAllocMapped));
                checkCudaErrors(cudaHostGetDevicePointer(&da, a, 0));
                checkCudaErrors(cudaHostGetDevicePointer(&db, b, 0));
                checkCudaErrors(cudaHostGetDevicePointer(&dc, c, 0));
            } else {
                if (kind == 3) {
                    a = static_cast<float*>(std::malloc(bytes));
                    b = static_cast<float*>(std::malloc(bytes));
                    c = static_cast<float*>(std::malloc(bytes));
                } else {
                    checkCudaErrors(cudaMallocHost(&a, bytes));
                    checkCudaErrors(cudaMallocHost(&b, bytes));
                    checkCudaErrors(cudaMallocHost(&c, bytes));
                }
                checkCudaErrors(cudaMalloc(&da, bytes));
                checkCudaErrors(cudaMalloc(&db, bytes));
                checkCudaErrors(cudaMalloc(&dc, bytes));
            }
            bool ok = true;
            for (int run = 0; run < kRuns; ++run) {
                fill(a, n, 11u + run);
                fill(b, n, 97u + run);
                if (kind == 1) {
                    cudaMemLocation device{};
                    device.type = cudaMemLocationTypeDevice;
                    device.id = 0;
                    checkCudaErrors(cudaMemPrefetchAsync(a, bytes, device, 0, stream));
                    checkCudaErrors(cudaMemPrefetchAsync(b, bytes, device, 0, stream));
                }
                if (kind == 3 || kind == 4) {
                    checkCudaErrors(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
                    checkCudaErrors(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
                } else if (kind == 5) {
                    checkCudaErrors(cudaMemcpyAsync(da, a, bytes, cudaMemcpyHostToDevice, stream));
                    checkCudaErrors(cudaMemcpyAsync(db, b, bytes, cudaMemcpyHostToDevice, stream));
                }
                matmul<<<grid, block, 0, stream>>>(dc, da, db, n);
                if (kind >= 3) checkCudaErrors(cudaMemcpyAsync(c, dc, bytes, cudaMemcpyDeviceToHost, stream));
                checkCudaErrors(cudaStreamSynchronize(stream));
                if (run == 0 || run == kRuns - 1) ok &= check(c, a, b, n);
            }
            checkCudaErrors(cudaGetLastError());
            all &= ok;
            std::printf("%4d x %-4d %-28s %s\n", n, n, kinds[kind], ok ? "ok" : "WRONG");
            if (kind <= 1) {
                checkCudaErrors(cudaFree(a));
                checkCudaErrors(cudaFree(b));
                checkCudaErrors(cudaFree(c));
            } else if (kind == 2 || kind >= 4) {
                checkCudaErrors(cudaFreeHost(a));
                checkCudaErrors(cudaFreeHost(b));
                checkCudaErrors(cudaFreeHost(c));
            } else {
                std::free(a);
                std::free(b);
                std::free(c);
            }
            if (kind >= 3) {
                checkCudaErrors(cudaFree(da));
                checkCudaErrors(cudaFree(db));
                checkCudaErrors(cudaFree(dc));
            }
        }
    }
    checkCudaErrors(cudaStreamDestroy(stream));
    std::printf("%s\n", all ? "Test passed" : "Test failed");
    return all ? 0 : 1;
}
