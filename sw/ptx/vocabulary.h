// The fixed vocabulary of PTX the parser checks against, and the values of its literals.
#pragma once

#include <cstdint>
#include <string>

#include "ptx/lexer.h"

namespace gpusim::ptx {

// Whether `base` (without a ".x" component) names a special register, e.g. "%tid", "%clock64".
bool is_special_register(const std::string& base);

// Whether `op` is a scalar or SIMD video instruction (the only ones with operand selectors).
bool is_video_opcode(const std::string& op);

// The value of an integer literal: decimal, 0x hex, 0b binary or 0-prefixed octal, with an
// optional U suffix. Throws PtxError (naming `file`) when the token is not one or overflows.
uint64_t integer_literal(const std::string& file, const Token& t);

// The bits of a float literal as f32 (`single`) or f64: 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX give
// exact bit patterns (converted when the width differs), decimal forms are rounded to nearest.
uint64_t float_literal_bits(const Token& t, bool single);
// The value of a decimal floating-point literal ("1.5e3"): +inf beyond the range of a double (the
// lexer refuses those), the nearest subnormal or zero below it.
double decimal_literal(const std::string& text);

} // namespace gpusim::ptx
