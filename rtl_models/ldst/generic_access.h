// Byte reads at a generic address on behalf of one thread, for the device runtime functions
// (printf's format string and arguments, assert's message): the same translation and checks as
// a ld of that thread, one byte at a time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "isa/exec_context.h"

namespace gpusim {

void read_generic(ExecContext& c, Warp& w, int lane, uint64_t addr, void* out, size_t n);

} // namespace gpusim
