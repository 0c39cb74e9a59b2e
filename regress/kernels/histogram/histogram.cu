// 256-bin histogram of bytes: per-block shared-memory bins, then merged into global bins.
// bins must be zeroed before the launch. Uses a grid-stride loop over the input.
#define NBINS 256

extern "C" __global__ void histogram(const unsigned char* in, unsigned* bins, unsigned n)
{
    __shared__ unsigned sbins[NBINS];

    for (unsigned b = threadIdx.x; b < NBINS; b += blockDim.x)
        sbins[b] = 0u;
    __syncthreads();

    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&sbins[in[i]], 1u);
    __syncthreads();

    for (unsigned b = threadIdx.x; b < NBINS; b += blockDim.x) {
        unsigned v = sbins[b];
        if (v != 0u)
            atomicAdd(&bins[b], v);
    }
}
