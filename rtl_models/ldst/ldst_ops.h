// The LD/ST unit's instructions: loads, stores, atomics and reductions in every state space,
// prefetches and the address-space tests and conversions.
#pragma once

#include "isa/op_registry.h"

namespace gpusim {

void register_ldst_ops(OpRegistry& r);
OpChoice select_memory_op(const OpSpec& s);

} // namespace gpusim
