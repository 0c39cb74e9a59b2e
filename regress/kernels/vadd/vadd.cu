// Element-wise vector add: d[i] = a[i] + b[i] for i < n.
extern "C" __global__ void vadd(const float* a, const float* b, float* d, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = a[i] + b[i];
}
