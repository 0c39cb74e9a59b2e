#include "sm/op_select.h"

#include <algorithm>

namespace gpusim {

namespace {
bool is_type_name(const std::string& m) {
    static const char* const types[] = {"pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
                                        "s8", "s16", "s32", "s64", "f16", "f16x2", "f32", "f64"};
    return std::any_of(std::begin(types), std::end(types), [&](const char* t) { return m == t; });
}
} // namespace

bool OpSpec::has(const std::string& m) const { return std::find(mods.begin(), mods.end(), m) != mods.end(); }

std::string OpSpec::type(int k) const {
    for (const auto& m : mods)
        if (is_type_name(m) && k-- == 0) return m;
    return "";
}

std::string OpSpec::full_name() const {
    std::string s = opcode;
    for (const auto& m : mods) s += "." + m;
    return s;
}

OpChoice select_op(const OpSpec& s) {
    // The video and bit units come before the integer unit, which refuses every .sat form it does not know.
    for (auto sel : {select_control_op, select_warp_op, select_memory_op, select_video_op, select_bit_op,
                     select_int_op, select_cvt_op, select_half_op, select_float_op, select_sfu_op}) {
        OpChoice c = sel(s);
        if (c.fn || !c.error.empty()) return c;
    }
    OpChoice none;
    none.error = "unsupported instruction '" + s.full_name() + "'";
    return none;
}

} // namespace gpusim
