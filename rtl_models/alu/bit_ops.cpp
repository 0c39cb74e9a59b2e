// Bit-manipulation and saturating integer instructions: bfind, bfi, 64-bit bfe, prmt, shf, lop3,
// fns, dp4a/dp2a, add/sub/mad with saturation or carry. Semantics follow the PTX ISA; where the
// H200 measured otherwise (64-bit bfe/bfi take whole 32-bit position and length) the comment says so.
#include <type_traits>

#include "isa/exec_context.h"
#include "alu/alu_ops.h"

namespace gpusim {
namespace {

template <class T> using U = std::make_unsigned_t<T>;
template <class T> constexpr uint32_t kWidth = uint32_t(sizeof(T) * 8);

int32_t sat32(int64_t v) { return int32_t(v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v); }

// Runs f(a, b, c, e) per lane; unused sources read lane 0 of the immediate pool's zero row.
template <class F>
void each_lane(ExecContext& c, Warp& w, const Inst& in, LaneMask m, F&& f) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = in.b == kNoRow ? a : c.src(w, in.b);
    const uint64_t* cc = in.c == kNoRow ? a : c.src(w, in.c);
    const uint64_t* e = in.vec[0] == kNoRow ? a : c.src(w, in.vec[0]);
    for_lanes(m, [&](int l) { d[l] = f(a[l], b[l], cc[l], e[l], l); });
}

void add_sat(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t, uint64_t, int) {
        return uint64_t(uint32_t(sat32(int64_t(int32_t(a)) + int32_t(b))));
    });
}
void sub_sat(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t, uint64_t, int) {
        return uint64_t(uint32_t(sat32(int64_t(int32_t(a)) - int32_t(b))));
    });
}
// mad.hi.sat.s32: the high word of a*b plus c, clamped (the addition saturates).
void mad_hi_sat(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        int64_t hi = (int64_t(int32_t(a)) * int32_t(b)) >> 32;
        return uint64_t(uint32_t(sat32(hi + int32_t(cc))));
    });
}

// mad24.hi: bits 47..16 of the 48-bit product of the 24-bit operands, plus c.
template <class T, bool Sat>
void mad24_hi(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        auto low24 = [](uint64_t x) {
            return std::is_signed_v<T> ? int64_t(int32_t(uint32_t(x) << 8) >> 8) : int64_t(x & 0xFFFFFF);
        };
        int64_t hi = (low24(a) * low24(b)) >> 16;
        if constexpr (Sat) return uint64_t(uint32_t(sat32(int64_t(int32_t(hi)) + int32_t(cc))));
        return uint64_t(uint32_t(uint32_t(hi) + uint32_t(cc)));
    });
}

// bfind: position of the most significant bit that differs from the sign (signed) or is set
// (unsigned); 0xFFFFFFFF when there is none. .shiftamt gives the left shift that normalises it.
template <class T, bool ShiftAmt>
void bfind(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t, uint64_t, uint64_t, int) {
        U<T> x = U<T>(a);
        if (std::is_signed_v<T> && (x >> (kWidth<T> - 1))) x = U<T>(~x);
        if (x == 0) return uint64_t(0xFFFFFFFFu);
        uint32_t msb = 63 - uint32_t(__builtin_clzll(uint64_t(x)));
        return uint64_t(ShiftAmt ? kWidth<T> - 1 - msb : msb);
    });
}

// bfe.u64/.s64: measured on the H200 (reference §7.1), position and length use all 32 bits.
template <class T>
void bfe64(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        uint32_t pos = uint32_t(b), len = uint32_t(cc);
        if (len == 0) return uint64_t(0);
        if (pos >= 64) return std::is_signed_v<T> ? uint64_t(int64_t(a) >> 63) : uint64_t(0);
        uint64_t x = a >> pos;
        uint32_t n = len > 64 - pos ? 64 - pos : len;
        if (n == 64) return x;
        uint64_t mask = (uint64_t(1) << n) - 1;
        x &= mask;
        if (std::is_signed_v<T> && ((x >> (n - 1)) & 1)) x |= ~mask;
        return x;
    });
}

// bfi: insert the low `len` bits of a into b at `pos`. 32-bit forms use pos & 0xff and len & 0xff;
// the 64-bit form uses the whole 32-bit values (measured on the H200, reference §7.1).
template <class T>
void bfi(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t e, int) {
        bool wide = kWidth<T> == 64;
        uint32_t pos = wide ? uint32_t(cc) : uint32_t(cc) & 0xFF, len = wide ? uint32_t(e) : uint32_t(e) & 0xFF;
        U<T> f = U<T>(b);
        for (uint32_t i = 0; i < len && pos + i < kWidth<T>; ++i) {
            U<T> bit = U<T>(U<T>(1) << (pos + i));
            f = U<T>(((a >> i) & 1) ? (f | bit) : (f & ~bit));
        }
        return uint64_t(f);
    });
}

