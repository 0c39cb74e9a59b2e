// fp32 encodings and rounding toward zero, for MUFU, the sequences around it and the SFU's exec
// functions. Kept free of the SM's headers so the capture checker builds without SystemC.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace gpusim::sfu {

inline float as_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline uint32_t as_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// v rounded toward zero to fp32: round to nearest, then step a value that went up in magnitude one
// encoding down, which moves it toward zero for either sign (an overflow to infinity becomes the
// largest finite value).
inline float to_f32_toward_zero(double v) {
    const float f = float(v);
    return std::fabs(double(f)) > std::fabs(v) ? as_float(as_bits(f) - 1) : f;
}

} // namespace gpusim::sfu
