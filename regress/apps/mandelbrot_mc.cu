// Two classic "first CUDA programs" in a modern C++ shell: a Mandelbrot escape-time image (integer
// iteration counts, checksummed and compared pixel for pixel with the CPU) and a Monte-Carlo
// estimate of pi with a per-thread xorshift32 generator, integer hit tests and a shared-memory block
// reduction. Exercises __host__ __device__ code with __CUDA_ARCH__ branches (round-to-nearest
// intrinsics so no FMA contraction), 2D launches, unique_ptr-managed device memory, u64 atomics.

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct CudaFree {
    void operator()(void* p) const noexcept { cudaFree(p); }
};
template <typename T>
using device_array = std::unique_ptr<T[], CudaFree>;

template <typename T>
device_array<T> make_device_array(size_t n) {
    void* p = nullptr;
    check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc");
    return device_array<T>(static_cast<T*>(p));
}

template <typename T>
std::vector<T> to_host(const device_array<T>& d, size_t n) {
    std::vector<T> h(n);
    check(cudaMemcpy(h.data(), d.get(), n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
    return h;
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Mandelbrot
// ------------------------------------------------------------------------------------------------
struct View {
    float x0, y0, dx, dy;
    int width, height, max_iter;
};

// Explicitly rounded arithmetic on the device so that the result does not depend on whether the
// compiler fuses multiply-adds; the host's SSE float arithmetic rounds every operation anyway.
__host__ __device__ inline float mul(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
__host__ __device__ inline float add(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
__host__ __device__ inline float sub(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

__host__ __device__ inline int escape_count(const View& v, int px, int py) {
    const float cx = add(v.x0, mul(static_cast<float>(px), v.dx));
    const float cy = add(v.y0, mul(static_cast<float>(py), v.dy));
    float x = 0.0f, y = 0.0f;
    int it = 0;
    for (; it < v.max_iter; ++it) {
        const float xx = mul(x, x), yy = mul(y, y);
        if (add(xx, yy) > 4.0f) break;
        const float xy = mul(x, y);
        y = add(add(xy, xy), cy);
        x = add(sub(xx, yy), cx);
    }
    return it;
}

__global__ void mandelbrot_kernel(View v, int* counts) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= v.width || py >= v.height) return;
    counts[py * v.width + px] = escape_count(v, px, py);
}

// ------------------------------------------------------------------------------------------------
// Monte-Carlo pi
// ------------------------------------------------------------------------------------------------
__host__ __device__ inline uint32_t xorshift32(uint32_t& s) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

__host__ __device__ inline uint32_t seed_for(uint32_t gid) {
    uint32_t h = gid * 0x9E3779B1u + 0x7F4A7C15u;   // spread consecutive ids, never zero below
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h | 1u;
}

// a point (x, y) in [0, 2^16)^2 is a hit when x^2 + y^2 < 2^32: exact integer arithmetic
__host__ __device__ inline unsigned sample_hits(uint32_t gid, int samples) {
    uint32_t s = seed_for(gid);
    unsigned hits = 0;
    for (int i = 0; i < samples; ++i) {
        const uint64_t x = xorshift32(s) >> 16;
        const uint64_t y = xorshift32(s) >> 16;
        hits += (x * x + y * y < (1ull << 32)) ? 1u : 0u;
    }
    return hits;
}

template <int BLOCK>
__global__ void monte_carlo_pi(int samples_per_thread, unsigned* block_hits, unsigned long long* total_hits) {
    __shared__ unsigned partial[BLOCK];
    const uint32_t gid = blockIdx.x * BLOCK + threadIdx.x;
    partial[threadIdx.x] = sample_hits(gid, samples_per_thread);
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        block_hits[blockIdx.x] = partial[0];
        atomicAdd(total_hits, static_cast<unsigned long long>(partial[0]));
    }
}

int main() {
    try {
        int dev = 0;
        check(cudaGetDevice(&dev), "cudaGetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
        std::fprintf(stderr, "device: %s\n", prop.name);

        bool ok = true;

        // ---- Mandelbrot
        constexpr int W = 128, H = 96;
        const View view{-2.25f, -1.125f, 3.0f / W, 2.25f / H, W, H, 64};
        auto d_counts = make_device_array<int>(W * H);
        const dim3 block(16, 8);
        const dim3 grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y);
        mandelbrot_kernel<<<grid, block>>>(view, d_counts.get());
        check(cudaGetLastError(), "mandelbrot_kernel launch");
        check(cudaDeviceSynchronize(), "mandelbrot_kernel");
        const auto counts = to_host(d_counts, W * H);

        int mismatches = 0;
        uint64_t checksum = 0;
        std::array<int, 5> bands{};   // how many pixels escape in each 16-iteration band, plus "inside"
        for (int py = 0; py < H; ++py)
            for (int px = 0; px < W; ++px) {
                const int c = counts[py * W + px];
                if (c != escape_count(view, px, py)) ++mismatches;
                checksum = checksum * 31 + static_cast<uint64_t>(c);
                ++bands[c >= view.max_iter ? 4 : c / 16];
            }
        const long long total_iter = std::accumulate(counts.begin(), counts.end(), 0ll);
        std::printf("Mandelbrot %dx%d, %d iterations max\n", W, H, view.max_iter);
        std::printf("  total iterations %lld, checksum %016llx\n", total_iter, static_cast<unsigned long long>(checksum));
        std::printf("  escape bands [0,16) [16,32) [32,48) [48,64) inside: %d %d %d %d %d\n", bands[0], bands[1],
                    bands[2], bands[3], bands[4]);
        // a coarse rendering of the image
        const char* shades = " .:-=+*#%@";
        for (int py = 4; py < H; py += 8) {
            std::string line;
            for (int px = 0; px < W; px += 2) {
                const int c = counts[py * W + px];
                line += c >= view.max_iter ? '@' : shades[std::min(8, c / 3)];
            }
            std::printf("  |%s|\n", line.c_str());
        }
        std::printf("  pixels matching the CPU: %s\n", mismatches == 0 ? "all" : "NOT all");
        ok = ok && mismatches == 0;

        // ---- Monte-Carlo pi
        constexpr int kBlock = 128;
        constexpr int kBlocks = 32;
        constexpr int kSamples = 64;
        auto d_block_hits = make_device_array<unsigned>(kBlocks);
        auto d_total = make_device_array<unsigned long long>(1);
        check(cudaMemset(d_total.get(), 0, sizeof(unsigned long long)), "cudaMemset");
        monte_carlo_pi<kBlock><<<kBlocks, kBlock>>>(kSamples, d_block_hits.get(), d_total.get());
        check(cudaGetLastError(), "monte_carlo_pi launch");
        check(cudaDeviceSynchronize(), "monte_carlo_pi");
        const auto block_hits = to_host(d_block_hits, kBlocks);
        const auto total = to_host(d_total, 1);

        std::vector<unsigned> cpu_block(kBlocks, 0);
        for (int b = 0; b < kBlocks; ++b)
            for (int t = 0; t < kBlock; ++t) cpu_block[b] += sample_hits(static_cast<uint32_t>(b * kBlock + t), kSamples);
        const unsigned long long gpu_hits = std::accumulate(block_hits.begin(), block_hits.end(), 0ull);
        const unsigned long long cpu_hits = std::accumulate(cpu_block.begin(), cpu_block.end(), 0ull);
        const unsigned long long samples = 1ull * kBlocks * kBlock * kSamples;
        const double pi = 4.0 * static_cast<double>(gpu_hits) / static_cast<double>(samples);
        std::printf("Monte-Carlo pi: %llu of %llu samples inside the quarter circle, pi ~ %.6f\n", gpu_hits, samples, pi);
        const bool mc_ok = block_hits == cpu_block && total[0] == gpu_hits && gpu_hits == cpu_hits;
        std::printf("  per-block hit counts and atomic total match the CPU: %s\n", mc_ok ? "yes" : "no");
        std::printf("  estimate within 0.05 of pi: %s\n", (pi > 3.0916 && pi < 3.1916) ? "yes" : "no");
        ok = ok && mc_ok && pi > 3.0916 && pi < 3.1916;

        std::printf("mandelbrot_mc: %s\n", ok ? "PASSED" : "FAILED");
        return ok ? EXIT_SUCCESS : EXIT_FAILURE;
    } catch (const std::exception& e) {
        std::printf("error: %s\n", e.what());
        return EXIT_FAILURE;
    }
}
