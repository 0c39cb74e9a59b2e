// Coalescing of a warp's global or local access into memory transactions, by the rules of each
// generation (CUDA C Programming Guide 5.5, G.3.2, G.4.2, G.5.2):
//   cc10  per half-warp: one 64/128-byte transaction when the k-th thread reads the k-th word of an
//         aligned segment, else one 32-byte transaction per thread;
//   cc12  per half-warp: one transaction per segment touched (32 B for bytes, 64 B for 16-bit
//         words, 128 B otherwise), shrunk to 64 or 32 B when only part of it is used;
//   cc20  per warp (half-warp for 8-byte, quarter-warp for 16-byte words): one transaction per
//         line touched (128 B cached in L1, 32 B when the access bypasses L1);
//   cc35  per warp: one 32-byte transaction per segment touched (loads are cached in L2 only);
//   cc90  as cc35 (32-byte sectors move), but the L1 looks a warp's access up line by line: it
//         passes the LD/ST pipe once per 128-byte line touched, not per sector (lines_touched).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/isa.h"

namespace gpusim {

struct Transaction {
    uint64_t address;   // aligned to its size
    uint32_t bytes;
};

enum class CoalescingRule : uint8_t { Cc10, Cc12, Cc20, Cc35, Cc90 };

// Throws std::runtime_error for an unknown name.
CoalescingRule coalescing_rule(const std::string& name);

// Appends the transactions of one warp access (`width` bytes per thread at `addr[lane]`) and
// returns how many thread groups took part. `cached` selects L1-line granularity on cc20.
// The distinct `line`-byte lines (a power of two) the transactions lie in.
uint32_t lines_touched(const std::vector<Transaction>& txns, uint32_t line);

uint32_t coalesce(CoalescingRule rule, const uint64_t* addr, LaneMask mask, uint32_t width, bool cached,
              std::vector<Transaction>& out);

} // namespace gpusim
