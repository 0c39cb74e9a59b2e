// --racecheck (sim.racecheck): finds data races a simulator can see and a GPU cannot.
//
// Shared memory: two accesses to the same byte by threads of different warps of one block, at
// least one a write, with no barrier of the block released between them (read-after-write,
// write-after-read, write-after-write). Each block counts its released barriers (an epoch); a
// byte's shadow holds the last write and the reads of the current epoch.
//
// Global memory: two accesses to the same byte by different blocks of one kernel, at least one a
// plain write. The earlier access is ordered before the later one, and no race, when its block
// executed a fence (membar.gl, fence.*.gpu) or a release (st.release.gpu, atom.acq_rel.gpu) of
// gpu or system scope after it: the message-passing pattern of threadFenceReduction and grid.sync.
//
// In both spaces, strong accesses (atomics, and loads and stores that are .volatile, .relaxed,
// .acquire or .release) do not race with each other, nor with a plain read: the compare-and-swap
// loop that reads the old value plainly is correct. Two plain writes of which the later leaves the
// bytes unchanged (every block setting a flag to true) are benign and not reported.
//
// Reports are SystemC warnings of type gpusim/racecheck (isa/reports.h), posted as they are found,
// one per kernel, kind of hazard and pair of instructions. docs/checks.md describes the rules and
// their limits.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "isa/launch.h"

namespace gpusim {

class AllocationMap;

class RaceCheck {
public:
    // Atomic: an atomic or a strong store; StrongRead: a strong load.
    enum class Kind : uint8_t { Read, Write, Atomic, StrongRead };
    struct Access {
        uint32_t thread = 0;      // the thread's index in its block
        uint32_t pc = 0;          // the instruction's index in the kernel image
        Kind kind = Kind::Read;   // as the LD/ST unit sees it; the instruction's qualifiers refine it
        bool unchanged = false;   // a write that leaves the bytes as they were
    };

    // `shadow_bytes` bounds the host memory of the global shadow (sim.racecheck_shadow_mib): past
    // it, global memory not yet shadowed is no longer checked, and one warning says so.
    explicit RaceCheck(const AllocationMap* allocations = nullptr, uint64_t shadow_bytes = UINT64_MAX)
        : m_allocations(allocations), m_shadow_pages(shadow_bytes / kShadowPageBytes) {}

    void begin_launch(const LaunchInfo& launch);
    void begin_cta(uint32_t sm, uint32_t slot, uint64_t block, uint32_t shared_bytes);
    void barrier(uint32_t sm, uint32_t slot);     // a barrier of the block in that slot released
    void fence(uint32_t sm, uint32_t slot);       // a thread of the block fenced at gpu scope or wider
    void shared_access(uint32_t sm, uint32_t slot, const Access& a, uint64_t addr, uint32_t size);
    void global_access(uint32_t sm, uint32_t slot, const Access& a, uint64_t addr, uint32_t size);

    uint64_t hazards() const { return m_hazards; }             // distinct hazards, all launches
    const std::vector<std::string>& reports() const { return m_reports; }   // the first kMaxKept

private:
    static constexpr size_t kMaxKept = 64;       // reports kept for reports(); all are posted
    static constexpr uint32_t kPageBits = 12;    // global shadow pages of 4 KiB

    struct Site {
        uint64_t block = UINT64_MAX;   // none
        uint32_t thread = 0;
        uint32_t pc = 0;
        uint32_t fences = 0;           // global: the block's fence count when it made the access
        Kind kind = Kind::Read;
        bool unchanged = false;
        bool valid() const { return block != UINT64_MAX; }
    };
    // A byte's shadow: the last write, the last read and a read by another warp or block than that
    // one (so that a later writer always finds a reader other than itself when there is one).
    struct Cell {
        Site writer, reader, other_reader;
        uint32_t write_epoch = 0, read_epoch = 0;   // shared memory only
    };
    static constexpr uint64_t kShadowPageBytes = sizeof(Cell) << kPageBits;
    struct BlockState {
        uint64_t block = 0;
        uint32_t epoch = 1;
        uint32_t fences = 0;           // this block's fences and releases so far
        std::vector<Cell> shared;
    };

    const AllocationMap* m_allocations;
    LaunchInfo m_launch;
    std::vector<std::vector<BlockState>> m_blocks;                    // by SM, then slot
    std::unordered_map<uint64_t, uint32_t> m_fences;                   // per block, this launch
    // The global shadow page the last access used: accesses come in runs on one page.
    uint64_t m_last_page_key = UINT64_MAX;
    Cell* m_last_page = nullptr;
    std::unordered_map<uint64_t, std::unique_ptr<Cell[]>> m_global;   // shadow pages
    uint64_t m_shadow_pages;                                           // at most this many
    bool m_shadow_full = false;                                        // the warning was given
    std::set<std::tuple<std::string, std::string, uint32_t, uint32_t>> m_seen;   // (kernel, hazard, pc, pc)
    uint64_t m_hazards = 0;
    std::vector<std::string> m_reports;

    Cell* global_cell(uint64_t addr);   // null past the shadow's limit
    BlockState& state(uint32_t sm, uint32_t slot) {
        if (sm >= m_blocks.size()) m_blocks.resize(sm + 1);
        if (slot >= m_blocks[sm].size()) m_blocks[sm].resize(slot + 1);
        return m_blocks[sm][slot];
    }
    void count_fence(BlockState& b) { m_fences[b.block] = ++b.fences; }
    Site site_of(uint32_t sm, uint32_t slot, const Access& a);
    uint32_t fences_of(uint64_t block) const;
    bool check_shared(Cell& c, const Site& now, uint64_t addr, uint32_t size, uint64_t block);
    bool check_global(Cell& c, const Site& now, uint64_t addr, uint32_t size);
    bool ordered_global(const Site& earlier) const;
    static bool conflicts(const Site& earlier, const Site& now);
    void report(bool global, const Site& earlier, const Site& now, uint64_t addr, uint32_t size, uint64_t block);
    std::string site_text(bool global, const Site& s) const;
    static void record(Cell& c, const Site& now, bool same_group);
};

} // namespace gpusim
