// Calls and returns (call_ops.cpp): the parts the SM's issue loop and the loader need.
#pragma once

#include "isa/exec_context.h"

namespace gpusim {

ExecFn call_fn();   // call: Inst::offset is the CallSite, Inst::a the target of an indirect call
ExecFn ret_fn();    // ret: returns from a function, or exits in the kernel body
ExecFn exit_fn();   // exit (control_ops.cpp)
ExecFn brx_fn();    // brx.idx: Inst::a the index, Inst::offset the jump table
ExecFn syscall_fn(); // call of a device runtime function (syscall_ops.cpp): Inst::offset is the CallSite

namespace calls {
// Completes the innermost call once none of its threads has a path left: results to the caller,
// saved registers back, and the warp resumes at the return point.
void finish_call(ExecContext& c, Warp& w);
} // namespace calls

} // namespace gpusim
