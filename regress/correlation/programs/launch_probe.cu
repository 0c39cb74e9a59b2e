// Launch overhead, block dispatch rate and barrier cost, measured as whole kernels: empty kernels
// from one block to 132,000, full-occupancy grids of 1024-thread blocks, and a barrier loop. On
// the chip the shortest kernel already takes a few thousand cycles (the front end, the grid's
// setup and its completion); these kernels measure that fixed cost and the cost per block, which
// every short kernel of the corpus pays. Each shape is its own template instance, so that the
// correlator (regress/tools/correlate.py) sees one kernel per shape.
#include <cstdio>
#include <cuda_runtime.h>

template <int Shape>
__global__ void empty_kernel() {}

// One store per block, so that the blocks are not all identical no-ops to the compiler.
template <int Shape>
__global__ void store_kernel(unsigned* out) {
    if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x;
}

template <int Rounds>
__global__ void barrier_kernel(unsigned* out) {
    __shared__ unsigned s[1024];
    unsigned v = threadIdx.x;
    for (int r = 0; r < Rounds; ++r) {
        s[threadIdx.x] = v;
        __syncthreads();
        v += s[(threadIdx.x + 1) % blockDim.x];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

static int check(const char* what) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("launch_probe: %s: %s\n", what, cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    unsigned* out = nullptr;
    const unsigned most_blocks = 100u * unsigned(sms);
    if (cudaMalloc(&out, most_blocks * sizeof(unsigned)) != cudaSuccess) return 1;
    int bad = 0;
    empty_kernel<0><<<1, 32>>>();
    bad |= check("one block");
    empty_kernel<1><<<sms, 32>>>();
    bad |= check("a block per SM");
    empty_kernel<2><<<10 * sms, 32>>>();
    bad |= check("10 blocks per SM");
    empty_kernel<3><<<100 * sms, 32>>>();
    bad |= check("100 blocks per SM");
    empty_kernel<4><<<16 * sms, 128>>>();
    bad |= check("16 blocks of 128 per SM");
    empty_kernel<5><<<2 * sms, 1024>>>();
    bad |= check("2 blocks of 1024 per SM");
    store_kernel<0><<<100 * sms, 32>>>(out);
    bad |= check("stores, 100 blocks per SM");
    store_kernel<1><<<8 * sms, 256>>>(out);
    bad |= check("stores, 8 blocks of 256 per SM");
    barrier_kernel<64><<<sms, 1024>>>(out);
    bad |= check("barriers, 1024 threads");
    barrier_kernel<65><<<sms, 64>>>(out);
    bad |= check("barriers, 64 threads");
    unsigned first[4] = {};
    cudaMemcpy(first, out, sizeof first, cudaMemcpyDeviceToHost);
    cudaFree(out);
    if (bad) return 1;
    std::printf("launch_probe: PASSED\n");
    return 0;
}
