// Formatting of device-side printf (CUDA's vprintf): the format string and an argument buffer
// in which each argument sits at the next offset aligned to its size (int and smaller as 4 bytes,
// long, pointers and double as 8; float arrives promoted to double).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace gpusim {

struct PrintfSource {
    std::function<void(uint64_t offset, void* out, size_t n)> arg;   // bytes of the argument buffer
    std::function<std::string(uint64_t address)> string;             // a %s argument's text
};

// The formatted text; a conversion the host's printf does not know is copied as written.
std::string format_device_printf(const std::string& format, const PrintfSource& src);

} // namespace gpusim
