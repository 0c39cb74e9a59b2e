// Single-precision a*x plus y, in place: y[i] = a * x[i] + y[i] for i < n.
extern "C" __global__ void saxpy(unsigned n, float a, const float* x, float* y)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
