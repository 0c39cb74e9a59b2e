// blackscholes_shape: European options priced with the Black-Scholes formula, in the shape of
// NVIDIA's BlackScholes sample at its default size: 4,000,000 options (three inputs, two outputs of
// floats: 80 MB of copies) priced by 512 launches of one kernel, each option through logf, sqrtf,
// expf (three of them) and divisions. `--small` prices 40,000 options 8 times (the ctest size).
// It prints what does not depend on the last bit of a float: the results against a double-precision
// reference on the host, and the sums of the prices to six digits.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../apps/common/cuda_helpers.h"

__device__ inline float cnd(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267793994605993438f;
    const float k = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
    float c = rsqrt2pi * __expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - c : c;
}

__global__ void price(float* call, float* put, const float* s, const float* x, const float* t, float r, float v, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const float sqrt_t = sqrtf(t[i]);
        const float d1 = __fdividef(__logf(s[i] / x[i]) + (r + 0.5f * v * v) * t[i], v * sqrt_t);
        const float d2 = d1 - v * sqrt_t;
        const float cnd1 = cnd(d1), cnd2 = cnd(d2);
        const float exp_rt = __expf(-r * t[i]);
        call[i] = s[i] * cnd1 - x[i] * exp_rt * cnd2;
        put[i] = x[i] * exp_rt * (1.0f - cnd2) - s[i] * (1.0f - cnd1);
    }
}

static double cnd_ref(double d) {
    return 0.5 * std::erfc(-d / std::sqrt(2.0));
}

int main(int argc, char** argv) {
    const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
    const int n = small ? 40000 : 4000000, iterations = small ? 8 : 512;
    const float r = 0.02f, v = 0.30f;
    std::vector<float> s(n), x(n), t(n), call(n), put(n);
    unsigned seed = 2024;
    auto uniform = [&](float lo, float hi) {
        seed = seed * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(seed >> 8) / 16777216.0f;
    };
    for (int i = 0; i < n; ++i) s[i] = uniform(5.0f, 30.0f), x[i] = uniform(1.0f, 100.0f), t[i] = uniform(0.25f, 10.0f);
    float *d_s, *d_x, *d_t, *d_call, *d_put;
    const size_t bytes = size_t(n) * sizeof(float);
    checkCudaErrors(cudaMalloc(&d_s, bytes));
    checkCudaErrors(cudaMalloc(&d_x, bytes));
    checkCudaErrors(cudaMalloc(&d_t, bytes));
    checkCudaErrors(cudaMalloc(&d_call, bytes));
    checkCudaErrors(cudaMalloc(&d_put, bytes));
    checkCudaErrors(cudaMemcpy(d_s, s.data(), bytes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_t, t.data(), bytes, cudaMemcpyHostToDevice));
    const int block = 128, grid = (n / 2 + block - 1) / block;
    for (int k = 0; k < iterations; ++k) price<<<grid, block>>>(d_call, d_put, d_s, d_x, d_t, r, v, n);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaMemcpy(call.data(), d_call, bytes, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(put.data(), d_put, bytes, cudaMemcpyDeviceToHost));
    double diff = 0, ref_sum = 0, max_err = 0, call_sum = 0, put_sum = 0;
    for (int i = 0; i < n; ++i) {
        const double sqrt_t = std::sqrt(double(t[i]));
        const double d1 = (std::log(double(s[i]) / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sqrt_t), d2 = d1 - v * sqrt_t;
        const double ref = s[i] * cnd_ref(d1) - x[i] * std::exp(-double(r) * t[i]) * cnd_ref(d2);
        diff += std::fabs(call[i] - ref);
        ref_sum += std::fabs(ref);
        max_err = std::fmax(max_err, std::fabs(call[i] - ref));
        call_sum += call[i];
        put_sum += put[i];
    }
    std::printf("blackscholes_shape: %d options, %d launches of %d blocks\n", n, iterations, grid);
    std::printf("sum of call prices %.6g, of put prices %.6g\n", call_sum, put_sum);
    std::printf("relative L1 error against double precision below 1e-6: %s\n", diff / ref_sum < 1e-6 ? "yes" : "no");
    std::printf("largest error below 1e-4: %s\n", max_err < 1e-4 ? "yes" : "no");
    checkCudaErrors(cudaFree(d_s));
    checkCudaErrors(cudaFree(d_x));
    checkCudaErrors(cudaFree(d_t));
    checkCudaErrors(cudaFree(d_call));
    checkCudaErrors(cudaFree(d_put));
    std::printf("%s\n", diff / ref_sum < 1e-6 && max_err < 1e-4 ? "Test passed" : "Test failed");
    return 0;
}
