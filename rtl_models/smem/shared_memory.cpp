#include "smem/shared_memory.h"

#include <algorithm>

#include "sm/exec_context.h"

namespace gpusim {

SharedMemory::SharedMemory(const sc_core::sc_module_name& name, const SharedMemoryConfig& cfg)
    : UnitModule(name), m_cfg(cfg) {}

uint32_t SharedMemory::group_threads(uint32_t width) const {
    uint32_t unit = m_cfg.split_wide ? std::min(width, m_cfg.bank_width_bytes) : width;
    uint32_t per_pass = m_cfg.banks * m_cfg.bank_width_bytes / std::max(unit, 1u);
    return std::clamp<uint32_t>(per_pass, 1, std::min<uint32_t>(m_cfg.max_group_threads, kWarpSize));
}

// Each bank serves one row per pass; the access needs as many passes as the busiest bank has rows.
uint32_t SharedMemory::group_passes(const uint64_t* addr, LaneMask group, uint32_t width) const {
    constexpr int kMaxBanks = 64;
    uint64_t rows[kMaxBanks][kWarpSize * 4];
    uint32_t counts[kMaxBanks] = {};
    const uint64_t row_bytes = uint64_t(m_cfg.banks) * m_cfg.bank_width_bytes;
    uint32_t worst = 0;
    for_lanes(group, [&](int l) {
        // A wide access touches every interleave unit it covers.
        for (uint64_t a = addr[l]; a < addr[l] + width; a += m_cfg.interleave_bytes) {
            uint32_t bank = uint32_t((a / m_cfg.interleave_bytes) % m_cfg.banks);
            uint64_t row = a / row_bytes;
            uint32_t& n = counts[bank];
            if (std::find(rows[bank], rows[bank] + n, row) == rows[bank] + n && n < kWarpSize * 4) rows[bank][n++] = row;
            worst = std::max(worst, n);
        }
    });
    return std::max(worst, 1u);
}

// cc 1.x: each pass serves the threads of one broadcast word and one address in every other bank.
uint32_t SharedMemory::single_broadcast_passes(const uint64_t* addr, LaneMask group) const {
    uint32_t passes = 0;
    const uint64_t word = m_cfg.bank_width_bytes;
    while (group) {
        ++passes;
        uint64_t bword = addr[__builtin_ctz(group)] / word;
        uint64_t taken[64];
        bool used[64] = {};
        // The broadcast word's bank serves nothing else in this pass.
        const uint32_t bbank = uint32_t((bword * word / m_cfg.interleave_bytes) % m_cfg.banks);
        used[bbank] = true;
        taken[bbank] = UINT64_MAX;
        LaneMask left = 0;
        for_lanes(group, [&](int l) {
            uint64_t a = addr[l];
            if (a / word == bword) return;
            uint32_t bank = uint32_t((a / m_cfg.interleave_bytes) % m_cfg.banks);
            if (!used[bank]) { used[bank] = true; taken[bank] = a; return; }
            if (taken[bank] != a) left |= 1u << l;
        });
        group = left;
    }
    return passes;
}

uint32_t SharedMemory::passes(const uint64_t* addr, LaneMask mask, uint32_t width) const {
    if (!mask) return 0;
    // cc 1.x splits a wide access into one request per bank word, each served like a narrow one.
    uint32_t pieces = 1, piece = width;
    if (m_cfg.split_wide && width > m_cfg.bank_width_bytes) {
        pieces = width / m_cfg.bank_width_bytes;
        piece = m_cfg.bank_width_bytes;
    }
    uint32_t g = group_threads(width);
    uint32_t total = 0;
    uint64_t shifted[kWarpSize];
    for (uint32_t p = 0; p < pieces; ++p) {
        for (int l = 0; l < kWarpSize; ++l) shifted[l] = addr[l] + uint64_t(p) * piece;
        for (uint32_t first = 0; first < uint32_t(kWarpSize); first += g) {
            LaneMask group = mask & lane_group(first, g);
            if (!group) continue;
            total += m_cfg.single_broadcast ? single_broadcast_passes(shifted, group) : group_passes(shifted, group, piece);
        }
    }
    return total;
}

uint32_t SharedMemory::ideal_passes(LaneMask mask, uint32_t width) const {
    uint32_t pieces = (m_cfg.split_wide && width > m_cfg.bank_width_bytes) ? width / m_cfg.bank_width_bytes : 1;
    uint32_t g = group_threads(width);
    uint32_t n = 0;
    for (uint32_t first = 0; first < uint32_t(kWarpSize); first += g)
        if (mask & lane_group(first, g)) ++n;
    return n * pieces;
}

uint32_t SharedMemory::access(const uint64_t* addr, LaneMask mask, uint32_t width) {
    uint32_t p = passes(addr, mask, width);
    uint32_t ideal = ideal_passes(mask, width);
    ++m_accesses;
    m_passes += p;
    if (p > ideal) {
        m_conflict_passes += p - ideal;
        ++m_conflicted_accesses;
    }
    return p;
}

void SharedMemory::report(nlohmann::json& out) const {
    stat(out, "accesses", double(m_accesses), "warp accesses", "shared memory loads, stores and atomics");
    stat(out, "passes", double(m_passes), "passes", "bank passes the accesses needed");
    stat(out, "bank_conflicts", double(m_conflict_passes), "passes",
         "passes beyond the conflict-free count (each is one serialized replay)");
    stat(out, "conflicted_accesses", double(m_conflicted_accesses), "warp accesses", "accesses with at least one bank conflict");
}

} // namespace gpusim
