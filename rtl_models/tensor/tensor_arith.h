// The tensor cores' arithmetic: one element of D = A*B + C, as the H100 computes it (golden family
// mma, found by experiment: docs/ptx.md, "Tensor cores as the H100 computes them").
//
// f16, bf16 and tf32 inputs: the products are exact; they and C are aligned to the largest
// exponent among them (never below 2^-133), each truncated toward zero to 25 bits below it,
// summed exactly, and the sum is rounded once: toward zero to f32, or to nearest even to f16.
// f64: a chain of IEEE fused multiply-adds in k order. Integers: exact, wrapping or saturating.
#pragma once

#include <cstdint>

#include "isa/matrix_form.h"

namespace gpusim::tensor {

using Elem = MatrixElem;

int elem_bits(Elem e);              // bits of one element in a register
bool is_float(Elem e);

// One output of a floating-point mma: the dot product of k products a[i]*b[i] (raw element
// bits of format `in`) plus c (raw bits of `acc`: F32 or F16), rounded into `acc`. With `block`
// (0: all k at once) the products go in blocks of that many, each block's result the next's
// addend: the H100 runs wmma's m16n16k8 tf32 as two k=4 steps (golden wmma).
uint32_t dot_float(Elem in, Elem acc, const uint32_t* a, const uint32_t* b, int k, uint32_t c, int block = 0);

// fp8 (e4m3, e5m2; the H100 runs mma.m16n8k32 on them as two f16 mma.m16n8k16, golden mma):
// each element converted to f16, the products of k % 4 < 2 summed as dot_float does from zero,
// then the others onto that result, and C added last in an IEEE add rounded to nearest.
uint32_t dot_fp8(Elem ea, Elem eb, Elem acc, const uint32_t* a, const uint32_t* b, int k, uint32_t c);

// f64: c + a[0]*b[0] + ... in k order, each step one fused multiply-add; raw bits.
uint64_t dot_f64(const uint64_t* a, const uint64_t* b, int k, uint64_t c);

// Integers: a and b raw elements of formats ia and ib (S8, U8, S4, U4), c an s32; `satfinite`
// clamps to the s32 range instead of wrapping.
uint32_t dot_int(Elem ia, Elem ib, const uint32_t* a, const uint32_t* b, int k, uint32_t c, bool satfinite);

// b1: c + popc(a AND b) or popc(a XOR b) over k bits held 32 to a word.
uint32_t dot_b1(const uint32_t* a, const uint32_t* b, int words, uint32_t c, bool xor_op);

} // namespace gpusim::tensor
