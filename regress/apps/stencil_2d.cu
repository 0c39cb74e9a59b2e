// 2D heat diffusion (explicit Jacobi 5-point stencil) on a 150 x 100 plate, in the style of NVIDIA's
// samples and Rodinia's hotspot: 16x16 shared-memory tiles with a one-cell halo, fixed (Dirichlet)
// boundary, a few time steps ping-ponging two device buffers. Exercises 2D grids with partial edge
// blocks, shared memory with __syncthreads, cudaEvent timing (stderr) and cudaMemcpy round trips.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

#define BLOCK_X 16
#define BLOCK_Y 16

static const int kWidth = 150;       // not a multiple of the tile on purpose
static const int kHeight = 100;
static const int kIterations = 8;
static const float kAlpha = 0.2f;   // diffusion number, stable below 0.25

// One explicit step: out = in + alpha * laplacian(in). Boundary cells keep their value.
__global__ void heatStepKernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, float alpha) {
    __shared__ float tile[BLOCK_Y + 2][BLOCK_X + 2];

    const int gx = blockIdx.x * BLOCK_X + threadIdx.x;
    const int gy = blockIdx.y * BLOCK_Y + threadIdx.y;
    const int lx = threadIdx.x + 1;
    const int ly = threadIdx.y + 1;

    // Threads past the edge still help fill the tile (with clamped reads) so that every thread
    // reaches the barrier.
    const int cx = min(gx, nx - 1);
    const int cy = min(gy, ny - 1);

    tile[ly][lx] = in[cy * nx + cx];
    if (threadIdx.x == 0) tile[ly][0] = in[cy * nx + max(cx - 1, 0)];
    if (threadIdx.x == BLOCK_X - 1) tile[ly][BLOCK_X + 1] = in[cy * nx + min(cx + 1, nx - 1)];
    if (threadIdx.y == 0) tile[0][lx] = in[max(cy - 1, 0) * nx + cx];
    if (threadIdx.y == BLOCK_Y - 1) tile[BLOCK_Y + 1][lx] = in[min(cy + 1, ny - 1) * nx + cx];
    __syncthreads();

    if (gx >= nx || gy >= ny) return;

    const float center = tile[ly][lx];
    if (gx == 0 || gy == 0 || gx == nx - 1 || gy == ny - 1) {
        out[gy * nx + gx] = center;
        return;
    }
    const float lap = tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx] - 4.0f * center;
    out[gy * nx + gx] = center + alpha * lap;
}

static void heatStepCPU(const float *in, float *out, int nx, int ny, float alpha) {
    for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
            const float c = in[y * nx + x];
            if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
                out[y * nx + x] = c;
                continue;
            }
            const float lap = in[y * nx + x - 1] + in[y * nx + x + 1] + in[(y - 1) * nx + x] + in[(y + 1) * nx + x] - 4.0f * c;
            out[y * nx + x] = c + alpha * lap;
        }
    }
}

int main(int argc, char **argv) {
    printf("[stencil_2d] - Starting...\n");
    findCudaDevice(argc, argv);

    const int nx = kWidth, ny = kHeight;
    const size_t bytes = sizeof(float) * nx * ny;

    float *h_init = (float *)malloc(bytes);
    float *h_result = (float *)malloc(bytes);
    float *h_ref0 = (float *)malloc(bytes);
    float *h_ref1 = (float *)malloc(bytes);

    // A hot left edge, a cold right edge and random interior temperatures.
    Lcg rng(2024);
    for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
            float v = 20.0f + 60.0f * rng.uniform();
            if (x == 0) v = 100.0f;
            if (x == nx - 1) v = 0.0f;
            h_init[y * nx + x] = v;
        }
    }

    float *d_buf[2];
    checkCudaErrors(cudaMalloc((void **)&d_buf[0], bytes));
    checkCudaErrors(cudaMalloc((void **)&d_buf[1], bytes));
    checkCudaErrors(cudaMemcpy(d_buf[0], h_init, bytes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(d_buf[1], 0, bytes));

    dim3 threads(BLOCK_X, BLOCK_Y);
    dim3 grid((nx + BLOCK_X - 1) / BLOCK_X, (ny + BLOCK_Y - 1) / BLOCK_Y);
    printf("Grid %d x %d, %d iterations, %d x %d blocks of %d x %d threads\n", nx, ny, kIterations, grid.x, grid.y,
           threads.x, threads.y);

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start, 0));

    int src = 0;
    for (int it = 0; it < kIterations; ++it) {
        heatStepKernel<<<grid, threads>>>(d_buf[src], d_buf[1 - src], nx, ny, kAlpha);
        getLastCudaError("heatStepKernel execution failed");
        src = 1 - src;
    }

    checkCudaErrors(cudaEventRecord(stop, 0));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "Processing time: %.3f ms\n", ms);

    checkCudaErrors(cudaMemcpy(h_result, d_buf[src], bytes, cudaMemcpyDeviceToHost));

    // CPU reference.
    memcpy(h_ref0, h_init, bytes);
    float *ref_in = h_ref0, *ref_out = h_ref1;
    for (int it = 0; it < kIterations; ++it) {
        heatStepCPU(ref_in, ref_out, nx, ny, kAlpha);
        float *t = ref_in;
        ref_in = ref_out;
        ref_out = t;
    }

    double max_err = 0.0;
    for (int i = 0; i < nx * ny; ++i) {
        double e = fabs((double)h_result[i] - (double)ref_in[i]);
        if (e > max_err) max_err = e;
    }
    fprintf(stderr, "max abs error = %g\n", max_err);
    const bool ok = max_err < 1e-3;   // temperatures are O(100); float rounding is ~1e-5
    printf("max abs error vs CPU below 1e-3: %s\n", ok ? "yes" : "no");

    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_buf[0]));
    checkCudaErrors(cudaFree(d_buf[1]));
    free(h_init);
    free(h_result);
    free(h_ref0);
    free(h_ref1);

    printf("stencil_2d: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
