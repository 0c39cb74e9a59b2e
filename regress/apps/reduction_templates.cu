// Parallel sum reduction through seven kernels of increasing optimization, in the style of the
// CUDA samples' "reduction": interleaved/sequential addressing, first add during load, volatile
// warp unrolling, cooperative_groups tile shuffles, and a templated reduce6<blockSize, nIsPow2>
// picked by a switch over block sizes at launch. Exercises extern shared memory typed through a
// template, __syncthreads/__syncwarp, shfl_down via thread_block_tile<32>, int and float sums.

#include <cooperative_groups.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "common/cuda_helpers.h"

namespace cg = cooperative_groups;

// Dynamic shared memory has to be declared once per type or nvcc complains about conflicting
// declarations, so route every type through one untyped array.
template <class T>
struct SharedMemory {
    __device__ inline operator T*() {
        extern __shared__ int __smem[];
        return reinterpret_cast<T*>(__smem);
    }
    __device__ inline operator const T*() const {
        extern __shared__ int __smem[];
        return reinterpret_cast<T*>(__smem);
    }
};

template <>
struct SharedMemory<double> {
    __device__ inline operator double*() {
        extern __shared__ double __smem_d[];
        return __smem_d;
    }
    __device__ inline operator const double*() const {
        extern __shared__ double __smem_d[];
        return __smem_d;
    }
};

static bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

static unsigned int nextPow2(unsigned int x) {
    --x;
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return ++x;
}

// reduce0: interleaved addressing with a divergent modulo test.
template <class T>
__global__ void reduce0(const T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce1: interleaved addressing, contiguous threads (shared memory bank conflicts).
template <class T>
__global__ void reduce1(const T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce2: sequential addressing.
template <class T>
__global__ void reduce2(const T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce3: each thread adds two elements while loading; half as many blocks.
template <class T>
__global__ void reduce3(const T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

// reduce4: the last warp unrolled through volatile shared memory (needs blockDim.x >= 64). Each
// step reads its partner, then writes, with __syncwarp() in between: since Volta the lanes of a warp
// are not guaranteed to run in lockstep, so the classic "sdata[tid] += sdata[tid + 16]" would race.
template <class T>
__device__ void warpReduceVolatile(volatile T* sdata, unsigned int tid) {
    T v = sdata[tid];
    v += sdata[tid + 32];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + 16];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + 8];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + 4];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + 2];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + 1];
    __syncwarp();
    sdata[tid] = v;
}

template <class T>
__global__ void reduce4(const T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) warpReduceVolatile<T>(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce5: block size known at compile time, tree fully unrolled, final warp with shuffles.
template <class T, unsigned int blockSize>
__global__ void reduce5(const T* g_idata, T* g_odata, unsigned int n) {
    cg::thread_block cta = cg::this_thread_block();
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    cg::sync(cta);

    if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
    cg::sync(cta);
    if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
    cg::sync(cta);
    if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
    cg::sync(cta);

    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32) {
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = tile32.size() / 2; offset > 0; offset /= 2) mySum += tile32.shfl_down(mySum, offset);
    }
    if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}

// reduce6: as reduce5, plus a grid-stride loop so that each thread sums many elements. When n is a
// power of two (and so a multiple of 2*blockSize) the loop can skip the second bounds check.
template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T* g_idata, T* g_odata, unsigned int n) {
    cg::thread_block cta = cg::this_thread_block();
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockSize * gridDim.x;
    T mySum = 0;

    if (nIsPow2) {
        unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
        gridSize = gridSize << 1;
        while (i < n) {
            mySum += g_idata[i];
            if ((i + blockSize) < n) mySum += g_idata[i + blockSize];
            i += gridSize;
        }
    } else {
        unsigned int i = blockIdx.x * blockSize + threadIdx.x;
        while (i < n) {
            mySum += g_idata[i];
            i += gridSize;
        }
    }

    sdata[tid] = mySum;
    cg::sync(cta);
    if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
    cg::sync(cta);
    if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
    cg::sync(cta);
    if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
    cg::sync(cta);

    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32) {
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = tile32.size() / 2; offset > 0; offset /= 2) mySum += tile32.shfl_down(mySum, offset);
    }
    if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}

