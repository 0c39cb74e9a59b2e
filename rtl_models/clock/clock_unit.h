// The SM's clock register and performance counters: the cycle counter behind %clock and %clock64
// (per SM, counting from the SM's start), and the pmevent counters 0-7.
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/exec_context.h"
#include "isa/unit_module.h"

namespace gpusim {

class ClockUnit : public UnitModule {
public:
    explicit ClockUnit(const sc_core::sc_module_name& name) : UnitModule(name) {}

    uint64_t cycles() const { return m_cycles; }
    // The counter never runs backwards.
    void advance_to(uint64_t cycle) { m_cycles = std::max(m_cycles, cycle); }
    uint64_t* pm_events() { return m_pm; }
    const uint64_t* pm_events() const { return m_pm; }

    void report(nlohmann::json& out) const override {
        stat(out, "cycles", double(m_cycles), "cycles", "the SM's cycle counter (%clock64)");
        for (int k = 0; k < kPmCounters; ++k) {
            char key[16] = "pmevent_0";
            key[8] = char('0' + k);
            stat(out, key, double(m_pm[k]), "warps", "pmevent triggers, counted once per warp");
        }
    }

private:
    uint64_t m_cycles = 0;
    uint64_t m_pm[kPmCounters] = {};
};

} // namespace gpusim
