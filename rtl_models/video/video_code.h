// The video unit: PTX scalar video instructions (vadd vsub vabsdiff vmin vmax vshl vshr vmad vset)
// and SIMD video instructions (vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4).
//
// Everything an instruction needs besides its rows (types, .sat, secondary op, compare, shift mode,
// vmad options, operand selectors and negations) is packed into one 64-bit `Code`, which the
// loader stores in Inst::offset (unused by non-memory instructions). The selector fills in the
// modifier part, the loader adds the operand part, and the execution functions unpack it once per
// warp instruction. Semantics follow docs/reference/ptx_semantics.md §1 and §2.
#pragma once

#include <cstdint>
#include <string>

#include "isa/isa.h"
#include "isa/op_registry.h"

namespace gpusim::video {

enum class Op : uint8_t { Add, Sub, Absdiff, Min, Max, Shl, Shr, Mad, Set, Avrg };
enum class Op2 : uint8_t { None, Add, Min, Max };   // scalar secondary op; SIMD uses only Add
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
enum class Scale : uint8_t { None, Shr7, Shr15 };   // vmad result scaling

// Scalar operand selectors. kWord (no selector) means the whole 32-bit word, not .b0.
enum Sel : uint8_t { kWord, kB0, kB1, kB2, kB3, kH0, kH1 };

constexpr int kWordBits = 32;   // a register's width

// Bits per SIMD source-lane index in Code::asel / Code::bsel (a pool index 0..7 fits in 3 bits).
constexpr int kLaneIndexBits = 3;

struct Code {
    Op op = Op::Add;
    uint8_t lanes = 1;           // 1 for scalar; 2 or 4 for SIMD
    bool d_signed = false, a_signed = false, b_signed = false;
    bool sat = false;
    Op2 op2 = Op2::None;
    Cmp cmp = Cmp::Eq;           // vset
    bool wrap = false;           // vshl/vshr .wrap; otherwise .clamp
    bool plus_one = false;       // vmad .po
    Scale scale = Scale::None;
    bool neg_a = false, neg_b = false, neg_c = false;   // vmad "-a", "-b", "-c"
    // Scalar: one Sel each. SIMD: dsel is the mask of result lanes written (bit i = lane i);
    // asel/bsel give, for each result lane i, the index of the pool element it reads
    // (kLaneIndexBits bits per lane, lane 0 lowest). The pool is {a.h0, a.h1, b.h0, b.h1} for
    // 2-way and {a.b0 .. a.b3, b.b0 .. b.b3} for 4-way instructions.
    uint8_t dsel = kWord;
    uint16_t asel = kWord, bsel = kWord;
};

uint64_t pack(const Code& k);
Code unpack(uint64_t bits);

// Adds operand `index`'s suffixes (0 = d, 1 = a, 2 = b, 3 = c) to the encoding: `selector` without
// its dot ("" for none), `minus` for a vmad negation. Returns "" or what is wrong with the operand.
std::string add_operand(uint64_t& bits, int index, const std::string& selector, bool minus);

// How many operands (3 or 4) the instruction takes, once its destination selector is known.
int operand_count(uint64_t bits);

// Execution functions of the two files of the unit; nullptr for a combination that does not exist.
ExecFn scalar_fn(Op op);
ExecFn simd_fn(Op op, int lanes);

// ---- arithmetic shared by the scalar and SIMD execution functions ----

// The low `bits` of x, sign- or zero-extended.
inline int64_t extend(uint64_t x, int bits, bool is_signed) {
    uint64_t field = x & ((uint64_t(1) << bits) - 1);
    if (is_signed && ((field >> (bits - 1)) & 1)) return int64_t(field) - (int64_t(1) << bits);
    return int64_t(field);
}

// v clamped to the range of a `bits`-wide signed or unsigned integer.
inline int64_t clamp_to(int64_t v, int bits, bool is_signed) {
    int64_t lo = is_signed ? -(int64_t(1) << (bits - 1)) : 0;
    int64_t hi = is_signed ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    return v < lo ? lo : v > hi ? hi : v;
}

// The extended source values are compared as signed numbers, whatever the PTX types.
inline bool compare(Cmp c, int64_t a, int64_t b) {
    switch (c) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return a != b;
    case Cmp::Lt: return a < b;
    case Cmp::Le: return a <= b;
    case Cmp::Gt: return a > b;
    case Cmp::Ge: return a >= b;
    }
    return false;
}

// The operations the scalar and SIMD forms share, on extended source values; the shifts and
// vmad (scalar only) have their own functions and give 0 here.
inline int64_t operate(const Code& k, int64_t a, int64_t b) {
    switch (k.op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Absdiff: return a > b ? a - b : b - a;
    case Op::Min: return a < b ? a : b;
    case Op::Max: return a > b ? a : b;
    case Op::Avrg: {
        // Rounds half away from zero (measured: S19, vavrg4.s32 of -3 gives -2 and of 3 gives 2).
        int64_t s = a + b;
        return s >= 0 ? (s + 1) >> 1 : s >> 1;
    }
    case Op::Set: return compare(k.cmp, a, b) ? 1 : 0;
    case Op::Shl:
    case Op::Shr:
    case Op::Mad: break;
    }
    return 0;
}

} // namespace gpusim::video

namespace gpusim {

// The video unit's instructions: scalar and SIMD video operations (video_ops.cpp, video_simd.cpp).
void register_video_ops(OpRegistry& r);
OpChoice select_video_op(const OpSpec& s);

} // namespace gpusim
