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
// div.approx or div.full (`full`) of a by b, plus c: ptxas fuses the division's last multiply with
// a following add (sw/loader/contraction.h), so the sum is rounded once.
uint32_t div_add(uint32_t a, uint32_t b, uint32_t c, bool ftz, bool full);

// A warp's 32 lanes at once (mufu.h's *_warp): out[l] is the instruction's result for every lane
// whose bit the result leaves clear; the caller computes the lanes it sets with the functions
// above. fn numbers the functions rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh.
uint32_t warp(uint8_t fn, bool ftz, const uint32_t* x, uint32_t* out);
// div.approx or div.full of a by b (they differ only in the lanes it sets).
uint32_t div_warp(bool ftz, const uint32_t* a, const uint32_t* b, uint32_t* out);

} // namespace gpusim::approx
