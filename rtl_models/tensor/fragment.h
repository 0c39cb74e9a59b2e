// Where the elements of a warp's matrix fragment live: which register of which lane holds element
// (row, col) of A (M x K), B (K x N) or C/D (M x N). mma.sync's layouts are the PTX ISA's; wmma's,
// which PTX leaves unspecified, are what the H100 does (golden family wmma): a wmma fragment is
// made of mma.sync tiles (m16n8k16 for 16-bit and 8-bit types, m16n8k8 for tf32), and an m8n32
// shape is computed transposed, as m32n8 of B^T * A^T. Where PTX gives a wmma fragment more
// registers than its tiles fill (f16 A and B), the H100 repeats the tiles' registers.
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor_arith.h"

namespace gpusim::tensor {

using Use = MatrixUse;

// The slot of every element of the operand, in row-major order of its matrix (rows x cols):
// A is M x K, B is K x N, C and D are M x N.
std::vector<FragmentSlot> fragment_slots(const MatrixForm& f, Use u);

// Registers a fragment's elements fill (before any repetition) and elements per register.
int fragment_registers(const MatrixForm& f, Use u);
int elements_per_register(Elem e);

} // namespace gpusim::tensor
