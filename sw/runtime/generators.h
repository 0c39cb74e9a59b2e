// Deterministic buffer generators shared by the manifest runner and the CPU reference programs.
// A generator defines element i purely from (seed, i), so any tool can reproduce a buffer
// without storing it; splitmix64 is used because it is tiny, well mixed and easy to re-implement.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusim::gen {

inline uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Random bits of element `index` of the stream `seed`.
inline uint64_t random_bits(uint64_t seed, uint64_t index) {
    return splitmix64(splitmix64(seed) ^ index);
}

// Uniform integer in [lo, hi] (inclusive).
inline uint32_t uniform_u32(uint64_t seed, uint64_t index, uint32_t lo, uint32_t hi) {
    uint64_t span = uint64_t(hi) - lo + 1;
    return uint32_t(lo + random_bits(seed, index) % span);
}

inline int32_t uniform_s32(uint64_t seed, uint64_t index, int32_t lo, int32_t hi) {
    uint64_t span = uint64_t(int64_t(hi) - lo + 1);
    return int32_t(int64_t(lo) + int64_t(random_bits(seed, index) % span));
}

// Uniform float in [lo, hi): 24 random bits scaled in double, then rounded once to float.
inline float uniform_f32(uint64_t seed, uint64_t index, double lo, double hi) {
    double unit = double(random_bits(seed, index) >> 40) / double(1ull << 24);
    return float(lo + (hi - lo) * unit);
}

enum class ElemType { u8, u32, s32, f32 };

inline ElemType parse_elem_type(const std::string& name) {
    if (name == "u8") return ElemType::u8;
    if (name == "u32") return ElemType::u32;
    if (name == "s32") return ElemType::s32;
    if (name == "f32") return ElemType::f32;
    throw std::invalid_argument("unknown element type '" + name + "' (expected u8, u32, s32 or f32)");
}

inline size_t elem_size(ElemType t) { return t == ElemType::u8 ? 1 : 4; }

// The bounds of a random fill must be values of the element type, the lower first.
inline void check_random_bounds(ElemType type, double lo, double hi) {
    double least = 0, most = 0;
    switch (type) {
    case ElemType::u8: most = 255; break;
    case ElemType::u32: most = 4294967295.0; break;
    case ElemType::s32: least = -2147483648.0; most = 2147483647.0; break;
    case ElemType::f32: least = -3.4028234663852886e38; most = 3.4028234663852886e38; break;
    }
    if (!(lo >= least && hi <= most && lo <= hi))
        throw std::invalid_argument("random \"min\" and \"max\" must be values of the element type, min <= max, got " +
                                    std::to_string(lo) + " and " + std::to_string(hi));
}

// Fills `out` (whole elements only; a trailing partial element stays zero) with uniform values.
template <typename Bytes>
void fill_random(Bytes& out, ElemType type, uint64_t seed, double lo, double hi) {
    check_random_bounds(type, lo, hi);
    size_t n = out.size() / elem_size(type);
    for (size_t i = 0; i < n; ++i) {
        switch (type) {
        case ElemType::u8: out[i] = uint8_t(uniform_u32(seed, i, uint32_t(lo), uint32_t(hi))); break;
        case ElemType::u32: { uint32_t v = uniform_u32(seed, i, uint32_t(lo), uint32_t(hi)); std::memcpy(&out[4 * i], &v, 4); break; }
        case ElemType::s32: { int32_t v = uniform_s32(seed, i, int32_t(lo), int32_t(hi)); std::memcpy(&out[4 * i], &v, 4); break; }
        case ElemType::f32: { float v = uniform_f32(seed, i, lo, hi); std::memcpy(&out[4 * i], &v, 4); break; }
        }
    }
}

// Fills `out` with start, start+step, ... in the element type; integers wrap to the type's width,
// so every value must be a 64-bit integer when truncated (the sequence's ends are its extremes).
template <typename Bytes>
void fill_iota(Bytes& out, ElemType type, double start, double step) {
    size_t n = out.size() / elem_size(type);
    if (n == 0) return;
    const double last = start + step * double(n - 1);
    constexpr double kTwo63 = 9223372036854775808.0;
    if (type != ElemType::f32 && !(start > -kTwo63 && start < kTwo63 && last > -kTwo63 && last < kTwo63))
        throw std::invalid_argument("iota values from " + std::to_string(start) + " to " + std::to_string(last) +
                                    " leave the range of a 64-bit integer");
    for (size_t i = 0; i < n; ++i) {
        double x = start + step * double(i);
        switch (type) {
        case ElemType::u8: out[i] = uint8_t(uint64_t(int64_t(x))); break;
        case ElemType::u32: { uint32_t v = uint32_t(uint64_t(int64_t(x))); std::memcpy(&out[4 * i], &v, 4); break; }
        case ElemType::s32: { int32_t v = int32_t(int64_t(x)); std::memcpy(&out[4 * i], &v, 4); break; }
        case ElemType::f32: { float v = float(x); std::memcpy(&out[4 * i], &v, 4); break; }
        }
    }
}

} // namespace gpusim::gen
