/* Blocked LU decomposition (no pivoting) of a 192x192 diagonally dominant matrix in the style of
 * Rodinia's lud: for each 16-wide block step, a diagonal kernel factors the pivot tile, a perimeter
 * kernel (2x16 threads) solves the row and column tiles, and an internal kernel (16x16 threads) updates
 * the trailing matrix; all in shared memory. Verified by multiplying L*U on the host. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define MATRIX_DIM 192 /* multiple of BLOCK_SIZE */

#define GPU_CHECK(ans) gpu_assert((ans), __FILE__, __LINE__)
static void gpu_assert(cudaError_t code, const char *file, int line) {
    if (code != cudaSuccess) {
        printf("GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
        exit(code);
    }
}

float *m;        /* host matrix, factored in place */
float *mm;       /* copy of the original */
float *d_m;      /* device matrix */

static unsigned int lud_seed = 12345u;
#define GET_RAND_FP ((float)((lud_seed = lud_seed * 1664525u + 1013904223u) >> 8) / 16777216.0f)

/* Factor the pivot tile: L (unit lower) and U overwrite it. Thread tx owns column tx. */
__global__ void lud_diagonal(float *m, int matrix_dim, int offset) {
    int i, p, r;
    __shared__ float shadow[BLOCK_SIZE][BLOCK_SIZE];

    int array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
        shadow[i][threadIdx.x] = m[array_offset + threadIdx.x];
        array_offset += matrix_dim;
    }
    __syncthreads();

    for (p = 0; p < BLOCK_SIZE - 1; p++) {
        if (threadIdx.x > p) shadow[threadIdx.x][p] /= shadow[p][p];
        __syncthreads();
        if (threadIdx.x > p) {
            for (r = p + 1; r < BLOCK_SIZE; r++) shadow[r][threadIdx.x] -= shadow[r][p] * shadow[p][threadIdx.x];
        }
        __syncthreads();
    }

    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
        m[array_offset + threadIdx.x] = shadow[i][threadIdx.x];
        array_offset += matrix_dim;
    }
}

/* Block b: the first BLOCK_SIZE threads compute U for the tile right of the pivot (forward substitution
 * with unit L), the others compute L for the tile below it (solve against U). */
__global__ void lud_perimeter(float *m, int matrix_dim, int offset) {
    __shared__ float dia[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];

    int i, j, array_offset;
    int idx;

    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x;
        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            peri_row[i][idx] = m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = threadIdx.x - BLOCK_SIZE;
        array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    __syncthreads();

    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x; /* column idx of the row tile */
        for (i = 1; i < BLOCK_SIZE; i++) {
            for (j = 0; j < i; j++) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
        }
    } else {
        idx = threadIdx.x - BLOCK_SIZE; /* row idx of the column tile */
        for (i = 0; i < BLOCK_SIZE; i++) {
            for (j = 0; j < i; j++) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();

    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x;
        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = threadIdx.x - BLOCK_SIZE;
        array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}

/* Trailing update: A_ij -= L_ik * U_kj for every tile below and right of the pivot. */
__global__ void lud_internal(float *m, int matrix_dim, int offset) {
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];

    int i;
    float sum;

    int global_row_id = offset + (blockIdx.y + 1) * BLOCK_SIZE;
    int global_col_id = offset + (blockIdx.x + 1) * BLOCK_SIZE;

    peri_row[threadIdx.y][threadIdx.x] = m[(offset + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x];
    peri_col[threadIdx.y][threadIdx.x] = m[(global_row_id + threadIdx.y) * matrix_dim + offset + threadIdx.x];
    __syncthreads();

    sum = 0;
    for (i = 0; i < BLOCK_SIZE; i++) sum += peri_col[threadIdx.y][i] * peri_row[i][threadIdx.x];
    m[(global_row_id + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x] -= sum;
}

void lud_cuda(float *m, int matrix_dim) {
    int i = 0;
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    for (i = 0; i < matrix_dim - BLOCK_SIZE; i += BLOCK_SIZE) {
        lud_diagonal<<<1, BLOCK_SIZE>>>(m, matrix_dim, i);
        GPU_CHECK(cudaGetLastError());
        lud_perimeter<<<(matrix_dim - i) / BLOCK_SIZE - 1, BLOCK_SIZE * 2>>>(m, matrix_dim, i);
        GPU_CHECK(cudaGetLastError());
        dim3 dimGrid((matrix_dim - i) / BLOCK_SIZE - 1, (matrix_dim - i) / BLOCK_SIZE - 1);
        lud_internal<<<dimGrid, dimBlock>>>(m, matrix_dim, i);
        GPU_CHECK(cudaGetLastError());
    }
    lud_diagonal<<<1, BLOCK_SIZE>>>(m, matrix_dim, i);
    GPU_CHECK(cudaGetLastError());
}

/* Multiply the unit-lower L and upper U stored in m and compare against the original. */
static int lud_verify(const float *orig, const float *lu, int size, double *max_rel) {
    double max_err = 0.0, max_val = 0.0;
    for (int i = 0; i < size; i++) {
        for (int j = 0; j < size; j++) {
            double sum = 0.0;
            int kmax = i < j ? i : j;
            for (int k = 0; k <= kmax; k++) {
                double l = (k == i) ? 1.0 : (double)lu[i * size + k];
                double u = (double)lu[k * size + j];
                sum += l * u;
            }
            double e = fabs(sum - (double)orig[i * size + j]);
            if (e > max_err) max_err = e;
            if (fabs(orig[i * size + j]) > max_val) max_val = fabs(orig[i * size + j]);
        }
    }
    *max_rel = max_err / max_val;
    return *max_rel < 1e-4;
}

int main(int argc, char *argv[]) {
    int matrix_dim = MATRIX_DIM;
    int i, j;
    (void)argc;
    (void)argv;

    printf("WG size of kernel = %d X %d\n", BLOCK_SIZE, BLOCK_SIZE);
    printf("Creating matrix internally size=%d\n", matrix_dim);

    m = (float *)malloc(sizeof(float) * matrix_dim * matrix_dim);
    mm = (float *)malloc(sizeof(float) * matrix_dim * matrix_dim);
    for (i = 0; i < matrix_dim; i++) {
        for (j = 0; j < matrix_dim; j++) m[i * matrix_dim + j] = GET_RAND_FP * 2.0f - 1.0f;
        m[i * matrix_dim + i] += (float)matrix_dim; /* diagonally dominant: no pivoting needed */
    }
    memcpy(mm, m, sizeof(float) * matrix_dim * matrix_dim);

    GPU_CHECK(cudaMalloc((void **)&d_m, matrix_dim * matrix_dim * sizeof(float)));
    GPU_CHECK(cudaMemcpy(d_m, m, matrix_dim * matrix_dim * sizeof(float), cudaMemcpyHostToDevice));

    lud_cuda(d_m, matrix_dim);
    GPU_CHECK(cudaDeviceSynchronize());

    GPU_CHECK(cudaMemcpy(m, d_m, matrix_dim * matrix_dim * sizeof(float), cudaMemcpyDeviceToHost));
    GPU_CHECK(cudaFree(d_m));

    double max_rel = 0.0;
    int ok = lud_verify(mm, m, matrix_dim, &max_rel);
    fprintf(stderr, "max |L*U - A| / max |A| = %.3e\n", max_rel);
    printf(">>>Verify<<<<\n");
    printf("L*U matches the original matrix (relative error < 1e-4): %s\n", ok ? "yes" : "no");

    free(m);
    free(mm);

    printf("lud: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
