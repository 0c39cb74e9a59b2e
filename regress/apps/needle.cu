/* Needleman-Wunsch global alignment of two 320-residue sequences in the style of Rodinia's needle:
 * the (N+1)x(N+1) score matrix is processed as 16x16 tiles along anti-diagonal strips (one launch per
 * strip, upper-left then lower-right half), each tile staged in shared memory and filled diagonal by
 * diagonal by 16 threads. Exercises shared 2D arrays, negative pointer offsets, many tiny launches. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define SEQ_LEN 320 /* multiple of BLOCK_SIZE */
#define PENALTY 10
#define ALPHABET 20

#define CUDA_CHECK(x)                                                                          \
    do {                                                                                       \
        cudaError_t err__ = (x);                                                               \
        if (err__ != cudaSuccess) {                                                            \
            printf("%s:%d: CUDA error: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

int blosum_like[ALPHABET][ALPHABET];
int seq_a[SEQ_LEN + 1], seq_b[SEQ_LEN + 1];

__device__ __host__ inline int maximum(int a, int b, int c) {
    int k;
    if (a <= b) k = b;
    else k = a;
    if (k <= c) return c;
    else return k;
}

/* Work shared by both kernels: fill tile (b_index_x, b_index_y). */
__device__ __forceinline__ void needle_tile(int *reference, int *matrix_cuda, int cols, int penalty, int b_index_x,
                                            int b_index_y, int (*temp)[BLOCK_SIZE + 1], int (*ref)[BLOCK_SIZE]) {
    int tx = threadIdx.x;

    /* index: first row of the tile, column tx; index_w / index_nw: the west border and the corner. */
    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + cols;
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

    if (tx == 0) temp[tx][0] = matrix_cuda[index_nw];

    /* Start one row above the tile and step down: ref_above[cols * (ty + 1)] is row ty of the tile. */
    const int *ref_above = &reference[index - cols];
    for (int ty = 0; ty < BLOCK_SIZE; ty++) ref[ty][tx] = ref_above[cols * (ty + 1)];

    __syncthreads();

    /* West border: a pointer to the tile's first cell of row tx, read one element to its left. */
    const int *row_tx = &matrix_cuda[index_w + 1 + cols * tx];
    temp[tx + 1][0] = row_tx[-1];
    /* North border: one row above this thread's first cell. */
    const int *first = &matrix_cuda[index];
    temp[0][tx + 1] = first[-cols];

    __syncthreads();

    /* Upper-left triangle of the tile, one anti-diagonal per step. */
    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_index_x = tx + 1;
            int t_index_y = m - tx + 1;
            int *cell = &temp[t_index_y][t_index_x];
            /* north-west, west and north neighbours at negative offsets from the cell */
            *cell = maximum(cell[-(BLOCK_SIZE + 1) - 1] + ref[t_index_y - 1][t_index_x - 1], cell[-1] - penalty,
                            cell[-(BLOCK_SIZE + 1)] - penalty);
        }
        __syncthreads();
    }

    /* Lower-right triangle. */
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_index_x = tx + BLOCK_SIZE - m;
            int t_index_y = BLOCK_SIZE - tx;
            temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                                 temp[t_index_y][t_index_x - 1] - penalty,
                                                 temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }

    for (int ty = 0; ty < BLOCK_SIZE; ty++) matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

/* Strip i of the upper-left half: blocks (bx, i - 1 - bx). */
__global__ void needle_cuda_shared_1(int *reference, int *matrix_cuda, int cols, int penalty, int i, int block_width) {
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x;
    (void)block_width;
    needle_tile(reference, matrix_cuda, cols, penalty, bx, i - 1 - bx, temp, ref);
}

/* Strip i of the lower-right half. */
__global__ void needle_cuda_shared_2(int *reference, int *matrix_cuda, int cols, int penalty, int i, int block_width) {
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x;
    needle_tile(reference, matrix_cuda, cols, penalty, bx + block_width - i, block_width - bx - 1, temp, ref);
}

static unsigned long long rng_state = 7777ULL;
static int rng_below(int n) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((rng_state >> 33) % (unsigned long long)n);
}

