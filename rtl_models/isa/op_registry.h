// How a PTX instruction maps onto an execution function. Each execution unit offers a selector
// that recognises its instructions and names the operand layout the decoder must fill in.
#pragma once

#include <string>
#include <vector>

#include "isa/isa.h"

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
    AtomicVector,  // atom {d...}, [addr], {b...}; red [addr], {b...}: the lists in a MatrixOperands (d, b)
    Branch,      // bra target
    Barrier,     // bar.sync a [, b], bar.arrive a, b
    BarrierRed,  // bar.red d|p, a [, b], {!}c
    D,           // activemask d
    Vote,        // vote p|d, {!}a [, membermask]
    Shfl,        // shfl d[|p], a, b, c [, membermask]
    Match,       // match d[|p], a, membermask
    Video,       // d{.sel}, {-}a{.sel}, {-}b{.sel} [, {-}c]: scalar and SIMD video instructions
    AsyncCopy,   // cp.async [dst], [src], size [, src-size | ignore-src] [, policy]: src in a and offset,
                 // dst in b and vec[0] (its offset, a pool row), src-size in c, ignore-src in pc
    Mbarrier,    // mbarrier.op [d | p ,] [addr] [, b [, c]]
    Elect,       // elect.sync d|p, membermask
    Matrix,      // mma, wmma, ldmatrix, stmatrix: register lists (MatrixOperands) and an address
    Hint,        // prefetch [a]; discard, applypriority [a], size; createpolicy d {, operands}
    BulkCopy,    // cp{.reduce}.async.bulk [dst], [src], size {, [mbar]} {, policy}: src in a and offset, dst in b and
                 // vec[0] (its offset, a pool row), size in c, mbar in vec[1] and vec[2]; .prefetch [src], size
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

// A unit's recogniser of its instructions: a choice with fn set, or error set where the unit knows
// the opcode but not this form, or neither where the opcode is not the unit's.
using OpSelector = OpChoice (*)(const OpSpec& s);

// The instructions every unit executes. Each unit adds its recognisers (alu/alu_ops.h,
// sfu/sfu_ops.h, video/video_code.h, ldst/ldst_ops.h, and the SM's own control and warp
// instructions); the SM composes them (sm/operations.h), and the loader asks it for each
// instruction it decodes.
class OpRegistry {
public:
    // `unit` names the recogniser in reports ("alu.int").
    void add(const char* unit, OpSelector select);
    // The unit that executes `s`. Every unit is asked, so their order does not matter: the one that
    // takes it wins over those that know the opcode but refuse the form (the video unit refuses a
    // malformed vadd.sat that no other unit takes). Two units that both take one form are a defect
    // of the model: the instruction is refused, naming both (testbench/sm/test_operations.cpp
    // holds the units apart). Where none takes it, the first refusal's text, else
    // "unsupported instruction" naming it.
    OpChoice select(const OpSpec& s) const;
    size_t size() const { return m_units.size(); }

private:
    struct Unit {
        const char* name;
        OpSelector select;
    };
    std::vector<Unit> m_units;
};

} // namespace gpusim
