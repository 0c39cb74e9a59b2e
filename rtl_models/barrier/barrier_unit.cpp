#include "barrier/barrier_unit.h"

#include "isa/isa.h"

namespace gpusim {

BarrierUnit::BarrierUnit(const sc_core::sc_module_name& name, uint32_t release_latency)
    : UnitModule(name), m_release_latency(release_latency) {}

void BarrierUnit::reset(uint32_t slot) {
    for (uint32_t id = 0; id < kBarriers; ++id) m_bars[size_t(slot) * kBarriers + id] = Barrier{};
    m_waiting[slot] = 0;
}

void BarrierUnit::arrive(uint32_t slot, uint32_t id, uint32_t thread_count, uint32_t pred_true, uint32_t lanes) {
    Barrier& b = m_bars[size_t(slot) * kBarriers + id];
    ++m_arrivals;
    ++b.warps;
    m_waiting[slot] |= 1u << id;
    b.expected = thread_count ? (thread_count + kWarpSize - 1) / kWarpSize : 0;
    b.popc += pred_true;
    b.threads += lanes;
}

bool BarrierUnit::release(uint32_t slot, uint32_t id, uint32_t live_warps, Barrier& out) {
    Barrier& b = m_bars[size_t(slot) * kBarriers + id];
    uint32_t want = b.expected ? b.expected : live_warps;
    if (b.warps == 0 || b.warps < want) return false;
    out = b;
    b = Barrier{};
    m_waiting[slot] &= ~(1u << id);
    ++m_releases;
    return true;
}

void BarrierUnit::report(nlohmann::json& out) const {
    stat(out, "arrivals", double(m_arrivals), "warps", "warp arrivals at barriers");
    stat(out, "releases", double(m_releases), "barriers", "barriers that completed");
    stat(out, "wait_cycles", double(m_wait_cycles), "warp-cycles", "cycles warps spent waiting at barriers (timing mode)");
}

} // namespace gpusim
