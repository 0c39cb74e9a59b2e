// The LD/ST unit's instructions: loads, stores, atomics and reductions in every state space,
// prefetches and the address-space tests and conversions, and the asynchronous copies and
// transaction barriers.
#pragma once

#include "isa/op_registry.h"

namespace gpusim {

void register_ldst_ops(OpRegistry& r);
OpChoice select_memory_op(const OpSpec& s);
// cp.async (with its groups and mbarrier arrival) and mbarrier: async_ops.cpp.
OpChoice select_async_op(const OpSpec& s);

} // namespace gpusim
