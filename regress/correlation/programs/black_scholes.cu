// black_scholes.cu -- option pricing in the style of NVIDIA's CUDA samples (BlackScholes): one
// thread per option, structure-of-arrays inputs, the Abramowitz-Stegun polynomial for the
// cumulative normal distribution, plus a second transcendental-heavy kernel.
//
// Kernels:
//   black_scholes_price  European call and put of 2M options: full-precision logf, expf, sqrtf
//                        and divisions (long libdevice sequences around MUFU ex2/lg2/rcp/rsq),
//                        three streamed inputs and two outputs per thread: mixed
//                        compute/memory bound, a full grid.
//   damped_oscillators   for each of 256K oscillators, the damped phasor sum
//                        sum_k e^(-a k) (cos(w k + phi), sin(w k + phi)) over 64 terms with the
//                        fast intrinsics __sincosf and __expf: three MUFU operations and a few
//                        FMAs per term, almost no memory traffic: SFU bound.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

static const int kOptions = 2 << 20;
static const int kOscillators = 1 << 18;
static const int kTerms = 64;
static const int kBlock = 256;
static const float kRiskFree = 0.02f;
static const float kVolatility = 0.30f;

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            printf("black_scholes: %s failed at line %d: %s\n", #call, __LINE__,           \
                   cudaGetErrorString(err_));                                              \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static void check_launch(const char *kernel)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("black_scholes: kernel %s failed: %s\n", kernel, cudaGetErrorString(err));
        exit(1);
    }
}

static uint32_t lcg_state = 4242u;
static float lcg_range(float lo, float hi)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(lcg_state >> 8) * (1.0f / 16777216.0f);
}

/* ------------------------------------------------------------------ kernels */

// Cumulative normal distribution, polynomial approximation (Abramowitz & Stegun 26.2.17),
// absolute error below 7.5e-8.
__device__ __forceinline__ float cumulative_normal(float d)
{
    const float a1 = 0.31938153f;
    const float a2 = -0.356563782f;
    const float a3 = 1.781477937f;
    const float a4 = -1.821255978f;
    const float a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;

    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float tail = inv_sqrt_2pi * expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - tail : tail;
}

__global__ void black_scholes_price(int n, float r, float v, const float *spot, const float *strike,
                                    const float *years, float *call, float *put)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = spot[i];
    float x = strike[i];
    float t = years[i];

    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float cnd1 = cumulative_normal(d1);
    float cnd2 = cumulative_normal(d2);
    float discount = expf(-r * t);

    call[i] = s * cnd1 - x * discount * cnd2;
    put[i] = x * discount * (1.0f - cnd2) - s * (1.0f - cnd1);
}

__global__ void damped_oscillators(int n, int terms, const float *omega, const float *phase,
                                   const float *decay, float2 *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float w = omega[i];
    float phi = phase[i];
    float a = decay[i];

    float re = 0.0f, im = 0.0f;
    for (int k = 0; k < terms; k++) {
        float fk = (float)k;
        float s, c;
        __sincosf(fmaf(w, fk, phi), &s, &c);
        float amp = __expf(-a * fk);
        re = fmaf(amp, c, re);
        im = fmaf(amp, s, im);
    }
    sum[i] = make_float2(re, im);
}

/* ------------------------------------------------------------------ CPU reference */

static double normal_cdf(double d)
{
    return 0.5 * erfc(-d / sqrt(2.0));
}

