// The multi-function unit (MUFU) as a Hopper GPU computes it, bit for bit, on raw fp32, fp16 and
// bf16 encodings. Except in tanh, which passes tiny inputs through, subnormal inputs read as zero
// and results below the normal range are zero, as in MUFU itself; the PTX instructions wrap these
// in the scaling sequences of approx_sequences.h.
//
// rcp, rsqrt, sqrt, ex2 and lg2 give the entries of tables captured on an H100 (sfu_tables.h),
// with the exponent handled as the data shows; the entries are evaluated by the unit's quadratic
// interpolator, fitted to every entry of the tables (interpolator.h, mufu_table_fits.h), and read
// from the tables only where no fit exists. The 16-bit forms are looked up. sin, cos and tanh are
// the same interpolator with coefficients fitted to captures (mufu_coefficients.h). docs/sfu.md
// has the evidence for each.
#pragma once

#include <cstdint>

namespace gpusim::mufu {

uint32_t rcp(uint32_t x);
uint32_t rsqrt(uint32_t x);
uint32_t sqrt(uint32_t x);
uint32_t ex2(uint32_t x);
uint32_t lg2(uint32_t x);
uint32_t sin(uint32_t revolutions);   // sin(2*pi*r)
uint32_t cos(uint32_t revolutions);
uint32_t tanh(uint32_t x);
uint16_t tanh_f16(uint16_t x);
uint16_t tanh_bf16(uint16_t x);
uint16_t ex2_f16(uint16_t x);
uint16_t ex2_bf16(uint16_t x);

// A warp's 32 operands at once, in loops the compiler vectorises: out[l] = f(x[l]) for every lane
// whose bit the result leaves clear. The lanes it sets (zero, subnormal, infinite and NaN operands,
// those outside the function's domain, and the few segments read from a table) the caller
// evaluates one by one.
// sin_warp and cos_warp take revolutions, as sin and cos do.
uint32_t rcp_warp(const uint32_t* x, uint32_t* out);
uint32_t rsqrt_warp(const uint32_t* x, uint32_t* out);
uint32_t sqrt_warp(const uint32_t* x, uint32_t* out);
uint32_t ex2_warp(const uint32_t* x, uint32_t* out);
uint32_t lg2_warp(const uint32_t* x, uint32_t* out);
uint32_t sin_warp(const uint32_t* revolutions, uint32_t* out);
uint32_t cos_warp(const uint32_t* revolutions, uint32_t* out);

} // namespace gpusim::mufu