// Host-side dispatch: the kernel number and block size are runtime values, the template
// parameters are not, so every combination is instantiated behind a switch.
template <class T, bool nIsPow2>
static void launchReduce6(int threads, dim3 grid, dim3 block, int smem, const T* d_in, T* d_out, unsigned int n) {
    switch (threads) {
        case 512: reduce6<T, 512, nIsPow2><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 256: reduce6<T, 256, nIsPow2><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 128: reduce6<T, 128, nIsPow2><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 64: reduce6<T, 64, nIsPow2><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 32: reduce6<T, 32, nIsPow2><<<grid, block, smem>>>(d_in, d_out, n); break;
        default: std::fprintf(stderr, "reduce6: unsupported block size %d\n", threads); std::exit(EXIT_FAILURE);
    }
}

template <class T>
static void reduce(int whichKernel, int threads, int blocks, unsigned int n, const T* d_in, T* d_out) {
    dim3 block(threads, 1, 1);
    dim3 grid(blocks, 1, 1);
    // a warp-sized block reads past its end in the unrolled code, so give it twice the space
    int smem = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);

    switch (whichKernel) {
        case 0: reduce0<T><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 1: reduce1<T><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 2: reduce2<T><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 3: reduce3<T><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 4: reduce4<T><<<grid, block, smem>>>(d_in, d_out, n); break;
        case 5:
            switch (threads) {
                case 512: reduce5<T, 512><<<grid, block, smem>>>(d_in, d_out, n); break;
                case 256: reduce5<T, 256><<<grid, block, smem>>>(d_in, d_out, n); break;
                case 128: reduce5<T, 128><<<grid, block, smem>>>(d_in, d_out, n); break;
                case 64: reduce5<T, 64><<<grid, block, smem>>>(d_in, d_out, n); break;
                case 32: reduce5<T, 32><<<grid, block, smem>>>(d_in, d_out, n); break;
                default: std::fprintf(stderr, "reduce5: unsupported block size %d\n", threads); std::exit(EXIT_FAILURE);
            }
            break;
        case 6:
        default:
            if (isPow2(n)) launchReduce6<T, true>(threads, grid, block, smem, d_in, d_out, n);
            else launchReduce6<T, false>(threads, grid, block, smem, d_in, d_out, n);
            break;
    }
}

// Threads and blocks for a kernel, following the samples' rules: kernels 0-2 use one element per
// thread, 3+ read two per thread, 6 is capped at maxBlocks and loops.
static void getNumBlocksAndThreads(int whichKernel, int n, int maxBlocks, int maxThreads, int& blocks, int& threads) {
    if (whichKernel < 3) {
        threads = (n < maxThreads) ? (int)nextPow2(n) : maxThreads;
    } else {
        threads = (n < maxThreads * 2) ? (int)nextPow2((n + 1) / 2) : maxThreads;
    }
    // the volatile warp code of reduce4 reads 32 elements ahead; reduce5/6 reduce whole warps
    if (whichKernel == 4 && threads < 64) threads = 64;
    if (whichKernel >= 5 && threads < 32) threads = 32;
    if (whichKernel < 3) blocks = (n + threads - 1) / threads;
    else blocks = (n + (threads * 2 - 1)) / (threads * 2);
    if (whichKernel == 6 && blocks > maxBlocks) blocks = maxBlocks;
}

// Runs one kernel over the input; the partial sums are reduced again on the GPU with the same
// kernel until one block remains (the samples' "GPU final reduction" path).
template <class T>
static T benchmarkReduce(int n, int numThreads, int numBlocks, int maxThreads, int maxBlocks, int whichKernel,
                         T* d_idata, T* d_odata, T* h_odata) {
    reduce<T>(whichKernel, numThreads, numBlocks, n, d_idata, d_odata);
    getLastCudaError("reduction kernel failed");
    int s = numBlocks;
    while (s > 1) {
        int threads = 0, blocks = 0;
        getNumBlocksAndThreads(whichKernel, s, maxBlocks, maxThreads, blocks, threads);
        checkCudaErrors(cudaMemcpy(d_idata, d_odata, s * sizeof(T), cudaMemcpyDeviceToDevice));
        reduce<T>(whichKernel, threads, blocks, s, d_idata, d_odata);
        getLastCudaError("reduction kernel (final pass) failed");
        s = blocks;
    }
    checkCudaErrors(cudaDeviceSynchronize());
    T gpu_result;
    checkCudaErrors(cudaMemcpy(h_odata, d_odata, sizeof(T), cudaMemcpyDeviceToHost));
    gpu_result = h_odata[0];
    return gpu_result;
}

