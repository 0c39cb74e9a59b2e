#include "ptx/vocabulary.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "ptx/diagnostics.h"

namespace gpusim::ptx {

bool is_special_register(const std::string& base) {
    // Every special register of PTX ISA 9.x; the decoder says which the model cannot answer.
    static const char* const names[] = {
        "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
        "%gridid", "%clock", "%clock_hi", "%clock64", "%lanemask_eq", "%lanemask_lt", "%lanemask_le",
        "%lanemask_gt", "%lanemask_ge", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
        "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size", "%is_explicit_cluster", "%clusterid",
        "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank",
        "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
        "%reserved_smem_offset_0", "%reserved_smem_offset_1", "%current_graph_exec"};
    for (const char* n : names)
        if (base == n) return true;
    // %pm0..%pm7, %pm0_64..%pm7_64, %envreg0..%envreg31
    auto numbered = [&](const char* prefix, int count, const char* suffix) {
        const size_t p = std::strlen(prefix), s = std::strlen(suffix);
        if (base.size() <= p + s || base.compare(0, p, prefix) != 0 || base.compare(base.size() - s, s, suffix) != 0) return false;
        const std::string digits = base.substr(p, base.size() - p - s);
        if (digits.empty() || digits.size() > 2 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return false;
        return (digits.size() == 1 || digits[0] != '0') && std::stoi(digits) < count;
    };
    return numbered("%pm", 8, "") || numbered("%pm", 8, "_64") || numbered("%envreg", 32, "");
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

double decimal_literal(const std::string& text) {
    // strtod, unlike std::stod, gives +inf on overflow and the nearest subnormal or zero on
    // underflow instead of throwing.
    return std::strtod(text.c_str(), nullptr);
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
    double d = decimal_literal(s);
    if (single) { float f = static_cast<float>(d); uint32_t out; std::memcpy(&out, &f, 4); return out; }
    uint64_t out; std::memcpy(&out, &d, 8); return out;
}

} // namespace gpusim::ptx
