// How a PTX instruction maps onto an execution function. Each execution unit offers a selector
// that recognises its instructions and names the operand layout the decoder must fill in.
#pragma once

#include <string>
#include <vector>

#include "sm/isa.h"

namespace gpusim {

// Operand shapes: d = destination row, a/b/c = source rows, p* = predicate registers.
enum class Layout {
    None,        // ret, exit, membar
    D_A,         // mov, cvt, not, neg, abs ...
    D_A_B,       // add, sub, and ...
    D_A_B_C,     // mad, fma, bfe ...
    D_A_B_C_E,   // bfi, lop3: a fourth source in vec[0]
    D_A_B_PC,    // selp
    PD_A_B,      // setp (optionally combined with a predicate c)
    PD_A,        // testp, isspacep
    PD_PA_PB,    // and/or/xor.pred
    PD_PA,       // not.pred, mov.pred
    Load,        // ld d, [addr]
    Store,       // st [addr], a
    Atomic,      // atom d, [addr], b [, c]
    Branch,      // bra target
    Barrier,     // bar.sync a [, b], bar.arrive a, b
    BarrierRed,  // bar.red d|p, a [, b], {!}c
    D,           // activemask d
    Vote,        // vote p|d, {!}a [, membermask]
    Shfl,        // shfl d[|p], a, b, c [, membermask]
    Match,       // match d[|p], a, membermask
    Video,       // d{.sel}, {-}a{.sel}, {-}b{.sel} [, {-}c]: scalar and SIMD video instructions
};

struct OpSpec {
    std::string opcode;
    std::vector<std::string> mods;

    bool has(const std::string& m) const;
    // The k-th modifier that names a fundamental type ("u32", "f32", "pred" ...), or "".
    std::string type(int k = 0) const;
    std::string full_name() const;
};

struct OpChoice {
    ExecFn fn = nullptr;
    Layout layout = Layout::None;
    uint8_t aux = 0;
    uint8_t round = 0;           // float rounding mode, as Inst::round
    uint8_t width = 0;           // memory accesses: bytes per element
    uint8_t vec_count = 0;
    MemSpace space = MemSpace::Generic;
    uint64_t code = 0;           // a unit's own encoding (cvt, video), stored in Inst::offset
    std::string error;           // set when the unit knows the opcode but not this form
};

// Each returns a choice with fn set, or error set, or neither when the opcode is not its own.
OpChoice select_int_op(const OpSpec& s);
OpChoice select_bit_op(const OpSpec& s);
// mov between one register and a {lo, ..., hi} vector of narrower registers (Inst::vec, width bits each).
ExecFn vector_mov_fn(bool pack);
OpChoice select_float_op(const OpSpec& s);
OpChoice select_half_op(const OpSpec& s);
// set: a comparison (a setp function in KernelImage::inner_fns) turned into a value (int_ops.cpp).
ExecFn set_fn();
OpChoice select_cvt_op(const OpSpec& s);
OpChoice select_sfu_op(const OpSpec& s);
OpChoice select_memory_op(const OpSpec& s);
OpChoice select_control_op(const OpSpec& s);
OpChoice select_warp_op(const OpSpec& s);
OpChoice select_video_op(const OpSpec& s);

// Tries every unit; returns an error text naming the instruction when none executes it.
OpChoice select_op(const OpSpec& s);

} // namespace gpusim
