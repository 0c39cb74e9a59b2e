// The warp-level matrix instructions' operands (mma, wmma, ldmatrix, stmatrix): their shape and
// element formats, and where each element of each matrix lives in the warp's registers. The
// loader builds one MatrixOperands per instruction (KernelImage::matrix_operands, at
// Inst::target); the tensor unit computes with it and the LD/ST unit moves fragments with it.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusim {

// An operand element format of the tensor cores.
enum class MatrixElem : uint8_t { F16, BF16, TF32, E4M3, E5M2, F32, F64, S8, U8, S4, U4, B1, S32 };

// A matrix instruction's shape and formats; c is also D's format.
struct MatrixForm {
    uint8_t m = 0, n = 0;
    uint16_t k = 0;
    MatrixElem a = MatrixElem::F16, b = MatrixElem::F16, c = MatrixElem::F32;
    bool wmma = false;
    bool satfinite = false;   // integer mma: clamp instead of wrapping
    bool xor_popc = false;    // b1 mma: XOR (else AND) before the population count
    bool a_col = false, b_row = false;   // wmma.load and wmma.mma: the layouts in memory (A row, B column by default)
    bool c_col = false;       // wmma.load.c, wmma.store.d
};

// One element's home: register `reg` of the operand's register list, lane `lane`, element `pos`
// within the register (bits pos * width and up). reg 0xFF: no register holds it.
struct FragmentSlot {
    uint8_t reg = 0xFF, lane = 0, pos = 0;
};

// Which operands a wmma.load or wmma.store moves (Use::A, B, C) is in `use`.
enum class MatrixUse : uint8_t { A, B, C };

struct MatrixOperands {
    MatrixForm form;
    MatrixUse use = MatrixUse::C;        // wmma.load / wmma.store: the fragment moved
    std::vector<int32_t> d, a, b, c;     // register rows, in the order PTX lists them
    std::vector<FragmentSlot> slots[3];          // per MatrixUse: the slot of each element, row-major
};

} // namespace gpusim
