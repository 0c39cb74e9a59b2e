// A failed device-side assert: the message names the file, line, function, block and thread,
// and the host sees cudaErrorAssert.
#include <cassert>

#include "check.h"

__global__ void guarded(const int* p) {
    int v = p[threadIdx.x];
    assert(v != 42);
}

int main() {
    int h[32] = {};
    h[5] = 42;
    int* d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    guarded<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("synchronize: %s\n", cudaGetErrorName(e));
    std::printf("next call: %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)));
    return e == cudaErrorAssert ? 0 : 1;
}
