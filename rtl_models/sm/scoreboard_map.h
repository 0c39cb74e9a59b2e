// Timing mode's scoreboard for one kernel: where each entry a warp's instruction can wait on lies
// in the warp's scoreboard (register rows, then predicates, then one entry for the warp's
// outstanding memory accesses, which a fence waits for), and the entries each instruction waits
// on, listed once at launch so that the check before each issue is a plain loop.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/isa.h"

namespace gpusim {

class ScoreboardMap {
public:
    // drain_stores (sm.drain_stores): the instructions that end a warp wait on the memory entry.
    void build(const KernelImage& kernel, bool drain_stores = false);

    uint32_t size() const { return m_memory + 1; }
    static uint32_t row(Row r) { return uint32_t(r); }
    uint32_t pred(int p) const { return m_preds + uint32_t(p); }
    uint32_t memory() const { return m_memory; }

    // The entries the instruction at `pc` waits on: its sources, and its destinations (for
    // write-after-write). The order decides which of several latest entries names a stall.
    const uint32_t* begin(uint32_t pc) const { return m_entries.data() + m_first[pc]; }
    const uint32_t* end(uint32_t pc) const { return m_entries.data() + m_first[pc + 1]; }
    // Calls, returns and device runtime calls move whole frames: after those entries they wait
    // on every register row (not listed, so that the map stays a few words per instruction).
    bool waits_for_all_rows(uint32_t pc) const { return m_all_rows[pc]; }
    uint32_t rows() const { return m_preds; }

    // Calls f(entry) for each entry the instruction writes (its destinations; the memory entry
    // is its issuer's to update), at its issue and again when a deferred latency is priced.
    template <class F> void for_each_destination(const Inst& in, F&& f) const {
        if (in.d >= 0) f(row(in.d));
        if (in.dest_flags & kDestVec)
            for (int e = 0; e < in.vec_count; ++e)
                if (in.vec[e] >= 0) f(row(in.vec[e]));
        if (in.pd >= 0) f(pred(in.pd));
        if ((in.dest_flags & kDestPb) && in.pb >= 0) f(pred(in.pb));
        if (in.dest_flags & kMatrixRows)
            for (Row r : m_kernel->matrix_operands[in.target].d) f(row(r));
    }

private:
    const KernelImage* m_kernel = nullptr;   // the kernel built for (matrix instructions' register lists)
    uint32_t m_preds = 0;
    uint32_t m_memory = 0;
    std::vector<uint32_t> m_first;     // per instruction, then one past the last
    std::vector<uint32_t> m_entries;
    std::vector<uint8_t> m_all_rows;
};

} // namespace gpusim
