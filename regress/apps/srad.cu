/* Speckle-reducing anisotropic diffusion of a small image in the style of Rodinia's srad (v2):
 * per iteration the host reduces the region of interest (mean/variance -> q0sqr) from the image
 * copied back, then kernel 1 computes directional derivatives and the diffusion coefficient and
 * kernel 2 applies the divergence update. 16x16 tiles with halos in shared memory, clamped edges. */

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define ROWS 64
#define COLS 80
#define NITER 3
#define LAMBDA 0.5f
/* region of interest used for the speckle statistics */
#define R1 0
#define R2 31
#define C1 0
#define C2 31

#define CUDA_SAFE_CALL(call)                                                                       \
    do {                                                                                           \
        cudaError_t e = (call);                                                                    \
        if (e != cudaSuccess) {                                                                    \
            fprintf(stdout, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__,      \
                    cudaGetErrorString(e));                                                        \
            exit(EXIT_FAILURE);                                                                    \
        }                                                                                          \
    } while (0)

float J[ROWS * COLS], J_ref[ROWS * COLS], J_init[ROWS * COLS];
float c_ref[ROWS * COLS], dN_ref[ROWS * COLS], dS_ref[ROWS * COLS], dW_ref[ROWS * COLS], dE_ref[ROWS * COLS];

static unsigned int rng_state = 7u;
static float rand_unit(void)
{
    /* xorshift32, fixed seed */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return (float)(rng_state & 0xFFFFFF) / 16777216.0f;
}

/* kernel 1: derivatives and diffusion coefficient */
__global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, const float *J_cuda, float *C_cuda, int cols,
                            int rows, float q0sqr)
{
    __shared__ float tile[BLOCK_SIZE + 2][BLOCK_SIZE + 2];

    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = by * BLOCK_SIZE + ty;
    int col = bx * BLOCK_SIZE + tx;
    int index = row * cols + col;

    /* interior of the tile */
    tile[ty + 1][tx + 1] = J_cuda[index];
    /* halo rows and columns, clamped at the image border (Neumann boundary) */
    if (ty == 0) {
        int r = (row == 0) ? 0 : row - 1;
        tile[0][tx + 1] = J_cuda[r * cols + col];
    }
    if (ty == BLOCK_SIZE - 1) {
        int r = (row == rows - 1) ? rows - 1 : row + 1;
        tile[BLOCK_SIZE + 1][tx + 1] = J_cuda[r * cols + col];
    }
    if (tx == 0) {
        int c = (col == 0) ? 0 : col - 1;
        tile[ty + 1][0] = J_cuda[row * cols + c];
    }
    if (tx == BLOCK_SIZE - 1) {
        int c = (col == cols - 1) ? cols - 1 : col + 1;
        tile[ty + 1][BLOCK_SIZE + 1] = J_cuda[row * cols + c];
    }
    __syncthreads();

    float Jc = tile[ty + 1][tx + 1];
    float n = tile[ty][tx + 1] - Jc;
    float s = tile[ty + 2][tx + 1] - Jc;
    float w = tile[ty + 1][tx] - Jc;
    float e = tile[ty + 1][tx + 2] - Jc;

    float g2 = (n * n + s * s + w * w + e * e) / (Jc * Jc);
    float l = (n + s + w + e) / Jc;
    float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1.0f + (0.25f * l);
    float qsqr = num / (den * den);

    /* diffusion coefficient (equ 33) */
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);

    /* saturate diffusion coefficient */
    if (c < 0.0f) c = 0.0f;
    else if (c > 1.0f) c = 1.0f;

    C_cuda[index] = c;
    N_C[index] = n;
    S_C[index] = s;
    W_C[index] = w;
    E_C[index] = e;
}

/* kernel 2: divergence and image update */
__global__ void srad_cuda_2(const float *E_C, const float *W_C, const float *N_C, const float *S_C, float *J_cuda,
                            const float *C_cuda, int cols, int rows, float lambda)
{
    __shared__ float c_tile[BLOCK_SIZE + 1][BLOCK_SIZE + 1];

    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = by * BLOCK_SIZE + ty;
    int col = bx * BLOCK_SIZE + tx;
    int index = row * cols + col;

    c_tile[ty][tx] = C_cuda[index];
    if (ty == BLOCK_SIZE - 1) {
        int r = (row == rows - 1) ? rows - 1 : row + 1;
        c_tile[BLOCK_SIZE][tx] = C_cuda[r * cols + col];
    }
    if (tx == BLOCK_SIZE - 1) {
        int c = (col == cols - 1) ? cols - 1 : col + 1;
        c_tile[ty][BLOCK_SIZE] = C_cuda[row * cols + c];
    }
    __syncthreads();

    float cN = c_tile[ty][tx];
    float cS = c_tile[ty + 1][tx];
    float cW = c_tile[ty][tx];
    float cE = c_tile[ty][tx + 1];

    /* divergence (equ 58) */
    float D = cN * N_C[index] + cS * S_C[index] + cW * W_C[index] + cE * E_C[index];

    /* image update (equ 61) */
    J_cuda[index] = J_cuda[index] + 0.25f * lambda * D;
}

/* speckle statistics of the region of interest, as Rodinia computes them on the host */
static float roi_q0sqr(const float *img)
{
    float sum = 0, sum2 = 0;
    int i, j;
    for (i = R1; i <= R2; i++)
        for (j = C1; j <= C2; j++) {
            float tmp = img[i * COLS + j];
            sum += tmp;
            sum2 += tmp * tmp;
        }
    int size_R = (R2 - R1 + 1) * (C2 - C1 + 1);
    float meanROI = sum / size_R;
    float varROI = (sum2 / size_R) - meanROI * meanROI;
    return varROI / (meanROI * meanROI);
}

