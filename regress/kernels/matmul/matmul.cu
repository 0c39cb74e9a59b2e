// Tiled square matrix multiply C = A * B (row-major, n x n, n a multiple of TILE).
// Launch with block (TILE, TILE) and grid (n / TILE, n / TILE).
#define TILE 16

extern "C" __global__ void matmul(const float* A, const float* B, float* C, unsigned n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * TILE + ty;
    unsigned col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (unsigned t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (unsigned k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
