// stencils.cu -- structured-grid stencils in the style of Rodinia (hotspot, srad) and Parboil
// (stencil): C-like CUDA, global arrays, ping-pong buffers swapped between launches.
//
// Kernels:
//   jacobi2d_naive       5-point Jacobi on a 2048x2048 grid, one thread per cell, every
//                        neighbour read from global memory (the L1 catches the reuse):
//                        memory bound. 2 launches.
//   jacobi2d_tiled       the same step on 32x32 tiles staged in shared memory with a one-cell
//                        halo; 32x8 threads, each computing 4 rows of its tile (as in the
//                        transpose sample); lanes 0 and 31 load the side halos (divergent
//                        loads), warps 0 and 1 the rows above and below; bar.sync. 2 launches.
//   stencil3d_7pt        7-point stencil on a 128^3 volume, Parboil style: one thread per (x, y)
//                        column marching along z, keeping the planes below/at/above in registers.
//                        Only 512 warps, each waiting for a round trip to L2/DRAM per plane
//                        (the loads cannot pass the previous plane's store): latency bound.
//                        1 launch.
//   jacobi2d_gridstride  one more 5-point step on a 2048x512 grid through a grid-stride loop,
//                        launched deliberately under-filled: 16 blocks of 256 threads for the
//                        chip's 132 SMs.
//
// Cells on the border of a grid are fixed (copied unchanged).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define W 2048           // 2D grid: W columns, H rows
#define H 2048
#define STEPS 2          // Jacobi steps of each 2D variant
#define BX 32            // 2D block shape
#define BY 8
#define TILE_W 32        // shared tile of jacobi2d_tiled: each thread computes TILE_H / BY rows
#define TILE_H 32
#define UNDERFILL_H 512  // rows of the grid of the under-filled launch
#define NX 128           // 3D volume
#define NY 128
#define NZ 128
#define STEPS3D 1
#define UNDERFILL_BLOCKS 16
#define UNDERFILL_THREADS 256

#define C0 0.4f          // 3D stencil weights: centre and each of the six neighbours
#define C1 0.1f

static_assert(W % BX == 0 && H % BY == 0, "the 2D grid must fill the blocks");
static_assert(W % TILE_W == 0 && H % TILE_H == 0, "the 2D grid must fill the tiles");
static_assert(TILE_W == BX && TILE_H % BY == 0 && BY >= 2, "tile and block shapes");
static_assert(UNDERFILL_H <= H, "the under-filled grid is part of the 2D grid");
static_assert(NX % 32 == 0 && NY % 4 == 0, "the 3D volume must fill the blocks");
static_assert(STEPS % 2 == 0, "an even number of steps leaves the result in the first buffer");

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            printf("stencils: %s failed at line %d: %s\n", #call, __LINE__,                \
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
        printf("stencils: kernel %s failed: %s\n", kernel, cudaGetErrorString(err));
        exit(1);
    }
}

static uint32_t lcg_state = 2024u;
static float lcg_uniform(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)(lcg_state >> 8) * (1.0f / 16777216.0f);   // [0, 1)
}

/* ------------------------------------------------------------------ kernels */

__global__ void jacobi2d_naive(int w, int h, const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        out[i] = in[i];
    else
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

__global__ void jacobi2d_tiled(int w, int h, const float *in, float *out)
{
    __shared__ float tile[TILE_H + 2][TILE_W + 2];
    int x = blockIdx.x * TILE_W + threadIdx.x;
    int y0 = blockIdx.y * TILE_H;
    int tx = threadIdx.x + 1;

    // the tile's own cells and the side halos, BY rows at a time
#pragma unroll
    for (int k = 0; k < TILE_H / BY; k++) {
        int r = threadIdx.y + k * BY;
        int i = (y0 + r) * w + x;
        tile[r + 1][tx] = in[i];
        if (threadIdx.x == 0 && x > 0)
            tile[r + 1][0] = in[i - 1];
        if (threadIdx.x == TILE_W - 1 && x < w - 1)
            tile[r + 1][TILE_W + 1] = in[i + 1];
    }
    // the rows above and below the tile
    if (threadIdx.y == 0 && y0 > 0)
        tile[0][tx] = in[(y0 - 1) * w + x];
    if (threadIdx.y == 1 && y0 + TILE_H < h)
        tile[TILE_H + 1][tx] = in[(y0 + TILE_H) * w + x];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < TILE_H / BY; k++) {
        int r = threadIdx.y + k * BY;
        int y = y0 + r;
        int ty = r + 1;
        float v;
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
            v = tile[ty][tx];
        else
            v = 0.2f * (tile[ty][tx] + tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] +
                        tile[ty + 1][tx]);
        out[y * w + x] = v;
    }
}

__global__ void stencil3d_7pt(int nx, int ny, int nz, float c0, float c1, const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    int plane = nx * ny;
    int i = y * nx + x;
    bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;

    float below = in[i];
    float centre = in[i + plane];
    out[i] = below;
    for (int z = 1; z < nz - 1; z++) {
        int c = z * plane + i;
        float above = in[c + plane];
        if (edge)
            out[c] = centre;
        else
            out[c] = c0 * centre +
                     c1 * (below + above + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
        below = centre;
        centre = above;
    }
    out[(nz - 1) * plane + i] = centre;
}

__global__ void jacobi2d_gridstride(int w, int h, const float *in, float *out)
{
    int cells = w * h;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < cells; i += gridDim.x * blockDim.x) {
        int x = i % w;
        int y = i / w;
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
            out[i] = in[i];
        else
            out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
}

/* ------------------------------------------------------------------ CPU reference */

static void ref_jacobi2d(int w, int h, const std::vector<float> &in, std::vector<float> &out)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int i = y * w + x;
            if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                out[i] = in[i];
            else
                out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
        }
}

