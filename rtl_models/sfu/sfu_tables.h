// The special function unit's captured results: for each table, what an H100's MUFU returned for
// every input of one sweep (docs/sfu.md says which sweep, and how to capture them again). They are
// built into the simulator compressed and unpacked on first use.
#pragma once

#include <cstdint>

namespace gpusim {

enum class SfuTable : uint8_t {
    Rcp,        // MUFU.RCP of [1, 2), 2^23 entries
    Rsqrt,      // MUFU.RSQ of [1, 4), 2^24 entries
    Sqrt,       // MUFU.SQRT of [1, 4), 2^24 entries
    Ex2Pos,     // MUFU.EX2 of [1, 2) on the 2^-23 grid
    Ex2Neg,     // MUFU.EX2 of (-2, -1] on the 2^-23 grid
    Lg2E0,      // MUFU.LG2 of [1, 2)
    Lg2Em1,     // MUFU.LG2 of [0.5, 1)
    Lg2Em2,     // MUFU.LG2 of [0.25, 0.5)
    TanhF16,    // MUFU.TANH.F16 of every binary16 pattern
    TanhBf16,   // MUFU.TANH.BF16 of every bfloat16 pattern
    Ex2F16,     // MUFU.EX2.F16 of every binary16 pattern
    Ex2Bf16,    // MUFU.EX2.BF16 of every bfloat16 pattern
    Count
};

// The table's entries; the first call for a table unpacks it (thread-safe). A table missing from
// the build or of the wrong length is a build fault: it throws std::logic_error.
const uint32_t* sfu_table(SfuTable t);

// Entries of each table.
uint32_t sfu_table_size(SfuTable t);

} // namespace gpusim
