// The barrier-reduction unit: 16 barriers per resident CTA, each counting arriving warps and, for
// bar.red, the threads taking part and those whose predicate is true. A barrier completes when
// every live warp of the CTA (or the named thread count, in warps) has arrived; the waiting warps
// may issue again `release_latency` cycles after the last arrival.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/unit_module.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct BarrierConfig {
    uint32_t release_latency = 20;   // cycles from the last arrival until the waiting warps may issue
};

// The keys barrier.* (barrier_keys.cpp).
void declare_keys(ConfigSection<BarrierConfig>& s);

class BarrierUnit : public UnitModule {
public:
    static constexpr uint32_t kBarriers = 16;

    struct Barrier {
        uint32_t warps = 0;
        uint32_t expected = 0;    // warps to wait for; 0: every live warp of the CTA
        uint32_t popc = 0;        // bar.red: threads whose predicate is true
        uint32_t threads = 0;     // bar.red: threads that took part
    };

    BarrierUnit(const sc_core::sc_module_name& name, uint32_t release_latency);

    void resize(uint32_t cta_slots) {
        m_bars.assign(size_t(cta_slots) * kBarriers, Barrier{});
        m_waiting.assign(cta_slots, 0);
    }
    void reset(uint32_t slot);
    // Counts one warp's arrival at barrier `id` of CTA `slot`. `thread_count` is the count named
    // by bar.sync (0 for all threads); `pred_true` and `lanes` feed the reduction.
    void arrive(uint32_t slot, uint32_t id, uint32_t thread_count, uint32_t pred_true, uint32_t lanes);
    // When complete, hands back the barrier's totals and clears it for its next use.
    bool release(uint32_t slot, uint32_t id, uint32_t live_warps, Barrier& out);
    uint32_t release_latency() const { return m_release_latency; }
    // The barriers of CTA `slot` that warps wait at (bit k: barrier k), for the check after a warp
    // exits (which may complete them).
    uint32_t waiting(uint32_t slot) const { return m_waiting[slot]; }
    void waited(uint64_t cycles) { m_wait_cycles += cycles; }

    void report(nlohmann::json& out) const override;

private:
    uint32_t m_release_latency;
    std::vector<Barrier> m_bars;
    std::vector<uint32_t> m_waiting;   // per CTA slot, barriers with arrivals
    uint64_t m_arrivals = 0, m_releases = 0, m_wait_cycles = 0;
};

} // namespace gpusim
