// Errors: bad launch configurations, bad pointers and directions, the last-error state, error
// names and strings, a kernel's illegal address (sticky until cudaDeviceReset). Nothing runs after
// the reset: on the H200 we capture on, the device is not available again to the same process.
#include "check.h"

__global__ void touch(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}

static void report(const char* what, cudaError_t e) { std::printf("%s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e)); }

int main() {
    int* d;
    CHECK(cudaMalloc(&d, 256 * sizeof(int)));
    touch<<<1, 2048>>>(d, 256);
    report("block of 2048", cudaGetLastError());
    report("after reading", cudaGetLastError());
    touch<<<dim3(1, 1, 0), 32>>>(d, 256);
    report("empty grid", cudaPeekAtLastError());
    report("peek again", cudaGetLastError());
    touch<<<1, 32, 1 << 20>>>(d, 256);
    report("1 MiB shared", cudaGetLastError());

    int h[4] = {};
    report("copy from a host pointer as device", cudaMemcpy(h, h + 1, 4, cudaMemcpyDeviceToHost));
    report("direction 7", cudaMemcpy(d, h, 4, cudaMemcpyKind(7)));
    report("stream create null", cudaStreamCreate(nullptr));
    report("get device null", cudaGetDevice(nullptr));
    report("error name of 9999", cudaErrorUnknown);
    std::printf("name of 700: %s\n", cudaGetErrorName(cudaErrorIllegalAddress));
    cudaGetLastError();

    // An illegal address: reported at the next synchronization, then by every call until reset.
    touch<<<1, 32>>>(reinterpret_cast<int*>(16), 32);
    report("launch", cudaGetLastError());
    report("synchronize", cudaDeviceSynchronize());
    report("malloc after the fault", cudaMalloc(&d, 16));
    report("reset", cudaDeviceReset());
    report("last error after reset", cudaGetLastError());
    return 0;
}