static void ref_stencil3d(const std::vector<float> &in, std::vector<float> &out)
{
    const int plane = NX * NY;
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int c = z * plane + y * NX + x;
                if (x == 0 || y == 0 || z == 0 || x == NX - 1 || y == NY - 1 || z == NZ - 1)
                    out[c] = in[c];
                else
                    out[c] = C0 * in[c] + C1 * (in[c - plane] + in[c + plane] + in[c - 1] +
                                                in[c + 1] + in[c - NX] + in[c + NX]);
            }
}

// Values stay in [0, 1]; the GPU may contract differently than the host, so allow a small error.
static int compare(const char *what, const std::vector<float> &gpu, const std::vector<float> &ref,
                   size_t count)
{
    int bad = 0;
    for (size_t i = 0; i < count; i++) {
        if (!(fabsf(gpu[i] - ref[i]) <= 1e-5f)) {
            if (bad < 5)
                printf("stencils: %s[%zu] = %.7g, expected %.7g\n", what, i, gpu[i], ref[i]);
            bad++;
        }
    }
    if (bad)
        printf("stencils: %s: %d of %zu cells differ\n", what, bad, count);
    return bad;
}

int main(void)
{
    const size_t cells2d = (size_t)W * H;
    const size_t cells3d = (size_t)NX * NY * NZ;
    const size_t bytes2d = cells2d * sizeof(float);
    const size_t bytes3d = cells3d * sizeof(float);

    std::vector<float> grid0(cells2d), vol0(cells3d);
    for (size_t i = 0; i < cells2d; i++)
        grid0[i] = lcg_uniform();
    for (size_t i = 0; i < cells3d; i++)
        vol0[i] = lcg_uniform();

    float *d_a, *d_b, *d_c, *d_d, *d_v0, *d_v1;
    CUDA_CHECK(cudaMalloc(&d_a, bytes2d));
    CUDA_CHECK(cudaMalloc(&d_b, bytes2d));
    CUDA_CHECK(cudaMalloc(&d_c, bytes2d));
    CUDA_CHECK(cudaMalloc(&d_d, bytes2d));
    CUDA_CHECK(cudaMalloc(&d_v0, bytes3d));
    CUDA_CHECK(cudaMalloc(&d_v1, bytes3d));
    CUDA_CHECK(cudaMemcpy(d_a, grid0.data(), bytes2d, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c, grid0.data(), bytes2d, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v0, vol0.data(), bytes3d, cudaMemcpyHostToDevice));

    dim3 block2d(BX, BY), grid2d(W / BX, H / BY), grid_tiles(W / TILE_W, H / TILE_H);

    // naive: a -> b -> a ...
    for (int s = 0; s < STEPS; s++) {
        jacobi2d_naive<<<grid2d, block2d>>>(W, H, s % 2 ? d_b : d_a, s % 2 ? d_a : d_b);
        check_launch("jacobi2d_naive");
    }
    // tiled: c -> d -> c ...
    for (int s = 0; s < STEPS; s++) {
        jacobi2d_tiled<<<grid_tiles, block2d>>>(W, H, s % 2 ? d_d : d_c, s % 2 ? d_c : d_d);
        check_launch("jacobi2d_tiled");
    }
    // 3D: v0 -> v1 (-> v0 ...)
    dim3 block3d(32, 4), grid3d(NX / 32, NY / 4);
    for (int s = 0; s < STEPS3D; s++) {
        stencil3d_7pt<<<grid3d, block3d>>>(NX, NY, NZ, C0, C1, s % 2 ? d_v1 : d_v0, s % 2 ? d_v0 : d_v1);
        check_launch("stencil3d_7pt");
    }

    std::vector<float> g_naive(cells2d), g_tiled(cells2d), g_vol(cells3d), g_extra(cells2d);
    CUDA_CHECK(cudaMemcpy(g_naive.data(), d_a, bytes2d, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_tiled.data(), d_c, bytes2d, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g_vol.data(), STEPS3D % 2 ? d_v1 : d_v0, bytes3d, cudaMemcpyDeviceToHost));

    // under-filled: one step on the first UNDERFILL_H rows of the naive result (a W x UNDERFILL_H
    // grid of its own, with its own fixed border), a -> b
    jacobi2d_gridstride<<<UNDERFILL_BLOCKS, UNDERFILL_THREADS>>>(W, UNDERFILL_H, d_a, d_b);
    check_launch("jacobi2d_gridstride");
    CUDA_CHECK(cudaMemcpy(g_extra.data(), d_b, bytes2d, cudaMemcpyDeviceToHost));

    /* CPU reference */
    std::vector<float> r0 = grid0, r1(cells2d);
    for (int s = 0; s < STEPS; s++) {
        ref_jacobi2d(W, H, r0, r1);
        r0.swap(r1);
    }
    int bad = 0;
    bad += compare("jacobi2d_naive", g_naive, r0, cells2d);
    bad += compare("jacobi2d_tiled", g_tiled, r0, cells2d);
    ref_jacobi2d(W, UNDERFILL_H, g_naive, r1);   // the extra step starts from the GPU's grid
    bad += compare("jacobi2d_gridstride", g_extra, r1, (size_t)W * UNDERFILL_H);

    std::vector<float> v0 = vol0, v1(cells3d);
    for (int s = 0; s < STEPS3D; s++) {
        ref_stencil3d(v0, v1);
        v0.swap(v1);
    }
    bad += compare("stencil3d_7pt", g_vol, v0, cells3d);

    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c); cudaFree(d_d); cudaFree(d_v0); cudaFree(d_v1);

    if (bad) {
        printf("stencils: FAILED\n");
        return 1;
    }
    printf("stencils: PASSED\n");
    return 0;
}
