// Helpers shared by the float units: subnormal flushing (.ftz), the final clamp (.sat) and the
// canonical fp32 NaN that NVIDIA GPUs return from every single-precision operation.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "isa/exec_context.h"
#include "isa/op_registry.h"

namespace gpusim {

constexpr uint32_t kCanonicalNanF32 = 0x7FFFFFFFu;
constexpr uint64_t kQuietBitF64 = uint64_t(1) << 51;

inline double quiet(double x) { return get<double>(put<double>(x) | kQuietBitF64); }

// fp64 NaN operands propagate their payload (measured on the H200): the result is the last NaN
// among `xs`, quieted, so callers list the operands in rising priority (add/sub/mul: b over a;
// div: a over b; fma: b over c over a). Returns false when no operand is a NaN. An invalid
// operation on numbers gives 0xFFF8000000000000, as on the host.
template <class... D>
bool propagate_nan(double& out, D... xs) {
    bool any = false;
    ((std::isnan(xs) ? (out = quiet(xs), any = true) : false), ...);
    return any;
}

// min/max of two values in the modes of sm_80 and later (PTX ISA, min/max): minNum/maxNum with -0
// below +0; NanOut (.NaN): a NaN operand gives NaN; XorSign (.xorsign.abs): the magnitudes are
// compared and the result takes the sign a ^ b. A NaN result is returned as a quiet NaN, which
// the caller writes in its format's canonical form.
template <bool Max, bool NanOut, bool XorSign, class T>
T min_max_mode(T a, T b) {
    const bool negative = std::signbit(a) != std::signbit(b);
    if constexpr (XorSign) {
        a = std::fabs(a);
        b = std::fabs(b);
    }
    if ((std::isnan(a) && std::isnan(b)) || (NanOut && (std::isnan(a) || std::isnan(b))))
        return std::numeric_limits<T>::quiet_NaN();
    T r;
    if (std::isnan(a)) r = b;
    else if (std::isnan(b)) r = a;
    else if (a == b) r = std::signbit(a) == Max ? b : a;
    else r = (Max ? a > b : a < b) ? a : b;
    if constexpr (XorSign) r = std::copysign(r, negative ? T(-1) : T(1));
    return r;
}

template <class T> T flush(T x) {
    if (std::fpclassify(x) == FP_SUBNORMAL) return std::signbit(x) ? T(-0.0) : T(0.0);
    return x;
}

template <class T, bool Ftz, bool Sat>
uint64_t finish(T r) {
    if constexpr (Ftz) r = flush(r);
    if constexpr (Sat) r = !(r > T(0)) ? T(0) : r > T(1) ? T(1) : r;  // NaN and -0 give +0
    if constexpr (std::is_same_v<T, float>)
        if (std::isnan(r)) return kCanonicalNanF32;
    return put<T>(r);
}

// .ftz on fp32 results: the GPU detects tininess before rounding, so a result whose exact value
// lies below the smallest normal flushes to zero even when it would round up to it. `wide` is the
// operation redone in double precision; only .ftz forms pay for it.
inline float flush_tiny(float r, double wide) {
    if (wide != 0 && std::fabs(wide) < double(std::numeric_limits<float>::min())) return std::copysign(0.0f, float(wide));
    return r;
}

template <class T, bool Ftz> T in(uint64_t v) {
    T x = get<T>(v);
    if constexpr (Ftz) x = flush(x);
    return x;
}

// Float compares: ordered forms are false when either input is NaN, the "u" forms are true.
enum FCmp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kEqu, kNeu, kLtu, kLeu, kGtu, kGeu, kNum, kNan };

template <class T, int C>
bool fcompare(T a, T b) {
    bool un = std::isnan(a) || std::isnan(b);
    switch (C) {
    case kEq: return !un && a == b;
    case kNe: return !un && a != b;
    case kLt: return !un && a < b;
    case kLe: return !un && a <= b;
    case kGt: return !un && a > b;
    case kGe: return !un && a >= b;
    case kEqu: return un || a == b;
    case kNeu: return un || a != b;
    case kLtu: return un || a < b;
    case kLeu: return un || a <= b;
    case kGtu: return un || a > b;
    case kGeu: return un || a >= b;
    case kNum: return !un;
    default: return un;
    }
}


// The comparison a setp/set names, or -1.
inline int fcompare_code(const OpSpec& s) {
    static const std::pair<const char*, int> names[] = {
        {"eq", kEq}, {"ne", kNe}, {"lt", kLt}, {"le", kLe}, {"gt", kGt}, {"ge", kGe}, {"equ", kEqu},
        {"neu", kNeu}, {"ltu", kLtu}, {"leu", kLeu}, {"gtu", kGtu}, {"geu", kGeu}, {"num", kNum}, {"nan", kNan}};
    for (auto& [n, code] : names)
        if (s.has(n)) return code;
    return -1;
}

} // namespace gpusim
