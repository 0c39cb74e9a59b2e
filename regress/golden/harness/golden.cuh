// Capture harness for the golden instruction and program tests (regress/golden/<family>/).
//
// A family file <family>.cu names its inputs with GOLDEN_FAMILY, defines kernels with GOLDEN_KERNEL,
// lists them in a table with GOLDEN_CASES and ends with GOLDEN_MAIN. Every kernel has the same signature: three read-only input arrays a, b, c and one
// output array d, each of kGoldenN 64-bit elements; thread i usually computes d[i] = op(a[i], b[i], c[i]).
//
// The host part of this header (compiled only for the capture program) loads the committed
// <family>.ptx through the CUDA driver API, so the GPU runs exactly the PTX the model is tested on.
// It generates the inputs, runs every case and writes in/{a,b,c}.bin, ref/<case>.bin and
// manifest.json, the contract the model's regression test reads. See regress/golden/README.md.
#pragma once

#include <cstdint>

typedef unsigned long long u64;
typedef long long s64;
typedef unsigned int u32;

constexpr int kGoldenN = 2048;  // elements per input/output array

#define GOLDEN_KERNEL(name) \
    extern "C" __global__ void name(const u64* __restrict__ a, const u64* __restrict__ b, \
                                    const u64* __restrict__ c, u64* __restrict__ d)

#define GOLDEN_TID (blockIdx.x * blockDim.x + threadIdx.x)

// How the inputs of one array are drawn (edge values first, then random values).
enum GoldenInput { kU32, kU64, kF32, kF64, kF16, kBytes, kSmall };

// One launch: kernel name, grid and block size in x, and the comparison the model must pass.
// tolerance is "" for bit-exact, or a JSON object, e.g. {"type":"f32","ulp":1.5} (see README.md).
struct GoldenCase {
    const char* name;
    unsigned grid;
    unsigned block;
    const char* tolerance;
};

#define GOLDEN_FAMILY(family, ia, ib, ic) \
    [[maybe_unused]] static const char* const kGoldenFamily = family; \
    [[maybe_unused]] static const GoldenInput kGoldenInputs[3] = {ia, ib, ic};

#define GOLDEN_CASES [[maybe_unused]] static const GoldenCase kGoldenCases[] =

#ifndef __CUDA_ARCH__
#include "golden_host.h"
#define GOLDEN_MAIN \
    int main(int argc, char** argv) { \
        return golden_main(argc, argv, kGoldenFamily, kGoldenInputs, kGoldenCases, \
                           sizeof(kGoldenCases) / sizeof(kGoldenCases[0])); \
    }
#else
#define GOLDEN_MAIN
#endif
