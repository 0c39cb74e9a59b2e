// The PTX approximate instructions as the GPU runs them: each compiles to a MUFU operation inside a
// short sequence of IEEE multiplies that scales subnormal or huge operands (read from the machine
// code ptxas makes for sm_90; docs/sfu.md lists the sequences). Values are raw fp32 encodings.
#pragma once

#include <cstdint>

namespace gpusim::approx {

uint32_t rcp(uint32_t x, bool ftz);
uint32_t sqrt(uint32_t x, bool ftz);
uint32_t rsqrt(uint32_t x, bool ftz);
uint32_t ex2(uint32_t x, bool ftz);
uint32_t lg2(uint32_t x, bool ftz);
uint32_t sin(uint32_t x);    // the .ftz form runs the same code
uint32_t cos(uint32_t x);
uint32_t div_approx(uint32_t a, uint32_t b, bool ftz);
uint32_t div_full(uint32_t a, uint32_t b, bool ftz);

} // namespace gpusim::approx
