#include "smem/shared_memory.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/exec_context.h"
#include "isa/lane_addresses.h"

namespace gpusim {

namespace {
int log2_exact(uint64_t v) { return v && !(v & (v - 1)) ? __builtin_ctzll(v) : -1; }
} // namespace

SharedMemory::SharedMemory(const sc_core::sc_module_name& name, const SharedMemoryConfig& cfg, std::unique_ptr<SmemArbiter> arbiter)
    : UnitModule(name), m_cfg(cfg), m_rtl(std::move(arbiter)) {
    const int unit = log2_exact(cfg.interleave_bytes), banks = log2_exact(cfg.banks),
              row = log2_exact(uint64_t(cfg.banks) * cfg.bank_width_bytes);
    m_shifts = unit >= 0 && banks >= 0 && row >= 0;
    if (m_shifts) {
        m_unit_shift = unit;
        m_row_shift = row;
    }
}

uint32_t SharedMemory::group_threads(uint32_t width) const {
    uint32_t unit = m_cfg.split_wide ? std::min(width, m_cfg.bank_width_bytes) : width;
    uint32_t per_pass = m_cfg.banks * m_cfg.bank_width_bytes / std::max(unit, 1u);
    return std::clamp<uint32_t>(per_pass, 1, std::min<uint32_t>(m_cfg.max_group_threads, kWarpSize));
}

// Each bank serves one row per pass; the access needs as many passes as the busiest bank has
// distinct rows. The (row, bank) pairs the lanes touch are sorted, so duplicates (broadcasts)
// are adjacent and each bank's distinct rows are counted in one sweep.
uint32_t SharedMemory::group_passes(const uint64_t* addr, LaneMask group, uint32_t width) const {
    constexpr int kMaxBanks = 64;
    constexpr uint32_t kMaxKeys = kWarpSize * 8;
    // The common cases first: every bank sees one row (distinct banks, or a broadcast).
    {
        uint64_t seen = 0, first_row[kMaxBanks];
        bool conflict = false;
        for (LaneMask m = group; m && !conflict; m &= m - 1) {
            const uint64_t a0 = addr[__builtin_ctz(m)];
            for (uint64_t a = a0; a < a0 + width; a += m_cfg.interleave_bytes) {
                uint64_t bank, row;
                locate(a, bank, row);
                if (!(seen >> bank & 1)) {
                    seen |= uint64_t(1) << bank;
                    first_row[bank] = row;
                } else if (first_row[bank] != row) {
                    conflict = true;
                    break;
                }
            }
        }
        if (!conflict) return 1;
    }
    uint64_t keys[kMaxKeys];
    uint32_t n = 0;
    for_lanes(group, [&](int l) {
        // A wide access touches every interleave unit it covers.
        for (uint64_t a = addr[l]; a < addr[l] + width && n < kMaxKeys; a += m_cfg.interleave_bytes) {
            uint64_t bank, row;
            locate(a, bank, row);
            keys[n++] = row * kMaxBanks + bank;
        }
    });
    std::sort(keys, keys + n);
    uint32_t counts[kMaxBanks] = {};
    uint32_t worst = 1;
    for (uint32_t k = 0; k < n; ++k) {
        if (k > 0 && keys[k] == keys[k - 1]) continue;
        worst = std::max(worst, ++counts[keys[k] % kMaxBanks]);
    }
    return worst;
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

SharedMemory::~SharedMemory() = default;

// The RTL takes 32-bit addresses: the lanes' addresses are taken relative to a 4 KiB boundary below
// the lowest, which keeps every bank and row (rows are at most 256 bytes) as they were.
uint32_t SharedMemory::rtl_passes(const uint64_t* addr, LaneMask mask, uint32_t width, uint64_t cycle) {
    if (!mask) return 0;
    if (width == 0 || width > 16 || (width & (width - 1)))
        throw std::runtime_error(fmt::format("smem.impl 'rtl': the bank arbiter takes 1 to 16 bytes per lane, in powers of two, not {}", width));
    uint64_t base = UINT64_MAX;
    for_lanes(mask, [&](int l) { base = std::min(base, addr[l]); });
    base &= ~uint64_t(0xFFF);
    uint32_t a32[kWarpSize] = {};
    for_lanes(mask, [&](int l) {
        if (addr[l] - base > UINT32_MAX - 16)
            throw std::runtime_error("smem.impl 'rtl': one access's shared addresses span more than 4 GiB");
        a32[l] = uint32_t(addr[l] - base);
    });
    return m_rtl->passes(a32, mask, uint32_t(__builtin_ctz(width)), cycle, m_cfg.pass_cycles);
}

uint32_t SharedMemory::access(const uint64_t* addr, LaneMask mask, uint32_t width, bool atomic, uint64_t cycle) {
    uint32_t p = m_rtl ? rtl_passes(addr, mask, width, cycle) : passes(addr, mask, width);
    const uint32_t ideal = ideal_passes(mask, width);
    ++m_accesses;
    if (p > ideal) {
        m_conflict_passes += p - ideal;
        ++m_conflicted_accesses;
    }
    if (atomic) {
        const uint32_t serial = deepest_address(addr, mask);
        if (serial > p) {
            m_atomic_passes += serial - p;
            p = serial;
        }
    }
    m_passes += p;
    return p;
}

void SharedMemory::report(nlohmann::json& out) const {
    stat(out, "accesses", double(m_accesses), "warp accesses", "shared memory loads, stores and atomics");
    stat(out, "passes", double(m_passes), "passes", "bank passes the accesses needed");
    stat(out, "bank_conflicts", double(m_conflict_passes), "passes",
         "passes beyond the conflict-free count (each is one serialized replay)");
    stat(out, "conflicted_accesses", double(m_conflicted_accesses), "warp accesses", "accesses with at least one bank conflict");
    stat(out, "atomic_passes", double(m_atomic_passes), "passes", "passes atomics added beyond the banks' for lanes on one address");
    if (m_rtl) stat(out, "rtl_clocks", double(m_rtl->clocks()), "clocks", "clocks the verilated bank arbiter ran (smem.impl=rtl), requests' edges included");
}

} // namespace gpusim
