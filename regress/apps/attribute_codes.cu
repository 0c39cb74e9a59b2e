// Which device attributes a program can ask for: cudaDeviceGetAttribute for every number from 0
// to 200 on device 0, printing whether the runtime answers it or which error it returns (not the
// values, which belong to the GPU). Device-selection helpers walk these and stop at the first
// error, so the model must answer exactly the attributes the real runtime answers.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
    int answered = 0;
    for (int attr = 0; attr <= 200; ++attr) {
        int value = -12345;
        const cudaError_t e = cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(attr), 0);
        if (e == cudaSuccess) ++answered;
        std::printf("attribute %d: %s\n", attr, e == cudaSuccess ? "answered" : cudaGetErrorName(e));
        std::fprintf(stderr, "attribute %d = %d\n", attr, value);
        cudaGetLastError();
    }
    std::printf("attribute_codes: %d attributes answered\n", answered);
    int value = 0;
    std::printf("device 1: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1)));
    std::printf("device -1: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, -1)));
    std::printf("null value: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0)));
    return 0;
}