template <class T>
static T reduceCPU(const T* data, int size) {
    // Kahan summation for floats; exact for ints either way
    T sum = data[0];
    T c = (T)0;
    for (int i = 1; i < size; i++) {
        T y = data[i] - c;
        T t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

template <class T>
static bool runTest(const char* typeName, int size, int maxThreads, int maxBlocks, int firstKernel, int lastKernel) {
    unsigned int bytes = size * sizeof(T);
    T* h_idata = (T*)malloc(bytes);
    Lcg rng(0x5eed0000u + size);
    for (int i = 0; i < size; i++) {
        if (std::is_floating_point<T>::value) h_idata[i] = (T)(rng.uniform() * 2.0f);
        else h_idata[i] = (T)(rng.next() & 0xFF);
    }

    T* d_idata = NULL;
    T* d_odata = NULL;
    int numBlocks = 0, numThreads = 0;
    getNumBlocksAndThreads(6, size, maxBlocks, maxThreads, numBlocks, numThreads);
    int maxPartials = (size + 63) / 64 + 1;   // enough for every kernel's first pass
    T* h_odata = (T*)malloc(maxPartials * sizeof(T));
    checkCudaErrors(cudaMalloc((void**)&d_idata, bytes));
    checkCudaErrors(cudaMalloc((void**)&d_odata, maxPartials * sizeof(T)));

    T cpu_result = reduceCPU<T>(h_idata, size);
    bool allOk = true;
    for (int k = firstKernel; k <= lastKernel; ++k) {
        checkCudaErrors(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));
        getNumBlocksAndThreads(k, size, maxBlocks, maxThreads, numBlocks, numThreads);
        std::fprintf(stderr, "  kernel %d: %d blocks of %d threads\n", k, numBlocks, numThreads);
        T gpu_result = benchmarkReduce<T>(size, numThreads, numBlocks, maxThreads, maxBlocks, k, d_idata, d_odata, h_odata);
        bool ok;
        if (std::is_floating_point<T>::value) {
            double diff = std::fabs((double)gpu_result - (double)cpu_result);
            double rel = diff / std::fabs((double)cpu_result);
            std::fprintf(stderr, "  GPU %.8f CPU %.8f rel %.3e\n", (double)gpu_result, (double)cpu_result, rel);
            ok = rel < 1e-5;
            std::printf("%s n=%d threads=%d reduce%d: relative error below 1e-5: %s\n", typeName, size, maxThreads, k,
                        ok ? "yes" : "no");
        } else {
            ok = (gpu_result == cpu_result);
            std::printf("%s n=%d threads=%d reduce%d: GPU sum %lld, CPU sum %lld %s\n", typeName, size, maxThreads, k,
                        (long long)gpu_result, (long long)cpu_result, ok ? "(match)" : "(MISMATCH)");
        }
        allOk = allOk && ok;
    }

    free(h_idata);
    free(h_odata);
    checkCudaErrors(cudaFree(d_idata));
    checkCudaErrors(cudaFree(d_odata));
    return allOk;
}

int main(int argc, char** argv) {
    std::printf("reduction_templates Starting...\n\n");
    int dev = findCudaDevice(argc, argv);
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, dev));
    std::fprintf(stderr, "Using Device %d: %s (%d SMs)\n", dev, deviceProp.name, deviceProp.multiProcessorCount);

    bool ok = true;
    const int maxBlocks = 16;
    // every kernel on a power-of-two int array, 256-thread blocks
    ok &= runTest<int>("int", 1 << 13, 256, maxBlocks, 0, 6);
    // the non-power-of-two paths of kernels 3-6 with other block sizes
    ok &= runTest<int>("int", 10007, 128, maxBlocks, 3, 6);
    ok &= runTest<int>("int", 3001, 64, maxBlocks, 6, 6);
    ok &= runTest<int>("int", 777, 32, 4, 6, 6);
    // floats through the last three kernels
    ok &= runTest<float>("float", 1 << 13, 256, maxBlocks, 4, 6);
    ok &= runTest<float>("float", 5000, 512, maxBlocks, 6, 6);

    std::printf("\nreduction_templates: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
