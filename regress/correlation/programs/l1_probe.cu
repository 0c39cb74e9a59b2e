// The L1's throughput for loads that hit, by how many 32-byte sectors and 128-byte lines a warp's
// load touches: each block reads a 32 KB window of its own over and over (it stays in the L1 after
// the first pass), 8 warps a block, 2 blocks an SM, 8 independent loads a round. A lane reads the
// word `lane * Stride` of a row, so a warp touches
//   l1_stride<1>    4 sectors of 1 line       l1_stride<8>    32 sectors of 8 lines
//   l1_stride<2>    8 sectors of 2 lines      l1_stride<32>   32 sectors of 32 lines
//   l1_stride<4>   16 sectors of 4 lines
// and l1_broadcast reads one word per warp (1 sector). The sums are checked on the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int kWindow = 8192;   // words a block reads (32 KB)
constexpr int kBlock = 256;
constexpr int kRounds = 64;
constexpr int kLoads = 8;       // independent loads a round

__device__ __forceinline__ unsigned word_of(int stride, int r, int k) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    // Rows of 32 * stride words; warp, round and load pick the row, the lane the word in it.
    const unsigned row = warp * 131u + unsigned(r) * 7u + unsigned(k) * 17u;
    return (row * 32u * unsigned(stride) + lane * unsigned(stride)) % kWindow;
}

template <int Stride>
__global__ void l1_stride(const unsigned* in, unsigned* out) {
    const unsigned* w = in + size_t(blockIdx.x) * kWindow;
    unsigned acc = 0;
    for (int r = 0; r < kRounds; ++r) {
#pragma unroll
        for (int k = 0; k < kLoads; ++k) acc += w[word_of(Stride, r, k)];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void l1_broadcast(const unsigned* in, unsigned* out) {
    const unsigned* w = in + size_t(blockIdx.x) * kWindow;
    unsigned acc = 0;
    for (int r = 0; r < kRounds; ++r) {
#pragma unroll
        for (int k = 0; k < kLoads; ++k) acc += w[word_of(32, r, k) - threadIdx.x % 32 * 32];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The host's sum for one thread, as the kernels compute it.
static unsigned expected(const std::vector<unsigned>& in, unsigned block, unsigned thread, int stride, bool broadcast) {
    const unsigned lane = thread % 32, warp = thread / 32;
    unsigned acc = 0;
    for (int r = 0; r < kRounds; ++r)
        for (int k = 0; k < kLoads; ++k) {
            const unsigned row = warp * 131u + unsigned(r) * 7u + unsigned(k) * 17u;
            unsigned word = (row * 32u * unsigned(stride) + lane * unsigned(stride)) % kWindow;
            if (broadcast) word -= lane * 32;
            acc += in[size_t(block) * kWindow + word];
        }
    return acc;
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const unsigned blocks = 2u * unsigned(sms), threads = blocks * kBlock;
    std::vector<unsigned> in(size_t(blocks) * kWindow), out(threads);
    for (size_t i = 0; i < in.size(); ++i) in[i] = unsigned(i * 2654435761u) >> 20;
    unsigned *d_in = nullptr, *d_out = nullptr;
    if (cudaMalloc(&d_in, in.size() * 4) != cudaSuccess || cudaMalloc(&d_out, threads * 4) != cudaSuccess) return 1;
    cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
    int bad = 0;
    auto check = [&](const char* name, int stride, bool broadcast) {
        cudaError_t e = cudaMemcpy(out.data(), d_out, threads * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            std::printf("l1_probe: %s: %s\n", name, cudaGetErrorString(e));
            bad = 1;
            return;
        }
        for (unsigned b = 0; b < blocks; b += 37)
            for (unsigned t = 0; t < kBlock; t += 13)
                if (out[b * kBlock + t] != expected(in, b, t, stride, broadcast)) {
                    std::printf("l1_probe: %s: block %u thread %u read %u, expected %u\n", name, b, t,
                                out[b * kBlock + t], expected(in, b, t, stride, broadcast));
                    bad = 1;
                    return;
                }
    };
    l1_stride<1><<<blocks, kBlock>>>(d_in, d_out);
    check("l1_stride<1>", 1, false);
    l1_stride<2><<<blocks, kBlock>>>(d_in, d_out);
    check("l1_stride<2>", 2, false);
    l1_stride<4><<<blocks, kBlock>>>(d_in, d_out);
    check("l1_stride<4>", 4, false);
    l1_stride<8><<<blocks, kBlock>>>(d_in, d_out);
    check("l1_stride<8>", 8, false);
    l1_stride<32><<<blocks, kBlock>>>(d_in, d_out);
    check("l1_stride<32>", 32, false);
    l1_broadcast<<<blocks, kBlock>>>(d_in, d_out);
    check("l1_broadcast", 32, true);
    std::printf(bad ? "l1_probe: FAILED\n" : "l1_probe: PASSED\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return bad;
}
