// An execution pipe: the ALU, SFU, fp64, video, LD/ST and control pipes are all instances of it,
// differing in lanes, in whether each warp scheduler has its own copy (Fermi's two 16-lane halves
// of the cores), and in the per-class initiation intervals of the operation table.
//
// Time is kept exactly in 1/(lanes*1000) cycles, so a pipe of 192 lanes taking an operation with
// an interval of 1.2 (Kepler's 160 integer adds per cycle) needs no rounding.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/op_class.h"
#include "isa/unit_module.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct PipeConfig {
    uint32_t lanes = 32;            // operations the pipe accepts per cycle (one instance)
    bool per_scheduler = false;     // one instance per warp scheduler (Fermi's 16-lane halves) or one shared
    bool exclusive = false;         // no other scheduler issues in the cycle this pipe accepts a warp (Fermi fp64)
};

// The keys pipes.<pipe>.* (pipe_keys.cpp).
void declare_keys(ConfigSection<PipeConfig>& s);

class Pipe : public UnitModule {
public:
    Pipe(const sc_core::sc_module_name& name, const PipeConfig& cfg, uint32_t schedulers);

    // The copy of the pipe that scheduler `s` issues to.
    uint32_t instance(uint32_t scheduler) const { return m_cfg.per_scheduler ? scheduler : 0; }
    // Whether the copy has lanes left in `cycle` (a wide pipe takes several warps in one cycle).
    bool free_at(uint32_t inst, uint64_t cycle) const { return m_next[inst] <= cycle; }
    // First cycle in which the copy can take another warp instruction.
    uint64_t next_free(uint32_t inst) const { return m_next[inst]; }
    // Where next_free(inst) is kept, for a scan that checks many warps against one pipe copy.
    const uint64_t* next_free_at(uint32_t inst) const { return &m_next[inst]; }
    // Takes a warp instruction at `cycle`; returns the cycles it occupies the pipe (rounded up).
    uint64_t accept(uint32_t inst, uint64_t cycle, uint32_t interval_milli);
    bool exclusive() const { return m_cfg.exclusive; }

    void report(nlohmann::json& out) const override;

private:
    PipeConfig m_cfg;
    uint64_t m_scale;                 // time units per cycle: lanes * 1000
    std::vector<uint64_t> m_free;     // per copy: when it can take the next warp, in time units
    std::vector<uint64_t> m_next;     // the same in whole cycles (m_free / m_scale), kept to avoid a division per query
    uint64_t m_warps = 0;
    uint64_t m_busy_units = 0;
};

} // namespace gpusim