// prmt: each result byte picks one of the 8 bytes of {b, a}; generic mode can replicate its sign.
enum PrmtMode : uint8_t { kGeneric, kF4e, kB4e, kRc8, kEcl, kEcr, kRc16 };
void prmt(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    static const uint8_t table[6][4][4] = {  // [mode][selector][result byte 0..3]
        {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
        {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
        {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
        {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
        {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
        {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
    };
    const uint8_t mode = in.aux;
    each_lane(c, w, in, m, [mode](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        uint64_t pool = (uint64_t(uint32_t(b)) << 32) | uint32_t(a);
        uint32_t r = 0;
        for (int i = 0; i < 4; ++i) {
            uint32_t byte;
            if (mode == kGeneric) {
                uint32_t sel = uint32_t(cc >> (4 * i)) & 0xF;
                byte = uint32_t(pool >> (8 * (sel & 7))) & 0xFF;
                if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0x00;
            } else {
                byte = uint32_t(pool >> (8 * table[mode - 1][cc & 3][i])) & 0xFF;
            }
            r |= byte << (8 * i);
        }
        return uint64_t(r);
    });
}

// shf: funnel shift of the 64-bit value {b, a}; .wrap takes the amount mod 32, .clamp caps it at 32.
template <bool Left, bool Wrap>
void shf(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        uint32_t n = Wrap ? uint32_t(cc) & 31 : (uint32_t(cc) > 32 ? 32 : uint32_t(cc));
        uint64_t v = (uint64_t(uint32_t(b)) << 32) | uint32_t(a);
        return uint64_t(Left ? uint32_t((v << n) >> 32) : uint32_t(v >> n));
    });
}

// lop3: the immediate is the truth table indexed by the bits (a, b, c).
void lop3(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t lut, int) {
        uint32_t r = 0;
        for (int i = 0; i < 32; ++i) {
            uint32_t idx = ((uint32_t(a >> i) & 1) << 2) | ((uint32_t(b >> i) & 1) << 1) | (uint32_t(cc >> i) & 1);
            r |= ((uint32_t(lut) >> idx) & 1) << i;
        }
        return uint64_t(r);
    });
}

// fns: the position of the n-th set bit of mask counting up (offset > 0) or down from base.
void fns(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t mask, uint64_t base, uint64_t offset, uint64_t, int) {
        int32_t off = int32_t(offset), pos = int32_t(uint32_t(base));
        if (off == 0) return uint64_t(pos >= 0 && pos < 32 && ((mask >> pos) & 1) ? uint32_t(pos) : 0xFFFFFFFFu);
        int step = off > 0 ? 1 : -1;
        int32_t need = off > 0 ? off : -off;
        for (; pos >= 0 && pos < 32; pos += step)
            if (((mask >> pos) & 1) && --need == 0) return uint64_t(uint32_t(pos));
        return uint64_t(0xFFFFFFFFu);
    });
}

// bmsk: a mask of b bits from bit a. The position and width are taken modulo 32; .clamp instead
// takes a position of 32 or more as an empty mask and a width of 32 or more as reaching bit 31
// (PTX ISA, bmsk; regress/golden/bitfield).
template <bool Clamp>
void bmsk(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t, uint64_t, int) {
        const uint32_t pos = uint32_t(a), width = uint32_t(b), a1 = pos & 31, b1 = width & 31;
        const bool beyond = a1 + b1 >= 32 || (Clamp && (pos >= 32 || width >= 32));
        const uint32_t low = Clamp && pos >= 32 ? 0 : ~0u << a1;      // bits from the position up
        const uint32_t high = beyond ? 0 : b1 == 0 ? ~0u : ~0u << (a1 + b1);   // bits past the field
        return uint64_t(low & ~high);
    });
}

// szext: the low b bits of a, sign- (Signed) or zero-extended to 32. The width is taken modulo 32
// (0 gives 0); .clamp instead leaves a as it is for a width of 32 or more (PTX ISA, szext).
template <bool Clamp, bool Signed>
void szext(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t, uint64_t, int) {
        const uint32_t v = uint32_t(a), width = uint32_t(b), b1 = width & 31;
        const bool whole = Clamp && width >= 32;
        const uint32_t above = whole ? 0 : ~0u << b1;     // the bits the extension fills
        const bool sign = Signed && !whole && b1 != 0 && ((v >> (b1 - 1)) & 1);
        return uint64_t((v & ~above) | (sign ? above : 0));
    });
}

