// A warp shuffle whose source lane is outside the shuffle's member mask (and not executing it), as
// NVIDIA's reduction sample (reduce7) does when it folds the per-warp sums: the PTX ISA leaves the
// value undefined; an H100 gives 0, and the sample relies on it.
#include <cstdio>
__global__ void k(int* out, const int* in) {
    int t = threadIdx.x;
    int v = in[t];
    unsigned m = __ballot_sync(0xffffffff, t < 8);
    if (t < 8) {
        out[t] = __shfl_down_sync(m, v, 16);
        out[32 + t] = __shfl_down_sync(m, v, 4);
    }
}
int main() {
    int h[64], *d, *o;
    for (int i = 0; i < 32; ++i) h[i] = 1000 + i;
    cudaMalloc(&d, 128); cudaMalloc(&o, 256); cudaMemset(o, 0xff, 256);
    cudaMemcpy(d, h, 128, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(o, d);
    cudaMemcpy(h, o, 256, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; ++i) printf("lane %d: down16 %d down4 %d\n", i, h[i], h[32 + i]);
}
