// SharedMemory::schedule: which lanes each pass serves. passes() only counts (the hot path); this
// is the reference the RTL twin is checked against, pass by pass (testbench/rtl).
#include <algorithm>

#include "isa/exec_context.h"
#include "isa/lane_addresses.h"
#include "smem/shared_memory.h"

namespace gpusim {

namespace {
// One interleave unit (or, on cc 1.x, one lane's piece address) waiting for its bank.
struct Slot {
    int lane;
    uint64_t addr, bank, row;
};
} // namespace

void SharedMemory::schedule_group(const uint64_t* addr, LaneMask group, uint32_t width, std::vector<LaneMask>& out) const {
    std::vector<Slot> waiting;
    for_lanes(group, [&](int l) {
        // cc 1.x broadcasts whole addresses; otherwise a wide access touches every unit it covers.
        const uint64_t end = m_cfg.single_broadcast ? addr[l] + 1 : addr[l] + width;
        for (uint64_t a = addr[l]; a < end; a += m_cfg.interleave_bytes) {
            Slot s{l, a, 0, 0};
            locate(a, s.bank, s.row);
            waiting.push_back(s);
        }
    });
    const uint64_t word = m_cfg.bank_width_bytes;
    while (!waiting.empty()) {
        // Each bank's winner is its first waiting slot (lane order); on cc 1.x the first slot's
        // word is broadcast and its bank serves nothing else.
        const uint64_t bword = waiting.front().addr / word;
        const uint64_t bbank = (bword * word / m_cfg.interleave_bytes) % m_cfg.banks;
        std::vector<const Slot*> winner(m_cfg.banks, nullptr);
        for (const Slot& s : waiting)
            if (!winner[s.bank] && !(m_cfg.single_broadcast && s.bank == bbank)) winner[s.bank] = &s;
        auto served = [&](const Slot& s) {
            const Slot* w = winner[s.bank];
            if (m_cfg.single_broadcast) return s.addr / word == bword || (w && s.addr == w->addr);
            return w && s.row == w->row;
        };
        LaneMask touched = 0, unfinished = 0;
        std::vector<Slot> left;
        for (const Slot& s : waiting) {
            if (served(s)) {
                touched |= LaneMask(1) << s.lane;
            } else {
                unfinished |= LaneMask(1) << s.lane;
                left.push_back(s);
            }
        }
        out.push_back(touched & ~unfinished);
        waiting.swap(left);
    }
}

std::vector<LaneMask> SharedMemory::schedule(const uint64_t* addr, LaneMask mask, uint32_t width) const {
    std::vector<LaneMask> out;
    uint32_t pieces = 1, piece = width;
    if (m_cfg.split_wide && width > m_cfg.bank_width_bytes) {
        pieces = width / m_cfg.bank_width_bytes;
        piece = m_cfg.bank_width_bytes;
    }
    const uint32_t g = group_threads(width);
    uint64_t shifted[kWarpSize];
    for (uint32_t p = 0; p < pieces; ++p) {
        for (int l = 0; l < kWarpSize; ++l) shifted[l] = addr[l] + uint64_t(p) * piece;
        for (uint32_t first = 0; first < uint32_t(kWarpSize); first += g)
            if (LaneMask group = mask & lane_group(first, g)) schedule_group(shifted, group, piece, out);
    }
    return out;
}

} // namespace gpusim