// dp4a: four byte products summed into c; dp2a: two halfword-by-byte products (.lo/.hi bytes of b).
int64_t lane_value(uint32_t x, int width, int k, bool sign) {
    uint32_t v = (x >> (width * k)) & ((1u << width) - 1);
    if (sign && (v >> (width - 1))) return int64_t(v) - (int64_t(1) << width);
    return v;
}
template <bool SA, bool SB>
void dp4a(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        int64_t sum = 0;
        for (int k = 0; k < 4; ++k) sum += lane_value(uint32_t(a), 8, k, SA) * lane_value(uint32_t(b), 8, k, SB);
        return uint64_t(uint32_t(uint32_t(sum) + uint32_t(cc)));
    });
}
template <bool SA, bool SB, bool Hi>
void dp2a(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    each_lane(c, w, in, m, [](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int) {
        int64_t sum = 0;
        for (int k = 0; k < 2; ++k)
            sum += lane_value(uint32_t(a), 16, k, SA) * lane_value(uint32_t(b), 8, k + (Hi ? 2 : 0), SB);
        return uint64_t(uint32_t(uint32_t(sum) + uint32_t(cc)));
    });
}

// Extended-precision add/sub/mad through the per-lane carry flag (CC.CF) of the warp.
enum CarryOp : uint8_t { kAddCc, kAddC, kSubCc, kSubC, kMadLoCc, kMadHiCc, kMadcLo, kMadcHi };
template <class T>
void carry_op(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint8_t op = in.aux & 0x7F;
    const bool set_cc = (in.aux & 0x80) != 0;
    LaneMask out = 0;
    each_lane(c, w, in, m, [&](uint64_t a, uint64_t b, uint64_t cc, uint64_t, int l) {
        unsigned __int128 x = U<T>(a), y = U<T>(b), cin = (w.carry >> l) & 1, r = 0;
        bool carry = false;
        switch (op) {
        case kAddCc: r = x + y; carry = (r >> kWidth<T>) & 1; break;
        case kAddC: r = x + y + cin; carry = (r >> kWidth<T>) & 1; break;
        case kSubCc: r = x - y; carry = x < y; break;
        case kSubC: r = x - y - cin; carry = x < y + cin; break;
        default: {
            unsigned __int128 p = x * y;
            if (op == kMadHiCc || op == kMadcHi) p >>= kWidth<T>;
            p &= (unsigned __int128)U<T>(~U<T>(0));
            r = p + U<T>(cc) + ((op == kMadcLo || op == kMadcHi) ? cin : 0);
            carry = (r >> kWidth<T>) & 1;
        }
        }
        if (carry) out |= 1u << l;
        return uint64_t(U<T>(r));
    });
    if (set_cc) w.carry = (w.carry & ~m) | (out & m);
}

void mov_pack(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t mask = in.width == 64 ? ~0ull : (uint64_t(1) << in.width) - 1;
    const uint64_t* e[4] = {};
    for (int k = 0; k < in.vec_count; ++k) e[k] = c.src(w, in.vec[k]);
    for_lanes(m, [&](int l) {
        uint64_t v = 0;
        for (int k = 0; k < in.vec_count; ++k) v |= (e[k][l] & mask) << (k * in.width);
        d[l] = v;
    });
}
void mov_unpack(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t mask = (uint64_t(1) << in.width) - 1;
    uint64_t a[kWarpSize];
    const uint64_t* src = c.src(w, in.a);
    for_lanes(m, [&](int l) { a[l] = src[l]; });  // a destination may be the source register
    for (int k = 0; k < in.vec_count; ++k) {
        if (in.vec[k] == kNoRow) continue;  // "_" sink
        uint64_t* d = w.row(in.vec[k]);
        for_lanes(m, [&](int l) { d[l] = (a[l] >> (k * in.width)) & mask; });
    }
}

OpChoice pick(ExecFn fn, Layout layout, uint8_t aux = 0) {
    OpChoice c;
    c.fn = fn;
    c.layout = layout;
    c.aux = aux;
    return c;
}

OpChoice select_carry(const OpSpec& s, const std::string& t) {
    const std::string& op = s.opcode;
    bool cc = s.has("cc");
    bool wide = t == "u64" || t == "s64";
    ExecFn fn = wide ? carry_op<uint64_t> : carry_op<uint32_t>;
    uint8_t flag = cc ? 0x80 : 0;
    if (op == "add" && cc) return pick(fn, Layout::D_A_B, kAddCc | flag);
    if (op == "sub" && cc) return pick(fn, Layout::D_A_B, kSubCc | flag);
    if (op == "addc") return pick(fn, Layout::D_A_B, kAddC | flag);
    if (op == "subc") return pick(fn, Layout::D_A_B, kSubC | flag);
    if (op == "mad" && cc) return pick(fn, Layout::D_A_B_C, (s.has("hi") ? kMadHiCc : kMadLoCc) | flag);
    if (op == "madc") return pick(fn, Layout::D_A_B_C, (s.has("hi") ? kMadcHi : kMadcLo) | flag);
    return {};
}

} // namespace

