// dense_la.cu -- dense linear algebra in the style of PolyBench/GPU: plain C-like CUDA, one
// thread per output element, fixed sizes in #defines, a sequential CPU reference.
//
// Kernels:
//   gemm_naive   C = alpha*A*B + beta*C, one thread per element of C, 32x8 blocks. The inner loop
//                reads a row of A (one address per warp: broadcast) and a column of B (coalesced);
//                bound by L1/L2 traffic.
//   gemm_tiled   the same product with 16x16 tiles of A and B staged in shared memory (bar.sync,
//                shared loads feeding an unrolled FMA chain): compute/shared-memory bound.
//                Launched twice as PolyBench's 2mm: T = alpha*A*B, then D = T*C + beta*D.
//   syrk_lower   C = alpha*A*A^T + beta*C on the lower triangle only: warps above the diagonal
//                exit at once, warps across it diverge, and A[j][k] is read with a stride of N
//                (one sector per thread: uncoalesced).
//   gemv_rows    y = alpha*M*x + beta*y, one thread per row of a larger matrix (atax's first
//                kernel): every warp load touches 32 rows; only 64 warps: latency bound.
//   atax_cols    z = M^T*y, one thread per column (atax's second kernel): coalesced rows of M,
//                the same few warps.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 384            // square matrices of the products
#define NV 2048          // the matrix of the matrix-vector products is NV x NV
#define TILE 16
#define DIM_X 32         // block shape of the naive kernels
#define DIM_Y 8
#define VEC_BLOCK 128

#define ALPHA 1.5f
#define BETA 1.2f

static_assert(N % TILE == 0 && N % DIM_X == 0 && N % DIM_Y == 0, "N must fill the tiles");
static_assert(NV % VEC_BLOCK == 0, "NV must fill the blocks");

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            printf("dense_la: %s failed at line %d: %s\n", #call, __LINE__,                \
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
        printf("dense_la: kernel %s failed: %s\n", kernel, cudaGetErrorString(err));
        exit(1);
    }
}

// Fixed-seed linear congruential generator (Numerical Recipes constants).
static uint32_t lcg_state = 12345u;
static float lcg_uniform(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)(lcg_state >> 8) * (1.0f / 16777216.0f);   // [0, 1)
}

static void init_array(float *a, int count)
{
    for (int i = 0; i < count; i++)
        a[i] = lcg_uniform();
}

/* ------------------------------------------------------------------ kernels */

__global__ void gemm_naive(int n, float alpha, float beta, const float *a, const float *b, float *c)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = alpha * acc + beta * c[row * n + col];
    }
}

__global__ void gemm_tiled(int n, float alpha, float beta, const float *a, const float *b, float *c)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        as[ty][tx] = a[row * n + t + tx];
        bs[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[row * n + col] = alpha * acc + beta * c[row * n + col];
}

__global__ void syrk_lower(int n, float alpha, float beta, const float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j <= i) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += a[i * n + k] * a[j * n + k];
        c[i * n + j] = alpha * acc + beta * c[i * n + j];
    }
}

__global__ void gemv_rows(int n, float alpha, float beta, const float *m, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++)
            acc += m[i * n + j] * x[j];
        y[i] = alpha * acc + beta * y[i];
    }
}

__global__ void atax_cols(int n, const float *m, const float *y, float *z)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        float acc = 0.0f;
        for (int i = 0; i < n; i++)
            acc += m[i * n + j] * y[i];
        z[j] = acc;
    }
}

/* ------------------------------------------------------------------ CPU reference */

// c = alpha*a*b + beta*c (n x n, row-major), in double.
static void ref_gemm(int n, double alpha, double beta, const double *a, const double *b, double *c)
{
    std::vector<double> row(n);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            row[j] = 0.0;
        for (int k = 0; k < n; k++) {
            double aik = a[i * n + k];
            for (int j = 0; j < n; j++)
                row[j] += aik * b[k * n + j];
        }
        for (int j = 0; j < n; j++)
            c[i * n + j] = alpha * row[j] + beta * c[i * n + j];
    }
}

