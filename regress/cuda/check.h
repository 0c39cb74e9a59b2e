// Shared by the CUDA test programs: stop with a message naming the call when a runtime call fails.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::printf("%s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            std::printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);           \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)
