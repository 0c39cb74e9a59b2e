// The instructions the SM executes: those of every unit it composes (ALU, SFU, video, LD/ST),
// and its own control-flow and warp-level instructions (control_ops.cpp, warp_ops.cpp).
#pragma once

#include "isa/op_registry.h"

namespace gpusim {

// Built once, on first use; read-only after.
const OpRegistry& sm_operations();

OpChoice select_control_op(const OpSpec& s);   // control_ops.cpp
OpChoice select_warp_op(const OpSpec& s);      // warp_ops.cpp

} // namespace gpusim
