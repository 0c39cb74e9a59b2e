// What every fuzz harness shares. A harness feeds one input to one loader; the input passes when
// the loader accepts it or refuses it with the error type bad input gets (ptx::PtxError,
// std::runtime_error and its kin, fatbin::FatbinError). Anything else escapes to libFuzzer and
// is a finding: a crash or sanitizer report, an exception of another type (std::out_of_range,
// a JSON type error, std::bad_alloc), or an input slower than -timeout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

inline std::string_view fuzz_text(const uint8_t* data, size_t size) {
    return std::string_view(reinterpret_cast<const char*>(data), size);
}
