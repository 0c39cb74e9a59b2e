// The peer workload GPGPU-Sim was timed on (docs/timing.md#speed): a vector add, then a
// shared-memory tree reduction of its result, 256 threads per block over 262,144 elements.
// nvcc -ptx -arch=compute_75 peer.cu -o peer.ptx
extern "C" __global__ void vadd(const float* a, const float* b, float* d, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = a[i] + b[i];
}

// Per-block sum (mod 2^32) of the u32 words; blockDim.x must be a power of two.
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
