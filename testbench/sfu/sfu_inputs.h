// The inputs of the SFU captures, shared by the capture program (sfu_capture.cu, on the GPU) and
// the checker (sfu_check.cpp, against the model), so both see the same operands.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define SFU_HD __host__ __device__
#else
#define SFU_HD
#endif

namespace sfu_inputs {

SFU_HD inline uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A random fp32 operand: raw bits half of the time, otherwise a magnitude in 2^[-30, 30] or 2^[-3, 8].
SFU_HD inline uint32_t random_f32(uint64_t h) {
    const uint32_t mode = uint32_t(h >> 62), lo = uint32_t(h), mant = lo & 0x7FFFFF, sign = (lo >> 31) << 31;
    if (mode < 2) return lo;
    const int e = mode == 2 ? int((h >> 40) % 61) - 30 : int((h >> 40) % 12) - 3;
    return sign | uint32_t(e + 127) << 23 | mant;
}

enum Kind { kSweep = 0, kRandomF32 = 1, kRandomBits = 2, kRandomPair = 3 };

// Operands of element i of a capture: a sweep runs base + i*stride; the random kinds hash seed and i.
SFU_HD inline void operands(int kind, uint32_t base, uint32_t stride, uint64_t seed, uint64_t i, uint32_t& a, uint32_t& b) {
    b = 0;
    if (kind == kSweep) a = base + uint32_t(i) * stride;
    else if (kind == kRandomF32) a = random_f32(mix(seed ^ (i * 2)));
    else if (kind == kRandomBits) a = uint32_t(mix(seed ^ (i * 2)));
    else {
        a = random_f32(mix(seed ^ (i * 2)));
        b = random_f32(mix(seed ^ (i * 2 + 1)));
    }
}

// The instructions, by the names the capture lists use.
enum Op { RCP, RCPF, SQRT, SQRTF, RSQ, RSQF, EX2, EX2F, LG2, LG2F, SIN, SINF, COS, COSF, TANH,
          TANH_H, TANH_B, EX2_H, EX2_B, TANH_H2, TANH_B2, EX2_H2, EX2_B2, DIVA, DIVAF, DIVF, DIVFF, NOPS };
constexpr const char* kNames[NOPS] = {"rcp", "rcp.ftz", "sqrt", "sqrt.ftz", "rsqrt", "rsqrt.ftz", "ex2", "ex2.ftz", "lg2",
    "lg2.ftz", "sin", "sin.ftz", "cos", "cos.ftz", "tanh", "tanh.f16", "tanh.bf16", "ex2.f16", "ex2.ftz.bf16", "tanh.f16x2",
    "tanh.bf16x2", "ex2.f16x2", "ex2.ftz.bf16x2", "div.approx", "div.approx.ftz", "div.full", "div.full.ftz"};

} // namespace sfu_inputs
