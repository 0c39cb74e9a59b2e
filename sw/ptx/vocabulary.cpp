#include "ptx/vocabulary.h"

#include <cctype>
#include <cstring>

#include "ptx/diagnostics.h"

namespace gpusim::ptx {

bool is_special_register(const std::string& base) {
    static const char* const names[] = {
        "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
        "%gridid", "%clock", "%clock_hi", "%clock64", "%lanemask_eq", "%lanemask_lt", "%lanemask_le",
        "%lanemask_gt", "%lanemask_ge", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
        "%dynamic_smem_size", "%total_smem_size", "%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5",
        "%pm6", "%pm7", "%envreg0"};
    for (const char* n : names)
        if (base == n) return true;
    return false;
}

bool is_video_opcode(const std::string& op) {
    static const char* const names[] = {
        "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset",
        "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2",
        "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4"};
    for (const char* n : names)
        if (op == n) return true;
    return false;
}

uint64_t integer_literal(const std::string& file, const Token& t) {
    if (t.kind != Tok::Integer)
        throw PtxError(file, t.loc, fmt::format("expected an integer but found {}", t.kind == Tok::End ? std::string("end of file") : "'" + t.text + "'"));
    std::string s = t.text;
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
    int base = 10;
    size_t start = 0;
    if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; start = 2; }
    else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; start = 2; }
    else if (s.size() > 1 && s[0] == '0') { base = 8; start = 1; }
    uint64_t v = 0;
    for (size_t k = start; k < s.size(); ++k) {
        int d = std::isdigit(static_cast<unsigned char>(s[k])) ? s[k] - '0' : std::tolower(s[k]) - 'a' + 10;
        if (d >= base) throw PtxError(file, t.loc, fmt::format("invalid digit in '{}'", t.text));
        unsigned __int128 next = static_cast<unsigned __int128>(v) * base + d;
        if (next > UINT64_MAX) throw PtxError(file, t.loc, fmt::format("integer '{}' does not fit in 64 bits", t.text));
        v = static_cast<uint64_t>(next);
    }
    return v;
}

uint64_t float_literal_bits(const Token& t, bool single) {
    const std::string& s = t.text;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        uint64_t b = std::stoull(s.substr(2), nullptr, 16);
        if (single) return b;
        float f; uint32_t b32 = static_cast<uint32_t>(b); std::memcpy(&f, &b32, 4);
        double d = f; uint64_t out; std::memcpy(&out, &d, 8); return out;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        uint64_t b = std::stoull(s.substr(2), nullptr, 16);
        if (!single) return b;
        double d; std::memcpy(&d, &b, 8);
        float f = static_cast<float>(d); uint32_t out; std::memcpy(&out, &f, 4); return out;
    }
    double d = std::stod(s);
    if (single) { float f = static_cast<float>(d); uint32_t out; std::memcpy(&out, &f, 4); return out; }
    uint64_t out; std::memcpy(&out, &d, 8); return out;
}

} // namespace gpusim::ptx
