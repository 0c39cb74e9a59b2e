// The L2's bandwidth, as whole kernels: a 16 MiB array (a third of the 50 MB L2) read, written and
// copied 4 times over by 8 blocks of 256 threads per SM. Each kernel runs twice: the first launch
// finds the array in device memory (or as the kernel before left it), the second in the L2, since
// the caches are kept between launches.
//   l2_read<R>    sums the array (16-byte loads), one result per thread
//   l2_write<R>   fills it (16-byte stores)
//   l2_copy<R>    copies one 8 MiB half onto the other
// The results are checked on the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr size_t kWords = size_t(16) << 20 >> 2;   // 16 MiB of unsigned
constexpr int kPasses = 4;
constexpr int kBlock = 256;

template <int R>
__global__ void l2_read(const uint4* a, unsigned* out) {
    const size_t n = kWords / 4, stride = size_t(gridDim.x) * blockDim.x;
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
            const uint4 v = a[i];
            acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
        }
    out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = acc.x ^ acc.y ^ acc.z ^ acc.w;
}

template <int R>
__global__ void l2_write(uint4* a, unsigned seed) {
    const size_t n = kWords / 4, stride = size_t(gridDim.x) * blockDim.x;
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
            const unsigned v = unsigned(i) * 4u + seed + unsigned(p);
            a[i] = make_uint4(v, v + 1, v + 2, v + 3);
        }
}

template <int R>
__global__ void l2_copy(uint4* a) {
    const size_t half = kWords / 8, stride = size_t(gridDim.x) * blockDim.x;
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < half; i += stride) a[half + i] = a[i];
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const unsigned blocks = 8u * unsigned(sms), threads = blocks * kBlock;
    std::vector<unsigned> host(kWords);
    for (size_t i = 0; i < kWords; ++i) host[i] = unsigned(i * 2654435761u);
    uint4* a = nullptr;
    unsigned* out = nullptr;
    if (cudaMalloc(&a, kWords * 4) != cudaSuccess || cudaMalloc(&out, size_t(threads) * 4) != cudaSuccess) return 1;
    cudaMemcpy(a, host.data(), kWords * 4, cudaMemcpyHostToDevice);
    l2_read<0><<<blocks, kBlock>>>(a, out);
    l2_read<1><<<blocks, kBlock>>>(a, out);
    std::vector<unsigned> sums(threads);
    cudaMemcpy(sums.data(), out, size_t(threads) * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned t = 0; t < threads; t += 4099) {
        unsigned acc[4] = {0, 0, 0, 0};
        for (int p = 0; p < kPasses; ++p)
            for (size_t i = t; i < kWords / 4; i += threads)
                for (int k = 0; k < 4; ++k) acc[k] += host[i * 4 + k];
        if (sums[t] != (acc[0] ^ acc[1] ^ acc[2] ^ acc[3])) {
            std::printf("l2_probe: l2_read: thread %u summed %u\n", t, sums[t]);
            bad = 1;
            break;
        }
    }
    l2_write<0><<<blocks, kBlock>>>(a, 11u);
    l2_write<1><<<blocks, kBlock>>>(a, 5u);
    l2_copy<0><<<blocks, kBlock>>>(a);
    l2_copy<1><<<blocks, kBlock>>>(a);
    cudaMemcpy(host.data(), a, kWords * 4, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < kWords / 2 && !bad; i += 1021) {
        const unsigned want = unsigned(i / 4) * 4u + 5u + unsigned(kPasses - 1) + unsigned(i % 4);
        if (host[i] != want || host[kWords / 2 + i] != want) {
            std::printf("l2_probe: word %zu holds %u and %u, expected %u\n", i, host[i], host[kWords / 2 + i], want);
            bad = 1;
        }
    }
    std::printf(bad ? "l2_probe: FAILED\n" : "l2_probe: PASSED\n");
    cudaFree(a);
    cudaFree(out);
    return bad;
}
