// Per-block sum (mod 2^32) of u32 values with a shared-memory tree reduction.
// The shared array is sized by the launch (blockDim.x * 4 bytes); blockDim.x must be a power of two.
extern "C" __global__ void reduce(const unsigned* in, unsigned* out, unsigned n)
{
    extern __shared__ unsigned sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;

    sdata[tid] = (i < n) ? in[i] : 0u;
    __syncthreads();

    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
