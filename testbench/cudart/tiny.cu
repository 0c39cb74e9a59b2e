// Source of tiny.fatbin (nvcc -fatbin -gencode arch=compute_75,code=compute_75 tiny.cu), the
// fatbinary the parser test reads.
__global__ void tiny(int* p) { p[threadIdx.x] = threadIdx.x; }
