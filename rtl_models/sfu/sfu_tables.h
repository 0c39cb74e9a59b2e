// The special function unit's captured results: for each table, what an H100's MUFU returned for
// every input of one sweep (docs/sfu.md says which sweep, and how to capture them again). They are
// built into the simulator compressed and unpacked on first use.
#pragma once

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

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

// A table packed for lookups at random. Its entries as integers change by one of two neighbouring
// steps from one to the next across most blocks of 64 (rsqrt and sqrt everywhere, lg2 of [1, 2)
// in 88% of them), so such a block is its first entry, the smaller step and a bit per step:
// 16 bytes for 256. Other blocks keep their entries. An 8 Mi-entry table takes 2 to 6 MB instead
// of 32 MB, and all of them 28 MB instead of 352 MB: a lane's lookup mostly finds the host's caches
// where the full tables missed to memory (docs/sfu.md has the cost per operation).
class PackedSfuTable {
public:
    static constexpr uint32_t kBlockBits = 6;
    static constexpr uint32_t kBlock = 1u << kBlockBits;

    explicit PackedSfuTable(const std::vector<uint32_t>& entries);

    uint32_t operator[](uint32_t i) const {
        const Block& b = m_blocks[i >> kBlockBits];
        const uint32_t k = i & (kBlock - 1);
        if (b.step == kKept) return m_kept[b.first + k];
        const uint64_t below = b.mask & ((uint64_t(1) << k) - 1);   // the larger steps before entry k
        return b.first + uint32_t(b.step) * k + ones(below);
    }
    size_t bytes() const { return m_blocks.size() * sizeof(Block) + m_kept.size() * sizeof(uint32_t); }

private:
    // The bits set in v, without a call: the baseline x86-64 build has no popcnt instruction, and
    // __builtin_popcountll there calls into libgcc.
    static uint32_t ones(uint64_t v) {
        v -= (v >> 1) & 0x5555555555555555ull;
        v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
        v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
        return uint32_t((v * 0x0101010101010101ull) >> 56);
    }

    static constexpr int32_t kKept = INT32_MIN;   // a block whose entries are kept as they are
    struct Block {
        uint64_t mask = 0;     // bit j: the step from entry j to j+1 is step + 1
        uint32_t first = 0;    // the first entry, or (kept) where the entries start in m_kept
        int32_t step = 0;      // the smaller step (mod 2^32), or kKept
    };
    std::vector<Block> m_blocks;
    std::vector<uint32_t> m_kept;
};

// The table; the first call for a table unpacks it (thread-safe). A table missing from the build
// or of the wrong length is a build fault: it throws std::logic_error.
const PackedSfuTable& unpack_sfu_table(SfuTable t);

// Tables unpacked so far, for the lookups of every lane (set once each, never cleared).
extern std::atomic<const PackedSfuTable*> g_sfu_tables[size_t(SfuTable::Count)];

inline const PackedSfuTable& sfu_table(SfuTable t) {
    const PackedSfuTable* table = g_sfu_tables[size_t(t)].load(std::memory_order_acquire);
    return table ? *table : unpack_sfu_table(t);
}

// Every entry of the table, unpacked anew (the tests compare the packed table with it).
std::vector<uint32_t> sfu_table_entries(SfuTable t);

// Entries of each table.
uint32_t sfu_table_size(SfuTable t);

} // namespace gpusim
