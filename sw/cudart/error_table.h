// The error codes of CUDA 13 with their names and descriptions (error_table.cpp).
#pragma once

#include <cstddef>

namespace gpusim::cudart {

struct ErrorText {
    int code;
    const char* name;
    const char* text;
};

extern const ErrorText kErrorTable[];
extern const size_t kErrorTableSize;

} // namespace gpusim::cudart
