// Fixed windows of the GPU's 64-bit address space. Generic addresses that fall in the shared or
// local window reach the CTA's shared memory or the thread's local memory, as on Fermi; everything
// else is global device memory.
#pragma once

#include <cstdint>

namespace gpusim::memory_map {

constexpr uint64_t kSharedWindowBase = 0x0000'0001'0000'0000ull;   // 16 MiB window
constexpr uint64_t kSharedWindowSize = 0x0000'0000'0100'0000ull;
constexpr uint64_t kLocalWindowBase = 0x0000'0002'0000'0000ull;    // 4 GiB window
constexpr uint64_t kLocalWindowSize = 0x0000'0001'0000'0000ull;
constexpr uint64_t kModuleDataBase = 0x0000'0004'0000'0000ull;     // module .global/.const variables
constexpr uint64_t kHeapBase = 0x0000'0010'0000'0000ull;           // cudaMalloc-style allocations
constexpr uint64_t kHeapLimit = 0x0000'7000'0000'0000ull;

inline bool in_shared_window(uint64_t a) { return a - kSharedWindowBase < kSharedWindowSize; }
inline bool in_local_window(uint64_t a) { return a - kLocalWindowBase < kLocalWindowSize; }

} // namespace gpusim::memory_map
