// The launch path CUDA removed in version 10, which the replacement libcudart still provides:
// cudaConfigureCall, then cudaSetupArgument for each argument at its offset, then cudaLaunch
// with the kernel's host stub. Include after cuda_runtime.h.
#pragma once

#include <cstddef>

extern "C" {
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared, cudaStream_t stream);
cudaError_t cudaSetupArgument(const void* arg, size_t size, size_t offset);
cudaError_t cudaLaunch(const void* func);
}