int main(int argc, char **argv) {
    int max_rows = SEQ_LEN + 1, max_cols = SEQ_LEN + 1;
    int penalty = PENALTY;
    int i, j;
    (void)argc;
    (void)argv;

    printf("WG updated: Needleman-Wunsch, %d x %d, penalty %d\n", SEQ_LEN, SEQ_LEN, penalty);

    /* A symmetric substitution table: positive on the diagonal, mostly negative elsewhere. */
    for (i = 0; i < ALPHABET; i++)
        for (j = 0; j < ALPHABET; j++)
            blosum_like[i][j] = (i == j) ? 4 + (i % 5) : ((i * 7 + j * 7 + i * j) % 6) - 4;

    /* seq_b is a mutated copy of seq_a so that the alignment is meaningful. */
    for (i = 1; i <= SEQ_LEN; i++) seq_a[i] = rng_below(ALPHABET);
    for (i = 1; i <= SEQ_LEN; i++) seq_b[i] = (rng_below(100) < 70) ? seq_a[i] : rng_below(ALPHABET);

    int size = max_rows * max_cols;
    int *referrence = (int *)malloc(size * sizeof(int));
    int *input_itemsets = (int *)malloc(size * sizeof(int));
    int *output_itemsets = (int *)malloc(size * sizeof(int));
    int *cpu_itemsets = (int *)malloc(size * sizeof(int));
    if (!referrence || !input_itemsets || !output_itemsets || !cpu_itemsets) {
        fprintf(stderr, "error: can not allocate memory\n");
        return 1;
    }

    memset(input_itemsets, 0, size * sizeof(int));
    memset(referrence, 0, size * sizeof(int));
    for (i = 1; i < max_rows; i++)
        for (j = 1; j < max_cols; j++) referrence[i * max_cols + j] = blosum_like[seq_a[i]][seq_b[j]];
    for (i = 1; i < max_rows; i++) input_itemsets[i * max_cols] = -i * penalty;
    for (j = 1; j < max_cols; j++) input_itemsets[j] = -j * penalty;

    int *referrence_cuda, *matrix_cuda;
    CUDA_CHECK(cudaMalloc((void **)&referrence_cuda, sizeof(int) * size));
    CUDA_CHECK(cudaMalloc((void **)&matrix_cuda, sizeof(int) * size));
    CUDA_CHECK(cudaMemcpy(referrence_cuda, referrence, sizeof(int) * size, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(matrix_cuda, input_itemsets, sizeof(int) * size, cudaMemcpyHostToDevice));

    dim3 dimGrid;
    dim3 dimBlock(BLOCK_SIZE, 1);
    int block_width = (max_cols - 1) / BLOCK_SIZE;

    printf("Processing top-left matrix\n");
    for (i = 1; i <= block_width; i++) {
        dimGrid.x = i;
        dimGrid.y = 1;
        needle_cuda_shared_1<<<dimGrid, dimBlock>>>(referrence_cuda, matrix_cuda, max_cols, penalty, i, block_width);
        CUDA_CHECK(cudaGetLastError());
    }
    printf("Processing bottom-right matrix\n");
    for (i = block_width - 1; i >= 1; i--) {
        dimGrid.x = i;
        dimGrid.y = 1;
        needle_cuda_shared_2<<<dimGrid, dimBlock>>>(referrence_cuda, matrix_cuda, max_cols, penalty, i, block_width);
        CUDA_CHECK(cudaGetLastError());
    }

    CUDA_CHECK(cudaMemcpy(output_itemsets, matrix_cuda, sizeof(int) * size, cudaMemcpyDeviceToHost));

    /* CPU dynamic programme. */
    memcpy(cpu_itemsets, input_itemsets, size * sizeof(int));
    for (i = 1; i < max_rows; i++)
        for (j = 1; j < max_cols; j++)
            cpu_itemsets[i * max_cols + j] =
                maximum(cpu_itemsets[(i - 1) * max_cols + j - 1] + referrence[i * max_cols + j],
                        cpu_itemsets[i * max_cols + j - 1] - penalty, cpu_itemsets[(i - 1) * max_cols + j] - penalty);

    int mismatches = 0;
    unsigned int checksum = 0;
    for (i = 0; i < size; i++) {
        if (output_itemsets[i] != cpu_itemsets[i]) {
            if (mismatches < 5) printf("mismatch at (%d, %d): gpu %d cpu %d\n", i / max_cols, i % max_cols, output_itemsets[i], cpu_itemsets[i]);
            mismatches++;
        }
        checksum = checksum * 33u + (unsigned int)output_itemsets[i];
    }
    printf("final alignment score: %d\n", output_itemsets[size - 1]);
    printf("score matrix checksum: %u\n", checksum);
    printf("mismatches against CPU: %d\n", mismatches);

    CUDA_CHECK(cudaFree(referrence_cuda));
    CUDA_CHECK(cudaFree(matrix_cuda));
    free(referrence);
    free(input_itemsets);
    free(output_itemsets);
    free(cpu_itemsets);

    printf("needle: %s\n", mismatches == 0 ? "PASSED" : "FAILED");
    return mismatches == 0 ? 0 : 1;
}
