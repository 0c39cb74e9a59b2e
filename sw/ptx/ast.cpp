#include "ptx/ast.h"

#include <algorithm>

namespace gpusim::ptx {

const char* space_name(Space s) {
    switch (s) {
    case Space::None: return "generic";
    case Space::Reg: return "reg";
    case Space::Global: return "global";
    case Space::Const: return "const";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Param: return "param";
    }
    return "?";
}

bool Instruction::has_mod(const std::string& m) const {
    return std::find(mods.begin(), mods.end(), m) != mods.end();
}

std::string Instruction::full_name() const {
    std::string s = opcode;
    for (const auto& m : mods) s += "." + m;
    return s;
}

const Function* Module::find_function(const std::string& name) const {
    for (const auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

uint32_t type_size(const std::string& t) {
    if (t == "pred") return 0;
    // Opaque texture, sampler and surface references: the variable holds the object's 64-bit handle.
    if (t == "texref" || t == "samplerref" || t == "surfref") return 8;
    if (t == "f16x2") return 4;   // a register type only: two packed halves
    if (t.size() < 2) return 0;
    char c = t[0];
    if (c != 'b' && c != 'u' && c != 's' && c != 'f') return 0;
    std::string bits = t.substr(1);
    if (bits == "8") return c == 'f' ? 0 : 1;
    if (bits == "16") return 2;
    if (bits == "32") return 4;
    if (bits == "64") return 8;
    if (bits == "128" && c == 'b') return 16;
    return 0;
}

} // namespace gpusim::ptx
