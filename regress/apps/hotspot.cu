/* Thermal simulation of a chip (temperature + power grids) in the style of Rodinia's hotspot:
 * a "pyramid" kernel that runs several time steps per launch inside a 16x16 shared-memory tile,
 * shrinking the valid region by one ring per step, with clamped borders at the chip edge.
 * Exercises 2D grids, three static shared tiles, __syncthreads in a loop, ping-pong buffers. */

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define STR_SIZE 256

/* maximum power density possible (say 300W for a 10mm x 10mm chip) */
#define MAX_PD (3.0e6)
/* required precision in degrees */
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
/* capacitance fitting factor */
#define FACTOR_CHIP 0.5

/* chip parameters */
float t_chip = 0.0005;
float chip_height = 0.016;
float chip_width = 0.016;
/* ambient temperature, assuming no package at all */
float amb_temp = 80.0;

#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

#define cudaCheck(call)                                                                              \
    do {                                                                                             \
        cudaError_t err_ = (call);                                                                   \
        if (err_ != cudaSuccess) {                                                                   \
            printf("CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

/* grid and simulation parameters (Rodinia reads these from the command line) */
int grid_rows = 48;
int grid_cols = 64;
int pyramid_height = 3;
int total_iterations = 10;

/* fixed-seed input generator: temperatures around 323-343 K, power up to ~5e-3 W per cell */
static unsigned int seed_state = 20240607u;
static float next_uniform(void)
{
    seed_state = seed_state * 1103515245u + 12345u;
    return (float)((seed_state >> 8) & 0xFFFF) / 65536.0f;
}

void generate_input(float *vect, float *power, int rows, int cols)
{
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            vect[i * cols + j] = 323.0f + 20.0f * next_uniform();
            /* a few hot functional units */
            float p = 0.5e-3f * next_uniform();
            if ((i / 8 + j / 16) % 3 == 0) p += 4.0e-3f * next_uniform();
            power[i * cols + j] = p;
        }
}

__global__ void calculate_temp(int iteration,     /* number of iterations */
                               float *power,      /* power input */
                               float *temp_src,   /* temperature input/output */
                               float *temp_dst,   /* temperature input/output */
                               int grid_cols,     /* col of grid */
                               int grid_rows,     /* row of grid */
                               int border_cols,   /* border offset */
                               int border_rows,   /* border offset */
                               float Cap,         /* capacitance */
                               float Rx, float Ry, float Rz, float step, float amb_temp)
{
    __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE]; /* saving temporary temperature result */

    float step_div_Cap;
    float Rx_1, Ry_1, Rz_1;

    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    step_div_Cap = step / Cap;
    Rx_1 = 1 / Rx;
    Ry_1 = 1 / Ry;
    Rz_1 = 1 / Rz;

    /* each block finally computes result for a small block after N iterations:
       it is the non-overlapping small block that the block is responsible for */
    int small_block_rows = BLOCK_SIZE - iteration * 2;
    int small_block_cols = BLOCK_SIZE - iteration * 2;

    /* block's position in the grid, including the halo it needs */
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + BLOCK_SIZE - 1;
    int blkXmax = blkX + BLOCK_SIZE - 1;

    /* this thread's cell in the grid */
    int yidx = blkY + ty;
    int xidx = blkX + tx;

    int loadYidx = yidx, loadXidx = xidx;
    int index = grid_cols * loadYidx + loadXidx;

    if (IN_RANGE(loadYidx, 0, grid_rows - 1) && IN_RANGE(loadXidx, 0, grid_cols - 1)) {
        temp_on_cuda[ty][tx] = temp_src[index];
        power_on_cuda[ty][tx] = power[index];
    }
    __syncthreads();

    /* part of the tile that lies inside the chip (cells outside it are never read) */
    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1) : BLOCK_SIZE - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1) : BLOCK_SIZE - 1;

    int N = ty - 1;
    int S = ty + 1;
    int W = tx - 1;
    int E = tx + 1;

    N = (N < validYmin) ? validYmin : N;
    S = (S > validYmax) ? validYmax : S;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;

    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
            computed = true;
            temp_t[ty][tx] = temp_on_cuda[ty][tx] +
                             step_div_Cap * (power_on_cuda[ty][tx] +
                                             (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0f * temp_on_cuda[ty][tx]) * Ry_1 +
                                             (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0f * temp_on_cuda[ty][tx]) * Rx_1 +
                                             (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed) /* assign the computation range */
            temp_on_cuda[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }

    /* update the global memory: after the last iteration, only threads within the
       small block hold correct values */
    if (computed) {
        temp_dst[index] = temp_t[ty][tx];
    }
}