ExecFn vector_mov_fn(bool pack) { return pack ? mov_pack : mov_unpack; }

OpChoice select_bit_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    bool s32 = t == "s32", u32 = t == "u32" || t == "b32", w64 = t == "u64" || t == "s64" || t == "b64";
    if (op == "addc" || op == "subc" || op == "madc" || ((op == "add" || op == "sub" || op == "mad") && s.has("cc")))
        return (s32 || u32 || w64) ? select_carry(s, t) : OpChoice{};
    if (op == "add" && s.has("sat") && s32) return pick(add_sat, Layout::D_A_B);
    if (op == "sub" && s.has("sat") && s32) return pick(sub_sat, Layout::D_A_B);
    if (op == "mad" && s.has("hi") && s.has("sat") && s32) return pick(mad_hi_sat, Layout::D_A_B_C);
    if (op == "mad24" && s.has("hi") && (s32 || u32)) {
        if (s.has("sat")) return s32 ? pick(mad24_hi<int32_t, true>, Layout::D_A_B_C) : OpChoice{};
        return pick(s32 ? mad24_hi<int32_t, false> : mad24_hi<uint32_t, false>, Layout::D_A_B_C);
    }
    if (op == "bfind") {
        bool sh = s.has("shiftamt");
        if (t == "u32") return pick(sh ? bfind<uint32_t, true> : bfind<uint32_t, false>, Layout::D_A);
        if (t == "s32") return pick(sh ? bfind<int32_t, true> : bfind<int32_t, false>, Layout::D_A);
        if (t == "u64") return pick(sh ? bfind<uint64_t, true> : bfind<uint64_t, false>, Layout::D_A);
        if (t == "s64") return pick(sh ? bfind<int64_t, true> : bfind<int64_t, false>, Layout::D_A);
    }
    if (op == "bfe" && t == "u64") return pick(bfe64<uint64_t>, Layout::D_A_B_C);
    if (op == "bfe" && t == "s64") return pick(bfe64<int64_t>, Layout::D_A_B_C);
    if (op == "bfi" && t == "b32") return pick(bfi<uint32_t>, Layout::D_A_B_C_E);
    if (op == "bfi" && t == "b64") return pick(bfi<uint64_t>, Layout::D_A_B_C_E);
    if (op == "prmt" && t == "b32") {
        static const char* const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        uint8_t mode = kGeneric;
        for (int k = 0; k < 6; ++k)
            if (s.has(modes[k])) mode = uint8_t(kF4e + k);
        return pick(prmt, Layout::D_A_B_C, mode);
    }
    if (op == "shf" && t == "b32") {
        bool left = s.has("l"), wrap = s.has("wrap");
        if (!left && !s.has("r")) return {};
        return pick(left ? (wrap ? shf<true, true> : shf<true, false>) : (wrap ? shf<false, true> : shf<false, false>),
                    Layout::D_A_B_C);
    }
    if (op == "lop3" && t == "b32") return pick(lop3, Layout::D_A_B_C_E);
    if (op == "bmsk" || op == "szext") {
        const bool clamp = s.has("clamp");
        if (clamp == s.has("wrap")) return {};   // exactly one mode
        if (op == "bmsk") return t == "b32" ? pick(clamp ? bmsk<true> : bmsk<false>, Layout::D_A_B) : OpChoice{};
        if (!s32 && t != "u32") return {};
        return pick(clamp ? (s32 ? szext<true, true> : szext<true, false>) : (s32 ? szext<false, true> : szext<false, false>),
                    Layout::D_A_B);
    }
    if (op == "fns" && t == "b32") return pick(fns, Layout::D_A_B_C);
    if (op == "dp4a" || op == "dp2a") {
        std::string ta = s.type(0), tb = s.type(1);
        bool sa = ta == "s32", sb = tb == "s32";
        if ((!sa && ta != "u32") || (!sb && tb != "u32")) return {};
        if (op == "dp4a")
            return pick(sa ? (sb ? dp4a<true, true> : dp4a<true, false>) : (sb ? dp4a<false, true> : dp4a<false, false>),
                        Layout::D_A_B_C);
        bool hi = s.has("hi");
        if (!hi && !s.has("lo")) return {};
        ExecFn f = hi ? (sa ? (sb ? dp2a<true, true, true> : dp2a<true, false, true>) : (sb ? dp2a<false, true, true> : dp2a<false, false, true>))
                      : (sa ? (sb ? dp2a<true, true, false> : dp2a<true, false, false>) : (sb ? dp2a<false, true, false> : dp2a<false, false, false>));
        return pick(f, Layout::D_A_B_C);
    }
    return {};
}

} // namespace gpusim
