// Dynamic shared memory as modern C++ CUDA code uses it: one extern __shared__ byte array carved
// into several typed, aligned sub-arrays by a constexpr layout shared by host and device, launched
// with <<<>>> and with cudaLaunchKernelEx, and a kernel whose tile takes min(opt-in limit, 64 KiB)
// of dynamic shared memory after cudaFuncSetAttribute(MaxDynamicSharedMemorySize).
// cudaFuncGetAttributes / occupancy numbers are device-specific and go to stderr only.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#define CUDA_CHECK(expr)                                                                            \
    do {                                                                                            \
        cudaError_t err_ = (expr);                                                                  \
        if (err_ != cudaSuccess) {                                                                  \
            std::printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorString(err_)); \
            std::exit(EXIT_FAILURE);                                                                \
        }                                                                                           \
    } while (0)

template <typename T>
struct DevArray {
    T* p = nullptr;
    size_t n = 0;
    explicit DevArray(size_t count) : n(count) { CUDA_CHECK(cudaMalloc(&p, count * sizeof(T))); }
    DevArray(const DevArray&) = delete;
    DevArray& operator=(const DevArray&) = delete;
    ~DevArray() { cudaFree(p); }
    void put(const std::vector<T>& v) { CUDA_CHECK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice)); }
    std::vector<T> get() const {
        std::vector<T> v(n);
        CUDA_CHECK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
        return v;
    }
};

// ---------------------------------------------------------------------------------------------
// Layout of the carved shared memory: doubles first (8-byte aligned), then floats, the histogram,
// 16-bit flags and 8-bit tags, every section rounded up to 16 bytes.
// ---------------------------------------------------------------------------------------------
constexpr int kBins = 32;

__host__ __device__ constexpr size_t align16(size_t x) { return (x + 15) & ~size_t(15); }

struct SmemLayout {
    size_t sums, vals, hist, flags, tags, total;
    __host__ __device__ constexpr explicit SmemLayout(unsigned threads)
        : sums(0),
          vals(align16(sums + threads * sizeof(double))),
          hist(align16(vals + threads * sizeof(float))),
          flags(align16(hist + kBins * sizeof(int))),
          tags(align16(flags + threads * sizeof(unsigned short))),
          total(align16(tags + threads * sizeof(char))) {}
};

static_assert(SmemLayout(256).total == 2048 + 1024 + 128 + 512 + 256, "layout for 256 threads");

struct BlockSummary {
    double sum;          // sum of the block's values (integers, so exact in double)
    int oddCount;        // number of odd values
    int tagChecksum;     // sum of (tag * position)
    int hist[kBins];     // value % kBins histogram
};

__global__ void carved_kernel(const int* __restrict__ in, float* __restrict__ reversed, BlockSummary* summary, int n) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ int oddCount;   // static shared memory alongside the dynamic array

    const SmemLayout L(blockDim.x);
    double* sums = reinterpret_cast<double*>(smem + L.sums);
    float* vals = reinterpret_cast<float*>(smem + L.vals);
    int* hist = reinterpret_cast<int*>(smem + L.hist);
    unsigned short* flags = reinterpret_cast<unsigned short*>(smem + L.flags);
    char* tags = reinterpret_cast<char*>(smem + L.tags);

    const unsigned tid = threadIdx.x;
    const int gid = blockIdx.x * blockDim.x + tid;
    for (unsigned b = tid; b < kBins; b += blockDim.x) hist[b] = 0;
    if (tid == 0) oddCount = 0;
    __syncthreads();

    int v = gid < n ? in[gid] : 0;
    sums[tid] = static_cast<double>(v);
    vals[tid] = 0.5f * static_cast<float>(v);   // exact: |v| < 2^20
    flags[tid] = static_cast<unsigned short>(v & 1);
    tags[tid] = static_cast<char>('a' + (v % 26));
    if (gid < n) atomicAdd(&hist[v % kBins], 1);
    __syncthreads();

    // tree reduction of the doubles (blockDim.x is a power of two)
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sums[tid] += sums[tid + s];
        __syncthreads();
    }
    if (flags[tid] && gid < n) atomicAdd(&oddCount, 1);

    // reverse the block's floats through shared memory
    int src = blockDim.x - 1 - tid;
    int revIndex = blockIdx.x * blockDim.x + src;
    if (revIndex < n) reversed[revIndex] = vals[tid];
    __syncthreads();

    if (tid == 0) {
        BlockSummary& out = summary[blockIdx.x];
        out.sum = sums[0];
        out.oddCount = oddCount;
        int check = 0;
        for (unsigned t = 0; t < blockDim.x && blockIdx.x * blockDim.x + t < (unsigned)n; ++t) check += tags[t] * (int)t;
        out.tagChecksum = check;
    }
    for (unsigned b = tid; b < kBins; b += blockDim.x) summary[blockIdx.x].hist[b] = hist[b];
}

// ---------------------------------------------------------------------------------------------
// A kernel with one large dynamic tile: each block stages `chunk` ints, then every output reads
// two far-apart tile entries.
// ---------------------------------------------------------------------------------------------
__global__ void big_tile_kernel(const int* __restrict__ in, int* __restrict__ out, int n, int chunk) {
    extern __shared__ int tile[];
    const int base = blockIdx.x * chunk;
    const int count = min(chunk, n - base);
    for (int j = threadIdx.x; j < count; j += blockDim.x) tile[j] = in[base + j];
    __syncthreads();
    for (int j = threadIdx.x; j < count; j += blockDim.x) {
        int mirror = tile[count - 1 - j];
        int strided = tile[(int)((j * 7919ll) % count)];
        out[base + j] = mirror * 3 - strided;
    }
}