/* compute N time steps; returns the index (0 or 1) of the buffer holding the result */
int compute_tran_temp(float *MatrixPower, float *MatrixTemp[2], int col, int row, int total_iterations,
                      int num_iterations, int blockCols, int blockRows, int borderCols, int borderRows)
{
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(blockCols, blockRows);

    float grid_height = chip_height / row;
    float grid_width = chip_width / col;

    float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
    float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
    float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
    float Rz = t_chip / (K_SI * grid_height * grid_width);

    float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
    float step = PRECISION / max_slope;
    float t;

    int src = 1, dst = 0;
    int launches = 0;
    for (t = 0; t < total_iterations; t += num_iterations) {
        int temp = src;
        src = dst;
        dst = temp;
        calculate_temp<<<dimGrid, dimBlock>>>(MIN(num_iterations, total_iterations - t), MatrixPower, MatrixTemp[src],
                                              MatrixTemp[dst], col, row, borderCols, borderRows, Cap, Rx, Ry, Rz, step,
                                              amb_temp);
        cudaCheck(cudaGetLastError());
        launches++;
    }
    printf("%d kernel launches for %d iterations\n", launches, total_iterations);
    return dst;
}

/* the same time steps on the CPU, one whole-grid step at a time */
void compute_tran_temp_cpu(float *result, float *temp, float *power, int row, int col, int iterations)
{
    float grid_height = chip_height / row;
    float grid_width = chip_width / col;
    float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
    float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
    float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
    float Rz = t_chip / (K_SI * grid_height * grid_width);
    float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
    float step = PRECISION / max_slope;
    float step_div_Cap = step / Cap;
    float Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
    int r, c, it;
    float *cur = (float *)malloc(sizeof(float) * row * col);
    for (r = 0; r < row * col; r++) cur[r] = temp[r];
    for (it = 0; it < iterations; it++) {
        for (r = 0; r < row; r++)
            for (c = 0; c < col; c++) {
                int n = r - 1, s = r + 1, w = c - 1, e = c + 1;
                CLAMP_RANGE(n, 0, row - 1);
                CLAMP_RANGE(s, 0, row - 1);
                CLAMP_RANGE(w, 0, col - 1);
                CLAMP_RANGE(e, 0, col - 1);
                float tc = cur[r * col + c];
                result[r * col + c] = tc + step_div_Cap * (power[r * col + c] +
                                                           (cur[s * col + c] + cur[n * col + c] - 2.0f * tc) * Ry_1 +
                                                           (cur[r * col + e] + cur[r * col + w] - 2.0f * tc) * Rx_1 +
                                                           (amb_temp - tc) * Rz_1);
            }
        for (r = 0; r < row * col; r++) cur[r] = result[r];
    }
    free(cur);
}

