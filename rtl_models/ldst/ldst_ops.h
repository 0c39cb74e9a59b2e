// The LD/ST unit's instructions: loads, stores, atomics and reductions in every state space,
// prefetches and the address-space tests and conversions, and the asynchronous copies and
// transaction barriers.
#pragma once

#include "isa/op_registry.h"

namespace gpusim {

void register_ldst_ops(OpRegistry& r);
// A form the unit knows and does not execute: "unsupported instruction 'FORM': WHY".
OpChoice refuse_form(const OpSpec& s, const std::string& why);
OpChoice select_memory_op(const OpSpec& s);
// cp.async (with its groups and mbarrier arrival) and mbarrier: async_ops.cpp.
OpChoice select_async_op(const OpSpec& s);
// bulk_ops.cpp: cp.async.bulk, cp.reduce.async.bulk, their groups and the bulk prefetch.
OpChoice select_bulk_op(const OpSpec& s);
OpChoice select_matrix_move(const OpSpec& s);
// atom_vector_ops.cpp: the vector forms of atom and red (.v2, .v4, .v8).
OpChoice select_atom_vector(const OpSpec& s);
// hint_ops.cpp: prefetch, prefetchu, discard, applypriority, createpolicy.
OpChoice select_hint_op(const OpSpec& s);   // matrix_moves.cpp: ldmatrix, stmatrix, wmma.load, wmma.store

} // namespace gpusim