int main() {
    std::printf("dynamic_smem: carved and large dynamic shared memory\n");
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));

    int smemPerBlock = 0, optin = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&smemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    std::fprintf(stderr, "shared memory per block %d, opt-in %d\n", smemPerBlock, optin);

    bool allOk = true;
    uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&state]() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(state >> 44);   // 20 bits
    };

    // ---- carved layout, three block sizes, two launch APIs
    {
        const int n = 3000;
        std::vector<int> h_in(n);
        for (auto& v : h_in) v = next();
        DevArray<int> d_in(n);
        d_in.put(h_in);
        DevArray<float> d_rev(n);

        for (unsigned threads : {64u, 128u, 256u}) {
            const unsigned blocks = (n + threads - 1) / threads;
            const size_t smemBytes = SmemLayout(threads).total;
            DevArray<BlockSummary> d_sum(blocks);
            CUDA_CHECK(cudaMemset(d_rev.p, 0xFF, n * sizeof(float)));

            if (threads == 128) {
                cudaLaunchConfig_t cfg = {};
                cfg.gridDim = dim3(blocks);
                cfg.blockDim = dim3(threads);
                cfg.dynamicSmemBytes = smemBytes;
                cfg.stream = 0;
                CUDA_CHECK(cudaLaunchKernelEx(&cfg, carved_kernel, static_cast<const int*>(d_in.p), d_rev.p, d_sum.p, n));
            } else {
                carved_kernel<<<blocks, threads, smemBytes>>>(d_in.p, d_rev.p, d_sum.p, n);
            }
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaDeviceSynchronize());

            auto rev = d_rev.get();
            auto sums = d_sum.get();
            bool ok = true;
            long long total = 0;
            for (unsigned b = 0; b < blocks; ++b) {
                BlockSummary want{};
                for (unsigned t = 0; t < threads; ++t) {
                    unsigned g = b * threads + t;
                    if (g >= (unsigned)n) continue;
                    int v = h_in[g];
                    want.sum += v;
                    want.oddCount += v & 1;
                    want.tagChecksum += ('a' + v % 26) * (int)t;
                    want.hist[v % kBins]++;
                    // element g of the output holds the value of the mirrored thread's input
                    unsigned srcThread = threads - 1 - t;
                    unsigned srcG = b * threads + srcThread;
                    float expect = srcG < (unsigned)n ? 0.5f * (float)h_in[srcG] : 0.0f;
                    ok = ok && rev[g] == expect;
                }
                ok = ok && sums[b].sum == want.sum && sums[b].oddCount == want.oddCount &&
                     sums[b].tagChecksum == want.tagChecksum && std::equal(want.hist, want.hist + kBins, sums[b].hist);
                total += (long long)sums[b].sum;
            }
            std::printf("  %3u threads, %5zu bytes of carved shared memory, sum %lld: %s\n", threads, smemBytes, total,
                        ok ? "ok" : "MISMATCH");
            allOk = allOk && ok;
        }
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, carved_kernel));
        std::fprintf(stderr, "carved_kernel: static smem %zu, regs %d, max threads %d, max dynamic smem %d\n",
                     attr.sharedSizeBytes, attr.numRegs, attr.maxThreadsPerBlock, attr.maxDynamicSharedSizeBytes);
    }

    // ---- one large tile: as much as the device allows per block, capped at 64 KiB
    {
        // a device that reports no opt-in limit still allows the default per-block amount
        const int bigBytes = std::min(std::max(optin, smemPerBlock), 64 * 1024);
        const int chunk = bigBytes / (int)sizeof(int);
        const int n = 40000;
        const int blocks = (n + chunk - 1) / chunk;
        CUDA_CHECK(cudaFuncSetAttribute(big_tile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bigBytes));
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, big_tile_kernel));
        std::fprintf(stderr, "big_tile_kernel: %d bytes of dynamic smem (%d ints per block, %d blocks); attributes: "
                             "static smem %zu, max dynamic %d, regs %d, ptx %d, binary %d\n",
                     bigBytes, chunk, blocks, attr.sharedSizeBytes, attr.maxDynamicSharedSizeBytes, attr.numRegs,
                     attr.ptxVersion, attr.binaryVersion);
        int active = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, big_tile_kernel, 256, bigBytes));
        std::fprintf(stderr, "big_tile_kernel: %d resident blocks per SM\n", active);

        std::vector<int> h_in(n);
        for (auto& v : h_in) v = next() - (1 << 19);
        DevArray<int> d_in(n), d_out(n);
        d_in.put(h_in);
        CUDA_CHECK(cudaMemset(d_out.p, 0, n * sizeof(int)));
        big_tile_kernel<<<blocks, 256, bigBytes>>>(d_in.p, d_out.p, n, chunk);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        auto out = d_out.get();

        bool ok = true;
        long long check = 0;
        for (int b = 0; b < blocks; ++b) {
            int base = b * chunk, count = std::min(chunk, n - base);
            for (int j = 0; j < count; ++j) {
                int want = h_in[base + count - 1 - j] * 3 - h_in[base + (int)((j * 7919ll) % count)];
                ok = ok && out[base + j] == want;
            }
        }
        for (int i = 0; i < n; ++i) check += out[i];   // depends on the chunk size, so stderr only
        std::fprintf(stderr, "big_tile_kernel checksum %lld\n", check);
        std::printf("  large dynamic shared memory tile (min(opt-in, 64 KiB)): %s\n", ok ? "ok" : "MISMATCH");
        allOk = allOk && ok;
    }

    std::printf("dynamic_smem: %s\n", allOk ? "PASSED" : "FAILED");
    return allOk ? EXIT_SUCCESS : EXIT_FAILURE;
}
