// Every error code's name and description, as programs print them when a call fails
// (cudaGetErrorName, cudaGetErrorString), for codes 0 to 1100: the model's answers must be the
// runtime's word for word, including for codes CUDA does not define.
#include <cstdio>
#include <string_view>
#include <cuda_runtime.h>

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) return 1;
    int defined = 0;
    for (int code = 0; code <= 1100; ++code) {
        const cudaError_t e = static_cast<cudaError_t>(code);
        const char* name = cudaGetErrorName(e);
        const char* text = cudaGetErrorString(e);
        std::printf("%d %s: %s\n", code, name ? name : "(null)", text ? text : "(null)");
        if (name && std::string_view(name) != "unrecognized error code") ++defined;
    }
    std::printf("error_names: %d codes have a name\n", defined);
    return 0;
}
