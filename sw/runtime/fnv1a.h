// FNV-1a, 64 bits: the project's one content hash (buffer digests in the statistics, the sweep's
// cache keys, the device UUID). Not cryptographic; it names contents, it does not guard them.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpusim {

constexpr uint64_t kFnv1aBasis = 14695981039346656037ull;

inline uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = kFnv1aBasis) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t k = 0; k < bytes; ++k) h = (h ^ p[k]) * 1099511628211ull;
    return h;
}

inline uint64_t fnv1a(std::string_view text, uint64_t h = kFnv1aBasis) { return fnv1a(text.data(), text.size(), h); }

} // namespace gpusim
