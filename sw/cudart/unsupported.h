// The CUDA 13 runtime functions the model does not implement: each returns
// cudaErrorNotSupported and names itself on stderr the first time it is called. CMake generates
// one GPUSIM_UNSUPPORTED line for every name in cudart13_symbols.txt that no api_*.cpp defines.
#pragma once

#include "cudart/api.h"

namespace gpusim::cudart {
inline cudaError_t unsupported(const char* name) {
    Context& c = Context::get();
    std::lock_guard<std::recursive_mutex> lock(c.lock());
    c.report_unsupported(name);
    return Context::last_error() = cudaError_t(Error::NotSupported);
}
} // namespace gpusim::cudart

// Declared without parameters: the caller's arguments are ignored, which the C calling
// convention allows; functions returning other types are all implemented.
#define GPUSIM_UNSUPPORTED(fn) \
    CUDART_API cudaError_t fn() { return gpusim::cudart::unsupported(#fn); }

// An export that is another's entry point under a second name: a jump that leaves every argument
// where the caller put it.
#define GPUSIM_SAME_AS(fn, target)                                                              \
    __asm__(".globl " #fn "\n.type " #fn ", @function\n" #fn ":\n    jmp " #target "@PLT\n" \
            ".size " #fn ", . - " #fn "\n");
