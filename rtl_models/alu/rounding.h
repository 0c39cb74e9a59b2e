// Directed rounding for the float units. The host FPU rounds in the mode an instruction names
// (.rn .rz .rm .rp); files that use this are compiled with -frounding-math so the compiler does
// not fold or move float operations across the mode switch.
#pragma once

#include <cfenv>
#include <cstdint>
#include <string>

namespace gpusim {

// kRna (to nearest, ties away from zero) exists for conversions to tf32 only.
enum Round : uint8_t { kRn, kRz, kRm, kRp, kRna };

inline int host_round_mode(uint8_t r) {
    switch (r) {
    case kRz: return FE_TOWARDZERO;
    case kRm: return FE_DOWNWARD;
    case kRp: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

// Sets the host rounding mode for one warp instruction and restores round-to-nearest after it.
class RoundScope {
public:
    explicit RoundScope(uint8_t r) : m_set(r != kRn) {
        if (m_set) std::fesetround(host_round_mode(r));
    }
    ~RoundScope() {
        if (m_set) std::fesetround(FE_TONEAREST);
    }
    RoundScope(const RoundScope&) = delete;
    RoundScope& operator=(const RoundScope&) = delete;

private:
    bool m_set;
};

// The float rounding modifier of an instruction (.rn .rz .rm .rp), or -1 when it names none.
template <class Spec>
int float_round(const Spec& s) {
    if (s.has("rn")) return kRn;
    if (s.has("rz")) return kRz;
    if (s.has("rm")) return kRm;
    if (s.has("rp")) return kRp;
    return -1;
}

} // namespace gpusim
