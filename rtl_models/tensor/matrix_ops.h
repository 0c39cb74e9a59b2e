// The tensor unit's instructions: mma.sync, wmma.mma and movmatrix; and the parsing of the matrix
// forms that the LD/ST unit's fragment moves (wmma.load, wmma.store) share.
#pragma once

#include <string>

#include "isa/op_registry.h"

namespace gpusim::tensor {

// The element format a type modifier names ("f16", "s4", "b1" ...).
bool matrix_elem_of(const std::string& t, MatrixElem& e);

// The shape and formats an mma or wmma instruction names; error set where the form is refused.
MatrixForm parse_matrix_form(const OpSpec& s, std::string& error);

// A form packed into OpChoice::code, for the loader (which builds MatrixOperands from it).
uint64_t encode_form(const MatrixForm& f, MatrixUse use);
MatrixForm decode_form(uint64_t code, MatrixUse& use);

OpChoice select_tensor_op(const OpSpec& s);
void register_tensor_ops(OpRegistry& r);

} // namespace gpusim::tensor
