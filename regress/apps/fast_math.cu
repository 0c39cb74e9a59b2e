// fast_math: the inner kernels of a small transformer layer, written the way inference code
// writes them: softmax with __expf, GELU with erff and with tanhf, layer norm with rsqrtf, rotary
// position embedding with __sinf/__cosf, attention scaling with __fdividef, and a few libm calls
// (powf, logf, tanf, exp2f, sinf, cosf). Every result goes through an approximate SFU
// instruction somewhere, so the digest below matches the GPU's only when each one is bit-exact.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

constexpr int kRows = 64;
constexpr int kCols = 256;
constexpr int kOutputs = 9;  // values each element produces

__global__ void softmax_rows(const float* x, float* y) {
    __shared__ float red[kCols];
    const int row = blockIdx.x, t = threadIdx.x;
    const float v = x[row * kCols + t];
    red[t] = v;
    __syncthreads();
    for (int s = kCols / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    const float mx = red[0];
    __syncthreads();
    const float e = __expf(v - mx);
    red[t] = e;
    __syncthreads();
    for (int s = kCols / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    y[row * kCols + t] = __fdividef(e, red[0]);
}

__global__ void layer_norm(const float* x, float* y) {
    __shared__ float sum[kCols], sq[kCols];
    const int row = blockIdx.x, t = threadIdx.x;
    const float v = x[row * kCols + t];
    sum[t] = v;
    sq[t] = v * v;
    __syncthreads();
    for (int s = kCols / 2; s > 0; s >>= 1) {
        if (t < s) {
            sum[t] += sum[t + s];
            sq[t] += sq[t + s];
        }
        __syncthreads();
    }
    const float mean = sum[0] / kCols;
    const float var = sq[0] / kCols - mean * mean;
    y[row * kCols + t] = (v - mean) * rsqrtf(var + 1e-5f);
}

struct Activations {
    __device__ static float gelu_erf(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678f)); }
    __device__ static float gelu_tanh(float x) {
        return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    }
};

__global__ void elementwise(const float* x, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    const int pos = i / kCols, dim = i % kCols;
    // rotary embedding: angle = pos / 10000^(2*dim/kCols)
    const float inv_freq = powf(10000.0f, -2.0f * float(dim / 2) / float(kCols));
    const float angle = float(pos) * inv_freq;
    float* o = out + size_t(i) * kOutputs;
    o[0] = Activations::gelu_erf(v);
    o[1] = Activations::gelu_tanh(v);
    o[2] = v * __cosf(angle) - v * __sinf(angle);
    o[3] = logf(1.0f + fabsf(v));
    o[4] = tanf(v);
    o[5] = exp2f(v);
    o[6] = sinf(angle) + cosf(v);
    o[7] = __powf(fabsf(v) + 0.5f, 1.5f);
    o[8] = expf(-v * v);
}

// FNV-1a over the words' bits, so one differing bit anywhere changes it.
static uint64_t digest(const std::vector<float>& v) {
    uint64_t h = 1469598103934665603ull;
    for (float f : v) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        for (int k = 0; k < 4; ++k) {
            h ^= (u >> (8 * k)) & 0xFF;
            h *= 1099511628211ull;
        }
    }
    return h;
}

static uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

int main() {
    const int n = kRows * kCols;
    std::vector<float> x(n);
    uint32_t s = 12345;
    for (float& v : x) {  // a plain LCG, as test programs do
        s = s * 1664525u + 1013904223u;
        v = (float(s >> 8) / 16777216.0f - 0.5f) * 8.0f;
    }
    float *dx, *dsm, *dln, *dew;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dsm, n * sizeof(float)));
    CHECK(cudaMalloc(&dln, n * sizeof(float)));
    CHECK(cudaMalloc(&dew, size_t(n) * kOutputs * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    softmax_rows<<<kRows, kCols>>>(dx, dsm);
    layer_norm<<<kRows, kCols>>>(dx, dln);
    elementwise<<<(n + 127) / 128, 128>>>(dx, dew, n);
    CHECK(cudaGetLastError());
    std::vector<float> sm(n), ln(n), ew(size_t(n) * kOutputs);
    CHECK(cudaMemcpy(sm.data(), dsm, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ln.data(), dln, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ew.data(), dew, ew.size() * sizeof(float), cudaMemcpyDeviceToHost));

    // Sanity on the host: softmax rows sum to 1, layer-norm rows have unit variance.
    bool ok = true;
    for (int r = 0; r < kRows; ++r) {
        double sum = 0, m = 0, v = 0;
        for (int c = 0; c < kCols; ++c) sum += sm[r * kCols + c];
        for (int c = 0; c < kCols; ++c) m += ln[r * kCols + c];
        m /= kCols;
        for (int c = 0; c < kCols; ++c) v += (ln[r * kCols + c] - m) * (ln[r * kCols + c] - m);
        v /= kCols;
        ok = ok && std::fabs(sum - 1.0) < 1e-4 && std::fabs(v - 1.0) < 1e-3;
    }
    std::printf("fast_math: %d x %d\n", kRows, kCols);
    std::printf("softmax digest    %016llx  y[0] = %08x\n", (unsigned long long)digest(sm), bits(sm[0]));
    std::printf("layer norm digest %016llx  y[0] = %08x\n", (unsigned long long)digest(ln), bits(ln[0]));
    const char* names[kOutputs] = {"gelu (erff)", "gelu (tanhf)", "rotary", "logf", "tanf", "exp2f", "sinf+cosf", "__powf", "expf"};
    for (int k = 0; k < kOutputs; ++k) {
        std::vector<float> col(n);
        for (int i = 0; i < n; ++i) col[i] = ew[size_t(i) * kOutputs + k];
        std::printf("%-17s %016llx  y[1] = %08x\n", names[k], (unsigned long long)digest(col), bits(col[1]));
    }
    std::printf("host checks: %s\n", ok ? "passed" : "FAILED");
    cudaFree(dx);
    cudaFree(dsm);
    cudaFree(dln);
    cudaFree(dew);
    return ok ? 0 : 1;
}
