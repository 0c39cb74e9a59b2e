// The ALU's instructions: integer, bit, float, half-precision and conversion operations. Each
// recogniser takes the forms of its family (isa/op_registry.h); register_alu_ops adds them all.
#pragma once

#include "isa/op_registry.h"

namespace gpusim {

void register_alu_ops(OpRegistry& r);

// The unit's recogniser: each family's in turn.
OpChoice select_alu_op(const OpSpec& s);
OpChoice select_int_op(const OpSpec& s);     // int_ops.cpp
OpChoice select_bit_op(const OpSpec& s);     // bit_ops.cpp
OpChoice select_float_op(const OpSpec& s);   // float_ops.cpp
OpChoice select_half_op(const OpSpec& s);    // half_ops.cpp
OpChoice select_cvt_op(const OpSpec& s);     // cvt_ops.cpp
OpChoice select_cvt_fp8(const OpSpec& s);    // cvt_fp8_ops.cpp: the e4m3x2 and e5m2x2 forms

// mov between one register and a {lo, ..., hi} vector of narrower registers (Inst::vec, width bits each).
ExecFn vector_mov_fn(bool pack);
// set: a comparison (a setp function in KernelImage::inner_fns) turned into a value (int_ops.cpp).
ExecFn set_fn();

} // namespace gpusim
