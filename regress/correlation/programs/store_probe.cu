// Stores' bandwidth, as whole kernels: whether what limits a stream of stores is each SM's path
// out or the L2's slices, and what a store costs by its bytes and by its sectors. Every kernel
// writes (or reads with ld.global.cg, past the L1) slices of a 16.5 MiB array that the L2 holds.
//   st_sms<S>     S blocks of 1024 threads (one an SM), each writing its 128 KiB slice 16 times in
//                 16-byte stores: the same work per SM, on 8 to 132 SMs
//   st_words<0>   132 blocks as st_sms<132>, in 4-byte stores (4 times the instructions)
//   st_half<0>    132 blocks writing the first half of each 32-byte sector (16-byte stores): the
//                 instructions of st_sms<132> with half its bytes
//   ld_sms<S>     S blocks reading their slices 16 times with ld.global.cg: the L2's read side
//   st_dram<0>    132 x 8 blocks of 256 threads writing 256 MiB once: stores that leave the L2
// Each kernel runs twice (the first launch may find lines elsewhere). The results are checked on
// the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kThreads = 1024;
constexpr size_t kSlice = 128 * 1024;               // bytes per block
constexpr size_t kSliceVec = kSlice / 16;           // uint4 per block
constexpr int kPasses = 16;
constexpr size_t kBig = size_t(256) << 20;          // st_dram's bytes

__device__ uint4 pattern(size_t i, unsigned p) {
    const unsigned v = unsigned(i) * 4u + p;
    return make_uint4(v, v + 1, v + 2, v + 3);
}

template <int S>
__global__ void st_sms(uint4* a) {
    uint4* slice = a + size_t(blockIdx.x) * kSliceVec;
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = threadIdx.x; i < kSliceVec; i += blockDim.x) slice[i] = pattern(size_t(blockIdx.x) * kSliceVec + i, unsigned(p));
}

template <int R>
__global__ void st_words(unsigned* a) {
    unsigned* slice = a + size_t(blockIdx.x) * (kSlice / 4);
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = threadIdx.x; i < kSlice / 4; i += blockDim.x) slice[i] = unsigned(size_t(blockIdx.x) * (kSlice / 4) + i) + unsigned(p);
}

template <int R>
__global__ void st_half(uint4* a) {
    uint4* slice = a + size_t(blockIdx.x) * kSliceVec;
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = threadIdx.x; i < kSliceVec / 2; i += blockDim.x) slice[2 * i] = pattern(size_t(blockIdx.x) * kSliceVec + 2 * i, 100u + unsigned(p));
}

template <int S>
__global__ void ld_sms(const uint4* a, unsigned* out) {
    const uint4* slice = a + size_t(blockIdx.x) * kSliceVec;
    unsigned acc = 0;
    for (int p = 0; p < kPasses; ++p)
        for (size_t i = threadIdx.x; i < kSliceVec; i += blockDim.x) {
            const uint4 v = __ldcg(slice + i);
            acc += v.x ^ v.y ^ v.z ^ v.w;
        }
    out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = acc;
}

template <int R>
__global__ void st_dram(uint4* a, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) a[i] = pattern(i, 7u);
}

static int bad = 0;

static void expect(const char* what, size_t index, unsigned got, unsigned want) {
    if (got != want && !bad) {
        std::printf("store_probe: %s: word %zu holds %u, expected %u\n", what, index, got, want);
        bad = 1;
    }
}

template <int S>
static void stores_on(uint4* a) {
    st_sms<S><<<S, kThreads>>>(a);
    st_sms<S><<<S, kThreads>>>(a);
}

template <int S>
static void loads_on(const uint4* a, unsigned* out) {
    ld_sms<S><<<S, kThreads>>>(a, out);
    ld_sms<S><<<S, kThreads>>>(a, out);
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const size_t blocks = size_t(sms), words = blocks * kSlice / 4;
    uint4 *a = nullptr, *big = nullptr;
    unsigned* out = nullptr;
    if (cudaMalloc(&a, blocks * kSlice) != cudaSuccess || cudaMalloc(&big, kBig) != cudaSuccess ||
        cudaMalloc(&out, blocks * kThreads * 4) != cudaSuccess) {
        std::printf("store_probe: cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(a, 0, blocks * kSlice);
    stores_on<8>(a);
    stores_on<33>(a);
    stores_on<66>(a);
    stores_on<132>(a);
    std::vector<unsigned> host(words);
    cudaMemcpy(host.data(), a, words * 4, cudaMemcpyDeviceToHost);
    // Blocks 0 to 131 wrote their slices last in st_sms<132> (the chip's 132 SMs; fewer on another
    // card leave the rest as st_sms<66> left them, which is not checked).
    for (size_t i = 0; i < std::min<size_t>(words, size_t(132) * kSlice / 4); i += 1009)
        expect("st_sms", i, host[i], unsigned(i / 4) * 4u + unsigned(kPasses - 1) + unsigned(i % 4));
    loads_on<8>(a, out);
    loads_on<132>(a, out);
    std::vector<unsigned> sums(blocks * kThreads);
    cudaMemcpy(sums.data(), out, sums.size() * 4, cudaMemcpyDeviceToHost);
    for (size_t t = 0; t < sums.size(); t += 997) {
        const size_t b = t / kThreads, th = t % kThreads;
        unsigned acc = 0;
        for (int p = 0; p < kPasses; ++p)
            for (size_t i = th; i < kSliceVec; i += kThreads) {
                const unsigned* v = &host[(b * kSliceVec + i) * 4];
                acc += v[0] ^ v[1] ^ v[2] ^ v[3];
            }
        expect("ld_sms", t, sums[t], acc);
    }
    st_words<0><<<unsigned(blocks), kThreads>>>(reinterpret_cast<unsigned*>(a));
    st_words<0><<<unsigned(blocks), kThreads>>>(reinterpret_cast<unsigned*>(a));
    st_half<0><<<unsigned(blocks), kThreads>>>(a);
    st_half<0><<<unsigned(blocks), kThreads>>>(a);
    cudaMemcpy(host.data(), a, words * 4, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < words; i += 1013) {
        // st_half rewrote the first 16 bytes of each 32; st_words left the rest.
        const bool first_half = (i / 4) % 2 == 0;
        const unsigned want = first_half ? unsigned(i / 4) * 4u + 100u + unsigned(kPasses - 1) + unsigned(i % 4) : unsigned(i) + unsigned(kPasses - 1);
        expect("st_words/st_half", i, host[i], want);
    }
    const unsigned dram_blocks = unsigned(blocks) * 8;
    st_dram<0><<<dram_blocks, 256>>>(big, kBig / 16);
    st_dram<0><<<dram_blocks, 256>>>(big, kBig / 16);
    std::vector<unsigned> tail(1024);
    cudaMemcpy(tail.data(), reinterpret_cast<const char*>(big) + kBig - 4096, 4096, cudaMemcpyDeviceToHost);
    for (size_t k = 0; k < tail.size(); k += 7) {
        const size_t i = (kBig - 4096) / 4 + k;
        expect("st_dram", i, tail[k], unsigned(i / 4) * 4u + 7u + unsigned(i % 4));
    }
    if (cudaDeviceSynchronize() != cudaSuccess) bad = 1;
    std::printf(bad ? "store_probe: FAILED\n" : "store_probe: PASSED\n");
    cudaFree(a);
    cudaFree(big);
    cudaFree(out);
    return bad;
}
