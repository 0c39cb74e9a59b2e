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
    D_A_B_PC,    // selp
    PD_A_B,      // setp (optionally combined with a predicate c)
    PD_PA_PB,    // and/or/xor.pred
    PD_PA,       // not.pred, mov.pred
    Load,        // ld d, [addr]
    Store,       // st [addr], a
    Atomic,      // atom d, [addr], b [, c]
    Branch,      // bra target
    Barrier,     // bar.sync a [, b]
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
    uint8_t width = 0;           // memory accesses: bytes per element
    uint8_t vec_count = 0;
    MemSpace space = MemSpace::Generic;
    std::string error;           // set when the unit knows the opcode but not this form
};

// Each returns a choice with fn set, or error set, or neither when the opcode is not its own.
OpChoice select_int_op(const OpSpec& s);
OpChoice select_float_op(const OpSpec& s);
OpChoice select_memory_op(const OpSpec& s);
OpChoice select_control_op(const OpSpec& s);

// Tries every unit; returns an error text naming the instruction when none executes it.
OpChoice select_op(const OpSpec& s);

} // namespace gpusim
