// stream_mem: memory-bandwidth kernels in the style of STREAM / BabelStream.
// Kernels: copy (c = a), scale (b = s*c), add (c = a + b), triad (a = b + s*c) on arrays of 8 M
// floats (32 MB) each, all grid-stride loops with coalesced 4-byte accesses; a strided read that
// gathers every 32nd float (one useful word per 32-byte sector, so the DRAM and L2 move 8x the
// useful data); and a copy whose source is offset by one element, so that every warp's 128-byte
// load straddles two lines. All are memory-bound; together they exercise DRAM bandwidth, L2
// sector traffic and the coalescer.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            std::printf("stream_mem: %s failed: %s\n", #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)
#define CHECK_LAUNCH(name)                                                             \
    do {                                                                               \
        cudaError_t err_ = cudaGetLastError();                                         \
        if (err_ != cudaSuccess) {                                                     \
            std::printf("stream_mem: launch of %s failed: %s\n", name, cudaGetErrorString(err_)); \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

static const unsigned kN = 8u << 20;  // elements per array (32 MB; a kernel streams 64-96 MB)
static const int kStride = 32;              // floats between two strided reads
static const unsigned kStridedN = kN / 8;    // elements the strided kernel gathers
static const float kScalar = 0.4f;

__global__ void stream_copy(const float* __restrict__ a, float* __restrict__ c, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i];
}

__global__ void stream_scale(const float* __restrict__ c, float* __restrict__ b, float s, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        b[i] = s * c[i];
}

__global__ void stream_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

__global__ void stream_triad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                             float s, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}

// out[i] = in[(i * stride) mod n + (i * stride) / n]: consecutive threads read words 128 bytes
// apart; after one pass over the array the start shifts by one word.
__global__ void stream_strided_read(const float* __restrict__ in, float* __restrict__ out, unsigned n_out,
                                    unsigned n_in, unsigned stride) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_out; i += gridDim.x * blockDim.x) {
        unsigned k = i * stride;
        out[i] = in[(k % n_in) + k / n_in];
    }
}

// out[i] = in[i + 1]: the loads are off the 128-byte line by one word.
__global__ void stream_misaligned_copy(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i + 1];
}

static unsigned lcg_state = 12345u;
static unsigned lcg() {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

static int failures = 0;
// The device may contract b + s*c into one fma, so allow a rounding's difference.
static void expect(const char* what, size_t i, float got, float want) {
    if (std::fabs(got - want) <= 1e-6f * std::fabs(want)) return;
    if (failures < 10) std::printf("stream_mem: %s[%zu] = %.8g, expected %.8g\n", what, i, got, want);
    ++failures;
}

int main() {
    const size_t bytes = kN * sizeof(float);
    std::vector<float> h_a(kN), h_b(kN), h_c(kN);
    for (size_t i = 0; i < kN; ++i) h_a[i] = float(lcg() >> 8) * (1.0f / 16777216.0f);  // [0, 1)

    float *a, *b, *c, *d;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&c, bytes));
    CHECK(cudaMalloc(&d, kStridedN * sizeof(float)));
    CHECK(cudaMemcpy(a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    // b and c are written before they are read.

    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int threads = 256;
    const int blocks = sms * 8;  // grid-stride: 8 blocks of 256 per SM

    // Host reference of the BabelStream sequence: c = a; b = s*c; c = a + b; a = b + s*c.
    std::vector<float> r_a(h_a), r_b(kN), r_c(kN);
    for (size_t i = 0; i < kN; ++i) {
        r_c[i] = r_a[i];
        r_b[i] = kScalar * r_c[i];
        r_c[i] = r_a[i] + r_b[i];
        r_a[i] = r_b[i] + kScalar * r_c[i];
    }

    stream_copy<<<blocks, threads>>>(a, c, kN);
    CHECK_LAUNCH("stream_copy");
    stream_scale<<<blocks, threads>>>(c, b, kScalar, kN);
    CHECK_LAUNCH("stream_scale");
    stream_add<<<blocks, threads>>>(a, b, c, kN);
    CHECK_LAUNCH("stream_add");
    stream_triad<<<blocks, threads>>>(a, b, c, kScalar, kN);
    CHECK_LAUNCH("stream_triad");

    CHECK(cudaMemcpy(h_a.data(), a, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_b.data(), b, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_c.data(), c, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < kN; ++i) {
        expect("a", i, h_a[i], r_a[i]);
        expect("b", i, h_b[i], r_b[i]);
        expect("c", i, h_c[i], r_c[i]);
    }

    // Strided gather from b into d, then the misaligned copy of b into c.
    stream_strided_read<<<blocks, threads>>>(b, d, kStridedN, kN, kStride);
    CHECK_LAUNCH("stream_strided_read");
    stream_misaligned_copy<<<blocks, threads>>>(b, c, kN - 1);
    CHECK_LAUNCH("stream_misaligned_copy");
    CHECK(cudaDeviceSynchronize());

    std::vector<float> h_d(kStridedN);
    CHECK(cudaMemcpy(h_d.data(), d, kStridedN * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_c.data(), c, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < kStridedN; ++i) {
        size_t k = i * kStride;
        expect("strided", i, h_d[i], r_b[(k % kN) + k / kN]);
    }
    for (size_t i = 0; i + 1 < kN; ++i) expect("misaligned", i, h_c[i], r_b[i + 1]);

    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    CHECK(cudaFree(d));
    if (failures) {
        std::printf("stream_mem: FAILED (%d mismatches)\n", failures);
        return 1;
    }
    std::printf("stream_mem: PASSED\n");
    return 0;
}
