// PTX text for tests: the header nvcc writes, and the first problem the front end or the loader
// finds in a module.
#pragma once

#include <string>

#include "loader/loader.h"
#include "ptx/parser.h"

namespace gpusim::test {

inline const char* kPtxHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// The message of the first error in `src` (named t.ptx), or "" when the model can run all of it.
inline std::string first_error(const std::string& src) {
    try {
        ptx::Module m = ptx::parse("t.ptx", src);
        auto errs = loader::check_module(m);
        return errs.empty() ? "" : errs.front().what();
    } catch (const ptx::PtxError& e) {
        return e.what();
    }
}

} // namespace gpusim::test
