// Fixed windows of the GPU's 64-bit address space. Generic addresses that fall in the shared or
// local window reach the CTA's shared memory or the thread's local memory, as on Fermi. Device
// memory lies below kDeviceLimit; addresses from there up are the host's own (one address space
// for both, as CUDA's unified addressing; a 64-bit process's heap and mappings lie there): the GPU
// reaches them over the PCIe link, where the host registered them (mapped, zero-copy memory).
// Managed memory has a window of its own among the host's addresses: its pages are mapped at the
// same address in the program and in device memory (free in a plain and an ASan process alike).
#pragma once

#include <cstdint>

namespace gpusim::memory_map {

constexpr uint64_t kSharedWindowBase = 0x0000'0001'0000'0000ull;   // 16 MiB window
constexpr uint64_t kSharedWindowSize = 0x0000'0000'0100'0000ull;
constexpr uint64_t kLocalWindowBase = 0x0000'0002'0000'0000ull;    // 4 GiB window
constexpr uint64_t kLocalWindowSize = 0x0000'0001'0000'0000ull;
constexpr uint64_t kFunctionBase = 0x0000'0003'0000'0000ull;      // device function addresses
constexpr uint64_t kFunctionWindowSize = 0x0000'0000'0100'0000ull; // (for indirect calls), by module index
constexpr uint64_t kFunctionStride = 16;
constexpr uint64_t kModuleDataBase = 0x0000'0004'0000'0000ull;     // module .global variables
constexpr uint64_t kDeviceHeapBase = 0x0000'000C'0000'0000ull;    // device-side malloc heap (16 GiB window)
constexpr uint64_t kConstBase = 0x0000'0008'0000'0000ull;          // module .const variables (4 GiB window)
constexpr uint64_t kConstWindowSize = 0x0000'0001'0000'0000ull;
constexpr uint64_t kHeapBase = 0x0000'0010'0000'0000ull;           // cudaMalloc-style allocations
constexpr uint64_t kDeviceLimit = 0x0000'1000'0000'0000ull;        // 16 TiB: the host's above
constexpr uint64_t kHeapLimit = kDeviceLimit;

inline bool in_shared_window(uint64_t a) { return a - kSharedWindowBase < kSharedWindowSize; }
inline bool in_local_window(uint64_t a) { return a - kLocalWindowBase < kLocalWindowSize; }
inline bool in_const_window(uint64_t a) { return a - kConstBase < kConstWindowSize; }
constexpr uint64_t kManagedBase = 0x0000'5000'0000'0000ull;        // 80 TiB
constexpr uint64_t kManagedWindowSize = 0x0000'0100'0000'0000ull;  // 1 TiB

inline bool in_managed_window(uint64_t a) { return a - kManagedBase < kManagedWindowSize; }
inline bool is_host_address(uint64_t a) { return a >= kDeviceLimit && !in_managed_window(a); }

inline uint64_t function_address(uint32_t module_index) { return kFunctionBase + uint64_t(module_index) * kFunctionStride; }
// The module index of a function address, or -1 when the address names no function.
inline int64_t function_index(uint64_t a) {
    if (a < kFunctionBase || (a - kFunctionBase) % kFunctionStride || a - kFunctionBase >= kFunctionWindowSize) return -1;
    return int64_t((a - kFunctionBase) / kFunctionStride);
}

} // namespace gpusim::memory_map
