// Timing mode of the SM core: what a memory instruction costs (the units its addresses pass
// through), and the latencies the LD/ST unit prices later when the SM runs on its own
// (deferred mode, gpu/sm_cluster.h).
#include <algorithm>

#include "protocol/memory_map.h"
#include "sm/sm_core.h"
#include "sm/timing_units.h"
#include "tex/tex_ops.h"

namespace gpusim {

namespace {

using Stall = WarpScheduler::Stall;

static_assert(TextureCache::kMaxTexels <= kWarpSize * 8, "MemoryAccess holds a texture instruction's texels");

// Local memory is interleaved by thread in device memory, so the same offset across a warp coalesces.
uint64_t local_address(uint64_t offset, uint32_t warp_slot, uint32_t local_bytes, int lane) {
    uint64_t warp_base = uint64_t(warp_slot) * local_bytes * kWarpSize;
    return memory_map::kLocalWindowBase + warp_base + (offset / 4 * kWarpSize + uint64_t(lane)) * 4 + offset % 4;
}

} // namespace

// Reads the addresses before the instruction executes (its address register may be overwritten).
void SmCore::gather_access(Warp& w, const Inst& in, LaneMask m, MemoryAccess& a) {
    // An aggregated atomic (kAtomAggregated) reaches memory as one lane's operation: the first
    // active lane's, carrying the warp's sum.
    if ((in.dest_flags & kMemAtomic) && (in.aux & kAtomAggregated)) m &= ~m + 1;
    a.mask = m;
    a.space = in.space;
    a.count = 0;
    if (!m) return;
    if (in.space == MemSpace::Texture) {
        try {
            a.count = texture_footprint(m_ctx, w, in, m, a.addr, TextureCache::kMaxTexels);
        } catch (const ExecFault&) {
            a.count = 0;   // a bad handle or access: the instruction's execution reports it
        } catch (const AccessFault&) {
            a.count = 0;
        }
        return;
    }
    a.count = 1;
    std::fill(a.addr, a.addr + kWarpSize, 0);
    const uint64_t* base = in.a == kNoRow ? nullptr : m_ctx.src(w, in.a);
    for_lanes(m, [&](int l) { a.addr[l] = effective_address(base ? base[l] : 0, in); });
    a.width = uint32_t(std::max<uint8_t>(in.width, 1)) * std::max<uint8_t>(in.vec_count, 1);
    a.bypass_l1 = (in.aux & kLoadBypassesL1) && !(in.dest_flags & (kMemAtomic | kMemStore));
    a.kind = (in.dest_flags & kMemAtomic) ? LdstUnit::Kind::Atomic : (in.dest_flags & kMemStore) ? LdstUnit::Kind::Write : LdstUnit::Kind::Read;
    if (a.space == MemSpace::Generic) {
        const uint64_t first = a.addr[__builtin_ctz(m)];
        a.space = memory_map::in_shared_window(first) ? MemSpace::Shared : memory_map::in_local_window(first) ? MemSpace::Local : MemSpace::Global;
        if (a.space != MemSpace::Global) {
            const uint64_t off = a.space == MemSpace::Shared ? memory_map::kSharedWindowBase : memory_map::kLocalWindowBase;
            for_lanes(m, [&](int l) { a.addr[l] -= off; });
        }
    }
    if (a.space == MemSpace::Local) {
        const uint32_t slot = uint32_t(&w - m_warps.data());
        for_lanes(m, [&](int l) { a.addr[l] = local_address(a.addr[l], slot, w.local_bytes, l); });
    }
}

SmCore::MemoryCost SmCore::memory_cost(const MemoryAccess& a) {
    MemoryCost cost{0, 1, 1, uint8_t(Stall::MemoryDependency)};
    if (!a.mask) return cost;
    if (a.space == MemSpace::Texture) return texture_cost(a);
    TimingUnits& u = *m_units;
    u.ldst.set_now(uint64_t(std::max<int64_t>(int64_t(u.now) + m_chip_offset, 0)));
    // A global or local access: transactions through the L1 and beyond.
    auto through_l1 = [&](bool local) {
        const LdstUnit::Cost c = u.ldst.access(a.addr, a.mask, a.width, a.kind, local, a.bypass_l1);
        cost.passes = std::max(c.passes, 1u);
        cost.ideal = c.groups;
        cost.latency = c.latency;
        cost.group = c.group;
        cost.lower = c.lower;
        if (c.mshr_wait) cost.source = uint8_t(Stall::MemoryStructural);
    };
    switch (a.space) {
    case MemSpace::Shared:
        cost.passes = u.smem.access(a.addr, a.mask, a.width, a.kind == LdstUnit::Kind::Atomic, u.now);
        cost.ideal = u.smem.ideal_passes(a.mask, 4);   // pipe time is relative to a conflict-free 32-bit access
        cost.latency = u.smem.latency(cost.passes);
        cost.lower = uint32_t(cost.latency);
        break;
    case MemSpace::Const:
    case MemSpace::Param: {
        const ConstantCache::Cost c = u.ccache.access(a.addr, a.mask);
        cost.passes = std::max(c.passes, 1u);
        cost.ideal = c.groups;
        u.ldst.open_group();
        uint64_t fill = 0;
        for (uint32_t k = 0; k < c.misses; ++k) fill = std::max<uint64_t>(fill, u.ldst.fill(c.miss_lines[k], u.ccache.line_bytes()));
        const uint32_t hit = u.ccache.latency(cost.passes);
        cost.latency = hit + fill;
        cost.group = u.ldst.close_group(uint32_t(cost.latency), hit, cost.lower);
        if (c.misses) cost.source = uint8_t(Stall::CacheMiss);
        break;
    }
    case MemSpace::Local: through_l1(true); break;
    default: through_l1(false); break;
    }
    return cost;
}

// A texture or surface instruction: the texture cache's passes over the lines its texels lie in,
// and the fill of those that miss.
SmCore::MemoryCost SmCore::texture_cost(const MemoryAccess& a) {
    TimingUnits& u = *m_units;
    MemoryCost cost{0, 1, 1, uint8_t(Stall::MemoryDependency)};
    if (a.count == 0) return cost;
    u.ldst.set_now(uint64_t(std::max<int64_t>(int64_t(u.now) + m_chip_offset, 0)));
    const TextureCache::Cost c = u.tex.access(a.addr, a.count);
    cost.passes = std::max(c.passes, 1u);
    u.ldst.open_group();
    uint64_t fill = 0;
    for (uint32_t k = 0; k < c.misses; ++k) fill = std::max<uint64_t>(fill, u.ldst.fill(c.miss_lines[k], u.tex.line_bytes()));
    // A miss's fill overlaps the unit's own pipeline: on Kepler a texture fetch that misses takes
    // about as long as a global load (PPT: texture memory 317, global 331, texture cache hit 112).
    const uint64_t hit = u.tex.latency(cost.passes);
    const uint64_t beyond_fill = hit - std::min<uint64_t>(hit, u.tex.latency(1));
    cost.latency = c.misses ? std::max<uint64_t>(hit, fill + beyond_fill) : hit;
    cost.group = u.ldst.close_group(uint32_t(cost.latency), uint32_t(beyond_fill), cost.lower);
    if (c.misses) cost.source = uint8_t(Stall::CacheMiss);
    return cost;
}

// Deferred mode: the scoreboard entries of an instruction whose latency is not known hold a
// lower bound of it, and the SM runs no further than the earliest such bound, or the first cycle
// an MSHR taken meanwhile could be free (its horizon), so nothing it decides depends on the true
// values.
void SmCore::defer_latency(Warp& w, const Inst& in, uint64_t base, uint64_t provisional, uint8_t source, int32_t group, uint64_t t) {
    m_deferred.push_back(DeferredIssue{group, uint32_t(&w - m_warps.data()), base, provisional, &in, source});
    m_horizon = std::min(m_horizon, std::max(std::min(provisional, m_units->ldst.mshr_horizon()), t + 1));
}

// Prices what the LD/ST unit wrote down and puts the true cycles into the scoreboards.
void SmCore::resolve_memory() {
    m_horizon = UINT64_MAX;
    if (!m_units || m_deferred.empty()) return;
    LdstUnit& ldst = m_units->ldst;
    ldst.resolve();
    for (const DeferredIssue& d : m_deferred) {
        Warp& w = m_warps[d.warp];
        const uint64_t done = d.base + ldst.group_latency(d.group);
        m_board.for_each_destination(*d.in, [&](uint32_t e) {
            if (w.board[e] == d.provisional) w.board[e] = done;
        });
        note_memory_done(w, done, d.source);
        w.operands_pc = UINT32_MAX;
        m_hints[d.warp] = ScanHint{};
    }
    m_deferred.clear();
    ldst.clear_groups();
    wake_schedulers();
}

} // namespace gpusim
