// Recursive-descent parser for PTX modules (ISA 2.x to 9.x as nvcc and hand-written Fermi code use it).
#pragma once

#include <string>
#include <string_view>

#include "ptx/ast.h"

namespace gpusim::ptx {

// Parses PTX text; throws PtxError ("file:line:col: error: ...") on the first problem.
Module parse(const std::string& file, std::string_view source);

// Reads and parses a PTX file.
Module parse_file(const std::string& path);

} // namespace gpusim::ptx
