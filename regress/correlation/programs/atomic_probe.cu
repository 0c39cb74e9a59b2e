// Atomic throughput and latency on global memory, as whole kernels: how the cost of an atomicAdd
// depends on what the lanes' addresses share. Every kernel but the last issues reductions whose
// results are unused (RED on the chip), from 2 blocks of 256 threads per SM, 8 per thread:
//   red_one_address    every lane of every warp on one word: the chip's one-address rate
//   red_sector_8       8 words of one 32-byte sector, 4 lanes of each warp on each
//   red_lines_8        8 words in 8 different 128-byte lines, 4 lanes of each warp on each
//   red_warp_address   one word per warp, in a line of its own: 32 lanes on one address
//   red_warp_line      one line per warp, a word per lane: 32 addresses of 4 sectors
//   red_scatter        a line per lane, new lines every round: no contention at all
//   atom_chain         one warp, each atomic's address depending on the last one's result: latency
// The correlator sees one kernel per shape; the counts are checked on the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int kRounds = 8;
constexpr int kBlock = 256;
constexpr int kChainRounds = 512;

__device__ __forceinline__ unsigned global_warp() { return (blockIdx.x * blockDim.x + threadIdx.x) / 32; }
__device__ __forceinline__ unsigned lane() { return threadIdx.x % 32; }

__global__ void red_one_address(unsigned* x) {
    for (int r = 0; r < kRounds; ++r) atomicAdd(&x[0], 1u);
}

__global__ void red_sector_8(unsigned* x) {
    for (int r = 0; r < kRounds; ++r) atomicAdd(&x[lane() % 8], 1u);
}

__global__ void red_lines_8(unsigned* x) {
    for (int r = 0; r < kRounds; ++r) atomicAdd(&x[(lane() % 8) * 32], 1u);
}

__global__ void red_warp_address(unsigned* x) {
    for (int r = 0; r < kRounds; ++r) atomicAdd(&x[global_warp() * 32], 1u);
}

__global__ void red_warp_line(unsigned* x) {
    for (int r = 0; r < kRounds; ++r) atomicAdd(&x[global_warp() * 32 + lane()], 1u);
}

__global__ void red_scatter(unsigned* x) {
    const unsigned threads = gridDim.x * blockDim.x;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < kRounds; ++r) atomicAdd(&x[(size_t(r) * threads + t) * 32], 1u);
}

// x holds zeros: every result is the count so far, whose top bit is clear, so the next address
// is the same word; the compiler cannot know it.
__global__ void atom_chain(unsigned* x, unsigned* out) {
    unsigned v = 0;
    for (int r = 0; r < kChainRounds; ++r) v = atomicAdd(&x[lane() * 32 + (v >> 31)], 1u);
    out[lane()] = v;
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const unsigned blocks = 2u * unsigned(sms);
    const unsigned threads = blocks * kBlock;
    const size_t words = size_t(threads) * kRounds * 32;   // red_scatter's reach, the largest
    unsigned *x = nullptr, *out = nullptr;
    if (cudaMalloc(&x, words * sizeof(unsigned)) != cudaSuccess || cudaMalloc(&out, 32 * sizeof(unsigned)) != cudaSuccess) {
        std::printf("atomic_probe: cudaMalloc failed\n");
        return 1;
    }
    std::vector<unsigned> host(words);
    int bad = 0;
    auto check = [&](const char* name, unsigned long long want) {
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaMemcpy(host.data(), x, words * sizeof(unsigned), cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            std::printf("atomic_probe: %s: %s\n", name, cudaGetErrorString(e));
            bad = 1;
            return;
        }
        unsigned long long sum = 0;
        for (unsigned v : host) sum += v;
        if (sum != want) {
            std::printf("atomic_probe: %s counted %llu, expected %llu\n", name, sum, want);
            bad = 1;
        }
        cudaMemset(x, 0, words * sizeof(unsigned));
    };
    const unsigned long long ops = 1ull * threads * kRounds;
    cudaMemset(x, 0, words * sizeof(unsigned));
    red_one_address<<<blocks, kBlock>>>(x);
    check("red_one_address", ops);
    red_sector_8<<<blocks, kBlock>>>(x);
    check("red_sector_8", ops);
    red_lines_8<<<blocks, kBlock>>>(x);
    check("red_lines_8", ops);
    red_warp_address<<<blocks, kBlock>>>(x);
    check("red_warp_address", ops);
    red_warp_line<<<blocks, kBlock>>>(x);
    check("red_warp_line", ops);
    red_scatter<<<blocks, kBlock>>>(x);
    check("red_scatter", ops);
    atom_chain<<<1, 32>>>(x, out);
    check("atom_chain", 32ull * kChainRounds);
    std::printf(bad ? "atomic_probe: FAILED\n" : "atomic_probe: PASSED\n");
    cudaFree(x);
    cudaFree(out);
    return bad;
}
