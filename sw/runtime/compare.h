// Comparing a device buffer with a reference file: bit-exact, or within an error bound for the
// results of approximate instructions (.approx, div.full), whose exact bits differ between GPUs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpusim {

// An element passes if its bits equal the reference's, or if both are NaN, or if both are finite
// and any bound that is set (>= 0) holds: |got-ref| <= ulp * ulp(ref), <= abs, or <= rel * |ref|.
struct Tolerance {
    enum class Type { Exact, F32, F64 } type = Type::Exact;
    double ulp = -1, abs = -1, rel = -1;

    bool exact() const { return type == Type::Exact; }
    std::string describe() const;
};

// Returns "" when `got` matches, else a message naming how many elements differ and the first one
// (index, expected, got); with a tolerance also the largest error seen.
std::string compare_buffers(const std::vector<uint8_t>& expected, const std::vector<uint8_t>& got,
                            const Tolerance& tol = {});

} // namespace gpusim