int main(void)
{
    std::vector<float> h_s(kOptions), h_x(kOptions), h_t(kOptions);
    for (int i = 0; i < kOptions; i++) {
        h_s[i] = lcg_range(5.0f, 30.0f);
        h_x[i] = lcg_range(1.0f, 100.0f);
        h_t[i] = lcg_range(0.25f, 10.0f);
    }
    std::vector<float> h_w(kOscillators), h_phi(kOscillators), h_a(kOscillators);
    for (int i = 0; i < kOscillators; i++) {
        h_w[i] = lcg_range(0.01f, 0.1f);
        h_phi[i] = lcg_range(-3.14159265f, 3.14159265f);
        h_a[i] = lcg_range(0.0f, 0.05f);
    }

    const size_t obytes = kOptions * sizeof(float);
    const size_t wbytes = kOscillators * sizeof(float);
    float *d_s, *d_x, *d_t, *d_call, *d_put, *d_w, *d_phi, *d_a;
    float2 *d_sum;
    CUDA_CHECK(cudaMalloc(&d_s, obytes));
    CUDA_CHECK(cudaMalloc(&d_x, obytes));
    CUDA_CHECK(cudaMalloc(&d_t, obytes));
    CUDA_CHECK(cudaMalloc(&d_call, obytes));
    CUDA_CHECK(cudaMalloc(&d_put, obytes));
    CUDA_CHECK(cudaMalloc(&d_w, wbytes));
    CUDA_CHECK(cudaMalloc(&d_phi, wbytes));
    CUDA_CHECK(cudaMalloc(&d_a, wbytes));
    CUDA_CHECK(cudaMalloc(&d_sum, kOscillators * sizeof(float2)));
    CUDA_CHECK(cudaMemcpy(d_s, h_s.data(), obytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), obytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_t, h_t.data(), obytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_w, h_w.data(), wbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_phi, h_phi.data(), wbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), wbytes, cudaMemcpyHostToDevice));

    black_scholes_price<<<(kOptions + kBlock - 1) / kBlock, kBlock>>>(kOptions, kRiskFree, kVolatility,
                                                                      d_s, d_x, d_t, d_call, d_put);
    check_launch("black_scholes_price");
    damped_oscillators<<<(kOscillators + kBlock - 1) / kBlock, kBlock>>>(kOscillators, kTerms, d_w, d_phi,
                                                                         d_a, d_sum);
    check_launch("damped_oscillators");

    std::vector<float> g_call(kOptions), g_put(kOptions);
    std::vector<float2> g_sum(kOscillators);
    CUDA_CHECK(cudaMemcpy(g_call.data(), d_call, obytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_put.data(), d_put, obytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_sum.data(), d_sum, kOscillators * sizeof(float2), cudaMemcpyDeviceToHost));

    /* Black-Scholes against the exact normal distribution, in double. Prices are at most ~30:
       an absolute tolerance covers the float rounding and the polynomial's error. */
    int bad = 0;
    double max_err = 0.0;
    for (int i = 0; i < kOptions; i++) {
        double s = h_s[i], x = h_x[i], t = h_t[i], r = kRiskFree, v = kVolatility;
        double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt(t));
        double d2 = d1 - v * sqrt(t);
        double disc = exp(-r * t);
        double call = s * normal_cdf(d1) - x * disc * normal_cdf(d2);
        double put = x * disc * normal_cdf(-d2) - s * normal_cdf(-d1);
        double err = fmax(fabs(g_call[i] - call), fabs(g_put[i] - put));
        if (err > max_err)
            max_err = err;
        if (!(err <= 1e-4 + 1e-5 * fmax(call, put))) {
            if (bad < 5)
                printf("black_scholes: option %d: call %.7g (expected %.7g), put %.7g (expected %.7g)\n", i,
                       g_call[i], call, g_put[i], put);
            bad++;
        }
    }

    /* Oscillators: __sincosf and __expf have absolute errors of a few 1e-6 on these arguments;
       64 terms of magnitude <= 1. */
    for (int i = 0; i < kOscillators; i++) {
        double re = 0.0, im = 0.0;
        for (int k = 0; k < kTerms; k++) {
            double amp = exp(-(double)h_a[i] * k);
            double ang = (double)h_w[i] * k + h_phi[i];
            re += amp * cos(ang);
            im += amp * sin(ang);
        }
        double err = fmax(fabs(g_sum[i].x - re), fabs(g_sum[i].y - im));
        if (!(err <= 1e-3)) {
            if (bad < 5)
                printf("black_scholes: oscillator %d: (%.7g, %.7g), expected (%.7g, %.7g)\n", i, g_sum[i].x,
                       g_sum[i].y, re, im);
            bad++;
        }
    }

    cudaFree(d_s); cudaFree(d_x); cudaFree(d_t); cudaFree(d_call); cudaFree(d_put);
    cudaFree(d_w); cudaFree(d_phi); cudaFree(d_a); cudaFree(d_sum);

    if (bad) {
        printf("black_scholes: %d results differ (largest option error %.3g)\nblack_scholes: FAILED\n", bad,
               max_err);
        return 1;
    }
    printf("black_scholes: PASSED\n");
    return 0;
}