static std::vector<double> to_double(const std::vector<float> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

// All inputs are non-negative, so a relative tolerance is meaningful everywhere.
static int compare(const char *what, const float *gpu, const double *ref, int count)
{
    int bad = 0;
    for (int i = 0; i < count; i++) {
        double diff = fabs((double)gpu[i] - ref[i]);
        if (diff > 1e-4 * fabs(ref[i]) + 1e-4) {
            if (bad < 5)
                printf("dense_la: %s[%d] = %.7g, expected %.7g\n", what, i, gpu[i], ref[i]);
            bad++;
        }
    }
    if (bad)
        printf("dense_la: %s: %d of %d elements differ\n", what, bad, count);
    return bad;
}

int main(void)
{
    const size_t mat_bytes = (size_t)N * N * sizeof(float);
    const size_t big_bytes = (size_t)NV * NV * sizeof(float);
    const size_t vec_bytes = (size_t)NV * sizeof(float);

    std::vector<float> h_a(N * N), h_b(N * N), h_c(N * N), h_c2(N * N), h_d(N * N), h_s(N * N);
    std::vector<float> h_m((size_t)NV * NV), h_x(NV), h_y(NV);
    init_array(h_a.data(), N * N);
    init_array(h_b.data(), N * N);
    init_array(h_c.data(), N * N);
    init_array(h_c2.data(), N * N);
    init_array(h_d.data(), N * N);
    init_array(h_s.data(), N * N);
    init_array(h_m.data(), NV * NV);
    init_array(h_x.data(), NV);
    init_array(h_y.data(), NV);

    float *d_a, *d_b, *d_c, *d_c2, *d_t, *d_d, *d_s, *d_m, *d_x, *d_y, *d_z;
    CUDA_CHECK(cudaMalloc(&d_a, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_b, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_c, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_c2, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_t, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_d, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_s, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_m, big_bytes));
    CUDA_CHECK(cudaMalloc(&d_x, vec_bytes));
    CUDA_CHECK(cudaMalloc(&d_y, vec_bytes));
    CUDA_CHECK(cudaMalloc(&d_z, vec_bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c, h_c.data(), mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c2, h_c2.data(), mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_t, 0, mat_bytes));
    CUDA_CHECK(cudaMemcpy(d_d, h_d.data(), mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_s, h_s.data(), mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_m, h_m.data(), big_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), vec_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, h_y.data(), vec_bytes, cudaMemcpyHostToDevice));

    dim3 naive_block(DIM_X, DIM_Y);
    dim3 naive_grid(N / DIM_X, N / DIM_Y);
    dim3 tile_block(TILE, TILE);
    dim3 tile_grid(N / TILE, N / TILE);

    // gemm: C = alpha*A*B + beta*C
    gemm_naive<<<naive_grid, naive_block>>>(N, ALPHA, BETA, d_a, d_b, d_c);
    check_launch("gemm_naive");

    // 2mm: T = alpha*A*B (T starts at zero), D = T*C2 + beta*D
    gemm_tiled<<<tile_grid, tile_block>>>(N, ALPHA, 0.0f, d_a, d_b, d_t);
    check_launch("gemm_tiled (A*B)");
    gemm_tiled<<<tile_grid, tile_block>>>(N, 1.0f, BETA, d_t, d_c2, d_d);
    check_launch("gemm_tiled (T*C)");

    // syrk: S = alpha*A*A^T + beta*S, lower triangle
    syrk_lower<<<naive_grid, naive_block>>>(N, ALPHA, BETA, d_a, d_s);
    check_launch("syrk_lower");

    // atax-style: y = alpha*M*x + beta*y, z = M^T*y
    gemv_rows<<<NV / VEC_BLOCK, VEC_BLOCK>>>(NV, ALPHA, BETA, d_m, d_x, d_y);
    check_launch("gemv_rows");
    atax_cols<<<NV / VEC_BLOCK, VEC_BLOCK>>>(NV, d_m, d_y, d_z);
    check_launch("atax_cols");

    std::vector<float> g_c(N * N), g_d(N * N), g_s(N * N), g_y(NV), g_z(NV);
    CUDA_CHECK(cudaMemcpy(g_c.data(), d_c, mat_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_d.data(), d_d, mat_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_s.data(), d_s, mat_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_y.data(), d_y, vec_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_z.data(), d_z, vec_bytes, cudaMemcpyDeviceToHost));

    /* CPU reference, in double */
    std::vector<double> a = to_double(h_a), b = to_double(h_b);
    std::vector<double> c = to_double(h_c), c2 = to_double(h_c2), d = to_double(h_d), s = to_double(h_s);
    std::vector<double> t((size_t)N * N, 0.0);
    ref_gemm(N, ALPHA, BETA, a.data(), b.data(), c.data());
    ref_gemm(N, ALPHA, 0.0, a.data(), b.data(), t.data());
    ref_gemm(N, 1.0, BETA, t.data(), c2.data(), d.data());
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++) {
            double acc = 0.0;
            for (int k = 0; k < N; k++)
                acc += a[i * N + k] * a[j * N + k];
            s[i * N + j] = ALPHA * acc + BETA * s[i * N + j];
        }
    std::vector<double> y(NV), z(NV, 0.0);
    for (int i = 0; i < NV; i++) {
        double acc = 0.0;
        for (int j = 0; j < NV; j++)
            acc += (double)h_m[(size_t)i * NV + j] * h_x[j];
        y[i] = ALPHA * acc + BETA * (double)h_y[i];
    }
    // z from the GPU's y, so that the two kernels are checked one at a time
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++)
            z[j] += (double)h_m[(size_t)i * NV + j] * g_y[i];

    int bad = 0;
    bad += compare("gemm C", g_c.data(), c.data(), N * N);
    bad += compare("2mm D", g_d.data(), d.data(), N * N);
    bad += compare("syrk S", g_s.data(), s.data(), N * N);   // the upper triangle keeps its input
    bad += compare("gemv y", g_y.data(), y.data(), NV);
    bad += compare("atax z", g_z.data(), z.data(), NV);

    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c); cudaFree(d_c2); cudaFree(d_t); cudaFree(d_d);
    cudaFree(d_s); cudaFree(d_m); cudaFree(d_x); cudaFree(d_y); cudaFree(d_z);

    if (bad) {
        printf("dense_la: FAILED\n");
        return 1;
    }
    printf("dense_la: PASSED\n");
    return 0;
}