/* the serial srad of Rodinia's OpenMP version, one iteration */
static void srad_cpu_iteration(float *img, float q0sqr, float lambda)
{
    int i, j;
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++) {
            int k = i * COLS + j;
            int iN = (i == 0) ? 0 : i - 1, iS = (i == ROWS - 1) ? ROWS - 1 : i + 1;
            int jW = (j == 0) ? 0 : j - 1, jE = (j == COLS - 1) ? COLS - 1 : j + 1;
            float Jc = img[k];
            dN_ref[k] = img[iN * COLS + j] - Jc;
            dS_ref[k] = img[iS * COLS + j] - Jc;
            dW_ref[k] = img[i * COLS + jW] - Jc;
            dE_ref[k] = img[i * COLS + jE] - Jc;
            float G2 = (dN_ref[k] * dN_ref[k] + dS_ref[k] * dS_ref[k] + dW_ref[k] * dW_ref[k] + dE_ref[k] * dE_ref[k]) /
                       (Jc * Jc);
            float L = (dN_ref[k] + dS_ref[k] + dW_ref[k] + dE_ref[k]) / Jc;
            float num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
            float den = 1 + (.25f * L);
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
            c_ref[k] = 1.0f / (1.0f + den);
            if (c_ref[k] < 0) c_ref[k] = 0;
            else if (c_ref[k] > 1) c_ref[k] = 1;
        }
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++) {
            int k = i * COLS + j;
            int iS = (i == ROWS - 1) ? ROWS - 1 : i + 1;
            int jE = (j == COLS - 1) ? COLS - 1 : j + 1;
            float cN = c_ref[k];
            float cS = c_ref[iS * COLS + j];
            float cW = c_ref[k];
            float cE = c_ref[i * COLS + jE];
            float D = cN * dN_ref[k] + cS * dS_ref[k] + cW * dW_ref[k] + cE * dE_ref[k];
            img[k] = img[k] + 0.25f * lambda * D;
        }
}

int main(int argc, char *argv[])
{
    int rows = ROWS, cols = COLS, size_I = ROWS * COLS, iter, k;
    float *J_cuda, *C_cuda, *E_C, *W_C, *N_C, *S_C;

    printf("srad: %d x %d image, %d iterations, lambda %.2f, ROI [%d:%d, %d:%d]\n", rows, cols, NITER, LAMBDA, R1, R2,
           C1, C2);
    if ((rows % BLOCK_SIZE) || (cols % BLOCK_SIZE)) {
        printf("rows and cols must be multiples of %d\n", BLOCK_SIZE);
        return 1;
    }

    /* random speckled image: J = exp(I) with I in [0, 1) */
    for (k = 0; k < size_I; k++) {
        J_init[k] = expf(rand_unit());
        J[k] = J_init[k];
        J_ref[k] = J_init[k];
    }

    CUDA_SAFE_CALL(cudaMalloc((void **)&J_cuda, sizeof(float) * size_I));
    CUDA_SAFE_CALL(cudaMalloc((void **)&C_cuda, sizeof(float) * size_I));
    CUDA_SAFE_CALL(cudaMalloc((void **)&E_C, sizeof(float) * size_I));
    CUDA_SAFE_CALL(cudaMalloc((void **)&W_C, sizeof(float) * size_I));
    CUDA_SAFE_CALL(cudaMalloc((void **)&S_C, sizeof(float) * size_I));
    CUDA_SAFE_CALL(cudaMalloc((void **)&N_C, sizeof(float) * size_I));
    CUDA_SAFE_CALL(cudaMemcpy(J_cuda, J, sizeof(float) * size_I, cudaMemcpyHostToDevice));

    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(cols / BLOCK_SIZE, rows / BLOCK_SIZE);

    printf("Start the SRAD main loop\n");
    for (iter = 0; iter < NITER; iter++) {
        float q0sqr = roi_q0sqr(J);
        fprintf(stderr, "iteration %d: q0sqr %.6f\n", iter, q0sqr);

        srad_cuda_1<<<dimGrid, dimBlock>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, q0sqr);
        CUDA_SAFE_CALL(cudaGetLastError());
        srad_cuda_2<<<dimGrid, dimBlock>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, LAMBDA);
        CUDA_SAFE_CALL(cudaGetLastError());

        CUDA_SAFE_CALL(cudaMemcpy(J, J_cuda, sizeof(float) * size_I, cudaMemcpyDeviceToHost));

        /* the CPU reference takes the same step from its own image */
        srad_cpu_iteration(J_ref, roi_q0sqr(J_ref), LAMBDA);
    }
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    printf("Computation Done\n");

    double max_rel = 0.0, max_change = 0.0;
    int bad = 0;
    for (k = 0; k < size_I; k++) {
        double rel = fabs((double)J[k] - (double)J_ref[k]) / fabs((double)J_ref[k]);
        if (!(rel <= 1e-4)) bad++;
        if (rel > max_rel) max_rel = rel;
        double ch = fabs((double)J_ref[k] - (double)J_init[k]);
        if (ch > max_change) max_change = ch;
    }
    fprintf(stderr, "max relative error %.3e, max pixel change %.4f\n", max_rel, max_change);
    printf("max relative error below 1e-4: %s\n", bad == 0 ? "yes" : "no");
    printf("image was smoothed (a pixel moved by more than 0.01): %s\n", max_change > 0.01 ? "yes" : "no");

    cudaFree(C_cuda);
    cudaFree(J_cuda);
    cudaFree(E_C);
    cudaFree(W_C);
    cudaFree(N_C);
    cudaFree(S_C);

    int pass = (bad == 0) && (max_change > 0.01);
    printf("srad: %s\n", pass ? "PASSED" : "FAILED");
    return pass ? 0 : 1;
}
