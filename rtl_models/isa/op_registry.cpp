#include "isa/op_registry.h"

#include <algorithm>

#include <fmt/format.h>

namespace gpusim {

namespace {
bool is_type_name(const std::string& m) {
    static const char* const types[] = {"pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
                                        "s8", "s16", "s32", "s64", "f16", "f16x2", "f32", "f64", "bf16", "bf16x2",
                                        "tf32", "e4m3x2", "e5m2x2"};
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

void OpRegistry::add(const char* unit, OpSelector select) { m_units.push_back({unit, select}); }

OpChoice OpRegistry::select(const OpSpec& s) const {
    OpChoice taken, refused;
    const char* taker = nullptr;
    for (const Unit& u : m_units) {
        OpChoice c = u.select(s);
        if (c.fn) {
            if (taker) {
                OpChoice defect;
                defect.error = fmt::format("'{}' is taken by two units, {} and {} (a defect of the model)", s.full_name(), taker, u.name);
                return defect;
            }
            taker = u.name;
            taken = std::move(c);
        } else if (!c.error.empty() && refused.error.empty()) {
            refused = std::move(c);
        }
    }
    if (taker) return taken;
    if (refused.error.empty()) refused.error = "unsupported instruction '" + s.full_name() + "'";
    return refused;
}

} // namespace gpusim
