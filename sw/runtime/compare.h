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

// Bytes to compare, from any vector of bytes (a reference file's, a buffer's in huge pages).
struct ByteSpan {
    const uint8_t* data = nullptr;
    size_t size = 0;
    template <typename Allocator>
    ByteSpan(const std::vector<uint8_t, Allocator>& v) : data(v.data()), size(v.size()) {}
};

// Returns "" when `got` matches, else a message naming how many elements differ and the first one
// (index, expected, got); with a tolerance also the largest error seen.
std::string compare_buffers(ByteSpan expected, ByteSpan got, const Tolerance& tol = {});

} // namespace gpusim