int main(int argc, char **argv)
{
    int size;
    float *FilesavingTemp, *FilesavingPower, *MatrixOut, *MatrixRef;
    float *MatrixTemp[2], *MatrixPower;

    printf("WG size of kernel = %d X %d\n", BLOCK_SIZE, BLOCK_SIZE);
    printf("grid %d x %d, pyramid height %d, %d iterations\n", grid_rows, grid_cols, pyramid_height, total_iterations);

    size = grid_rows * grid_cols;

    /* --------------- pyramid parameters --------------- */
#define EXPAND_RATE 2 /* add one iteration will extend the pyramid base by 2 per each borderline */
    int borderCols = (pyramid_height)*EXPAND_RATE / 2;
    int borderRows = (pyramid_height)*EXPAND_RATE / 2;
    int smallBlockCol = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
    int smallBlockRow = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
    int blockCols = grid_cols / smallBlockCol + ((grid_cols % smallBlockCol == 0) ? 0 : 1);
    int blockRows = grid_rows / smallBlockRow + ((grid_rows % smallBlockRow == 0) ? 0 : 1);

    FilesavingTemp = (float *)malloc(size * sizeof(float));
    FilesavingPower = (float *)malloc(size * sizeof(float));
    MatrixOut = (float *)calloc(size, sizeof(float));
    MatrixRef = (float *)calloc(size, sizeof(float));

    if (!FilesavingPower || !FilesavingTemp || !MatrixOut || !MatrixRef) {
        printf("unable to allocate memory\n");
        exit(1);
    }

    fprintf(stderr, "pyramidHeight: %d\ngridSize: [%d, %d]\nborder:[%d, %d]\nblockGrid:[%d, %d]\ntargetBlock:[%d, %d]\n",
            pyramid_height, grid_cols, grid_rows, borderCols, borderRows, blockCols, blockRows, smallBlockCol,
            smallBlockRow);

    generate_input(FilesavingTemp, FilesavingPower, grid_rows, grid_cols);

    cudaCheck(cudaMalloc((void **)&MatrixTemp[0], sizeof(float) * size));
    cudaCheck(cudaMalloc((void **)&MatrixTemp[1], sizeof(float) * size));
    cudaCheck(cudaMemcpy(MatrixTemp[0], FilesavingTemp, sizeof(float) * size, cudaMemcpyHostToDevice));
    /* buffer 1 starts as garbage-free zeros so that a missed cell shows up */
    cudaCheck(cudaMemset(MatrixTemp[1], 0, sizeof(float) * size));

    cudaCheck(cudaMalloc((void **)&MatrixPower, sizeof(float) * size));
    cudaCheck(cudaMemcpy(MatrixPower, FilesavingPower, sizeof(float) * size, cudaMemcpyHostToDevice));
    printf("Start computing the transient temperature\n");
    int ret = compute_tran_temp(MatrixPower, MatrixTemp, grid_cols, grid_rows, total_iterations, pyramid_height,
                                blockCols, blockRows, borderCols, borderRows);
    cudaCheck(cudaDeviceSynchronize());
    printf("Ending simulation\n");
    cudaCheck(cudaMemcpy(MatrixOut, MatrixTemp[ret], sizeof(float) * size, cudaMemcpyDeviceToHost));

    compute_tran_temp_cpu(MatrixRef, FilesavingTemp, FilesavingPower, grid_rows, grid_cols, total_iterations);

    /* compare: absolute error in kelvin, and how far the temperatures moved at all */
    double max_err = 0.0, max_change = 0.0;
    int i, bad = 0;
    for (i = 0; i < size; i++) {
        double err = fabs((double)MatrixOut[i] - (double)MatrixRef[i]);
        double change = fabs((double)MatrixRef[i] - (double)FilesavingTemp[i]);
        if (!(err <= 1e-3)) bad++;   /* also catches NaN */
        if (err > max_err) max_err = err;
        if (change > max_change) max_change = change;
    }
    fprintf(stderr, "max abs error %.3e K, max temperature change %.3f K\n", max_err, max_change);
    printf("max abs error below 1e-3 K: %s\n", bad == 0 ? "yes" : "no");
    printf("temperatures changed by more than 0.01 K somewhere: %s\n", max_change > 0.01 ? "yes" : "no");
    int pass = (bad == 0) && (max_change > 0.01);

    cudaFree(MatrixPower);
    cudaFree(MatrixTemp[0]);
    cudaFree(MatrixTemp[1]);
    free(MatrixOut);
    free(MatrixRef);
    free(FilesavingTemp);
    free(FilesavingPower);

    printf("hotspot: %s\n", pass ? "PASSED" : "FAILED");
    return pass ? 0 : 1;
}
