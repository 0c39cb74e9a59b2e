// Decoding of the video instructions: which opcodes and modifiers exist (select_video_op), the
// operand selectors and negations (add_operand), and the 64-bit packing of both.
#include "video/video_code.h"

#include <set>

#include <fmt/format.h>

#include "isa/op_registry.h"

namespace gpusim::video {
namespace {

// ---- packing: one field per Code member ----
struct Field { int pos; int bits; };
constexpr Field kOpF{0, 4}, kLanesF{4, 3}, kDSignedF{7, 1}, kASignedF{8, 1}, kBSignedF{9, 1}, kSatF{10, 1},
    kOp2F{11, 2}, kCmpF{13, 3}, kWrapF{16, 1}, kPlusOneF{17, 1}, kScaleF{18, 2}, kNegAF{20, 1}, kNegBF{21, 1},
    kNegCF{22, 1}, kDSelF{23, 4}, kASelF{27, 4 * kLaneIndexBits}, kBSelF{39, 4 * kLaneIndexBits};
static_assert(kBSelF.pos + kBSelF.bits <= 64, "the video code must fit in Inst::offset");

uint64_t put_field(uint64_t v, Field f) { return (v & ((uint64_t(1) << f.bits) - 1)) << f.pos; }
uint64_t get_field(uint64_t bits, Field f) { return (bits >> f.pos) & ((uint64_t(1) << f.bits) - 1); }

// SIMD lane masks and default selectors: asel .h10 / .b3210 reads a's own lanes in place, bsel
// .h32 / .b7654 reads b's.
uint8_t all_lanes(int lanes) { return uint8_t((1u << lanes) - 1); }
uint16_t in_place(int lanes, int first) {
    uint16_t s = 0;
    for (int i = 0; i < lanes; ++i) s = uint16_t(s | ((first + i) << (kLaneIndexBits * i)));
    return s;
}

struct Name { const char* text; Op op; int lanes; };
constexpr Name kNames[] = {
    {"vadd", Op::Add, 1}, {"vsub", Op::Sub, 1}, {"vabsdiff", Op::Absdiff, 1}, {"vmin", Op::Min, 1},
    {"vmax", Op::Max, 1}, {"vshl", Op::Shl, 1}, {"vshr", Op::Shr, 1}, {"vmad", Op::Mad, 1}, {"vset", Op::Set, 1},
    {"vadd2", Op::Add, 2}, {"vsub2", Op::Sub, 2}, {"vavrg2", Op::Avrg, 2}, {"vabsdiff2", Op::Absdiff, 2},
    {"vmin2", Op::Min, 2}, {"vmax2", Op::Max, 2}, {"vset2", Op::Set, 2},
    {"vadd4", Op::Add, 4}, {"vsub4", Op::Sub, 4}, {"vavrg4", Op::Avrg, 4}, {"vabsdiff4", Op::Absdiff, 4},
    {"vmin4", Op::Min, 4}, {"vmax4", Op::Max, 4}, {"vset4", Op::Set, 4}};

bool cmp_of(const std::string& m, Cmp& out) {
    static const std::pair<const char*, Cmp> names[] = {{"eq", Cmp::Eq}, {"ne", Cmp::Ne}, {"lt", Cmp::Lt},
                                                        {"le", Cmp::Le}, {"gt", Cmp::Gt}, {"ge", Cmp::Ge}};
    for (auto& [n, c] : names)
        if (m == n) { out = c; return true; }
    return false;
}

// Reads the modifiers into `k`; returns "" or what is wrong.
std::string read_modifiers(const OpSpec& s, Code& k) {
    const bool shift = k.op == Op::Shl || k.op == Op::Shr;
    std::vector<bool> types;     // is_signed of each type modifier, in order
    int cmps = 0, modes = 0, scales = 0, op2s = 0;
    std::set<std::string> seen;  // the modifiers other than types, which may repeat
    for (const auto& m : s.mods) {
        if (m == "u32" || m == "s32") { types.push_back(m == "s32"); continue; }
        if (!seen.insert(m).second) return fmt::format("modifier '.{}' is repeated", m);
        Cmp cmp;
        if (m == "sat" && k.op != Op::Set) k.sat = true;
        else if (m == "add" && k.op != Op::Mad) { k.op2 = Op2::Add; ++op2s; }
        else if ((m == "min" || m == "max") && k.lanes == 1 && k.op != Op::Mad) {
            k.op2 = m == "min" ? Op2::Min : Op2::Max;
            ++op2s;
        }
        else if (k.op == Op::Set && cmp_of(m, cmp)) { k.cmp = cmp; ++cmps; }
        else if (shift && (m == "clamp" || m == "wrap")) { k.wrap = m == "wrap"; ++modes; }
        else if (k.op == Op::Mad && m == "po") k.plus_one = true;
        else if (k.op == Op::Mad && (m == "shr7" || m == "shr15")) { k.scale = m == "shr7" ? Scale::Shr7 : Scale::Shr15; ++scales; }
        else return fmt::format("modifier '.{}' does not apply", m);
    }
    // vset has no destination type: its result (0 or 1) and its c operand are unsigned.
    const size_t want_types = k.op == Op::Set ? 2 : 3;
    if (types.size() != want_types)
        return fmt::format("needs {} type modifiers (.u32 or .s32), found {}", want_types, types.size());
    size_t t = 0;
    if (k.op != Op::Set) k.d_signed = types[t++];
    k.a_signed = types[t++];
    k.b_signed = types[t++];
    if (shift && k.b_signed) return "the shift amount type must be .u32";
    if (shift && modes != 1) return "needs exactly one of .clamp and .wrap";
    if (k.op == Op::Set && cmps != 1) return "needs exactly one compare (.eq .ne .lt .le .gt .ge)";
    if (scales > 1) return "takes at most one of .shr7 and .shr15";
    if (op2s > 1) return "takes at most one secondary operation (.add .min .max)";
    if (k.lanes > 1 && k.sat && k.op2 == Op2::Add) return ".sat cannot be combined with .add";
    return "";
}

// A scalar selector: .b0-.b3, .h0, .h1.
bool scalar_sel(const std::string& s, uint8_t& out) {
    static const std::pair<const char*, Sel> names[] = {{"b0", kB0}, {"b1", kB1}, {"b2", kB2},
                                                        {"b3", kB3}, {"h0", kH0}, {"h1", kH1}};
    for (auto& [n, sel] : names)
        if (s == n) { out = sel; return true; }
    return false;
}

// A SIMD source selector: 'h' and 2 digits 0-3, or 'b' and 4 digits 0-7, the first digit
// feeding the highest result lane.
bool simd_source_sel(const std::string& s, int lanes, uint16_t& out) {
    const char letter = lanes == 2 ? 'h' : 'b';
    const char max_digit = lanes == 2 ? '3' : '7';
    if (s.size() != size_t(lanes) + 1 || s[0] != letter) return false;
    out = 0;
    for (int i = 0; i < lanes; ++i) {
        char d = s[size_t(lanes - i)];   // lane i is the i-th digit from the right
        if (d < '0' || d > max_digit) return false;
        out = uint16_t(out | ((d - '0') << (kLaneIndexBits * i)));
    }
    return true;
}

// A SIMD destination mask: the lanes written, as digits in descending order (.h10, .b3210, .b31).
bool simd_mask(const std::string& s, int lanes, uint8_t& out) {
    const char letter = lanes == 2 ? 'h' : 'b';
    if (s.size() < 2 || s.size() > size_t(lanes) + 1 || s[0] != letter) return false;
    out = 0;
    int prev = lanes;
    for (size_t k = 1; k < s.size(); ++k) {
        int lane = s[k] - '0';
        if (lane < 0 || lane >= prev) return false;
        out = uint8_t(out | (1u << lane));
        prev = lane;
    }
    return true;
}

} // namespace

uint64_t pack(const Code& k) {
    return put_field(uint64_t(k.op), kOpF) | put_field(k.lanes, kLanesF) | put_field(k.d_signed, kDSignedF) |
           put_field(k.a_signed, kASignedF) | put_field(k.b_signed, kBSignedF) | put_field(k.sat, kSatF) |
           put_field(uint64_t(k.op2), kOp2F) | put_field(uint64_t(k.cmp), kCmpF) | put_field(k.wrap, kWrapF) |
           put_field(k.plus_one, kPlusOneF) | put_field(uint64_t(k.scale), kScaleF) | put_field(k.neg_a, kNegAF) |
           put_field(k.neg_b, kNegBF) | put_field(k.neg_c, kNegCF) | put_field(k.dsel, kDSelF) | put_field(k.asel, kASelF) |
           put_field(k.bsel, kBSelF);
}

Code unpack(uint64_t bits) {
    Code k;
    k.op = Op(get_field(bits, kOpF));
    k.lanes = uint8_t(get_field(bits, kLanesF));
    k.d_signed = get_field(bits, kDSignedF);
    k.a_signed = get_field(bits, kASignedF);
    k.b_signed = get_field(bits, kBSignedF);
    k.sat = get_field(bits, kSatF);
    k.op2 = Op2(get_field(bits, kOp2F));
    k.cmp = Cmp(get_field(bits, kCmpF));
    k.wrap = get_field(bits, kWrapF);
    k.plus_one = get_field(bits, kPlusOneF);
    k.scale = Scale(get_field(bits, kScaleF));
    k.neg_a = get_field(bits, kNegAF);
    k.neg_b = get_field(bits, kNegBF);
    k.neg_c = get_field(bits, kNegCF);
    k.dsel = uint8_t(get_field(bits, kDSelF));
    k.asel = uint16_t(get_field(bits, kASelF));
    k.bsel = uint16_t(get_field(bits, kBSelF));
    return k;
}

std::string add_operand(uint64_t& bits, int index, const std::string& selector, bool minus) {
    Code k = unpack(bits);
    if (minus) {
        if (k.op != Op::Mad || index == 0) return "only the sources of vmad may be negated";
        if (k.plus_one) return "vmad.po sources may not be negated";
        if (index == 1) k.neg_a = true;
        if (index == 2) k.neg_b = true;
        if (index == 3) k.neg_c = true;
        // "PTX allows negation of either (a*b) or c" [ISA 9.7.18.1.3].
        if (k.neg_c && k.neg_a != k.neg_b) return "vmad negates either the product a*b or c, not both";
    }
    if (!selector.empty()) {
        if (index == 3) return "the c operand takes no selector";
        if (k.lanes == 1) {
            uint8_t sel;
            if (!scalar_sel(selector, sel))
                return fmt::format("'.{}' is not a scalar video selector (.b0 .b1 .b2 .b3 .h0 .h1)", selector);
            if (index == 0 && k.op == Op::Mad) return "the destination of vmad takes no selector";
            if (index == 0 && k.op2 != Op2::None) return "a merge destination cannot be combined with a secondary operation";
            if (index == 0) k.dsel = sel;
            if (index == 1) k.asel = sel;
            if (index == 2) k.bsel = sel;
        } else if (index == 0) {
            if (!simd_mask(selector, k.lanes, k.dsel))
                return fmt::format("'.{}' is not a {}-way destination mask ({})", selector, k.lanes,
                                   k.lanes == 2 ? ".h0 .h1 .h10" : "bytes in descending order, e.g. .b0 .b31 .b3210");
        } else {
            uint16_t& sel = index == 1 ? k.asel : k.bsel;
            if (!simd_source_sel(selector, k.lanes, sel))
                return fmt::format("'.{}' is not a {}-way source selector ({})", selector, k.lanes,
                                   k.lanes == 2 ? ".hxy with x, y in 0-3" : ".bxyzw with x, y, z, w in 0-7");
        }
    }
    bits = pack(k);
    return "";
}

int operand_count(uint64_t bits) {
    Code k = unpack(bits);
    // c is the addend of vmad, the second operand of a secondary op, the merge source of a
    // selected destination, and always present in the SIMD forms.
    bool has_c = k.lanes > 1 || k.op == Op::Mad || k.op2 != Op2::None || k.dsel != kWord;
    return has_c ? 4 : 3;
}

} // namespace gpusim::video

namespace gpusim {

void register_video_ops(OpRegistry& r) { r.add("video", select_video_op); }

OpChoice select_video_op(const OpSpec& s) {
    using namespace video;
    const Name* name = nullptr;
    for (const auto& n : kNames)
        if (s.opcode == n.text) name = &n;
    if (!name) return {};
    Code k;
    k.op = name->op;
    k.lanes = uint8_t(name->lanes);
    if (k.lanes > 1) {
        k.dsel = all_lanes(k.lanes);
        k.asel = in_place(k.lanes, 0);
        k.bsel = in_place(k.lanes, k.lanes);
    }
    OpChoice c;
    std::string error = read_modifiers(s, k);
    if (!error.empty()) {
        c.error = fmt::format("'{}': {}", s.full_name(), error);
        return c;
    }
    c.fn = k.lanes == 1 ? scalar_fn(k.op) : simd_fn(k.op, k.lanes);
    c.layout = Layout::Video;
    c.code = pack(k);
    return c;
}

} // namespace gpusim
