#include "alu/pipe.h"

#include <algorithm>

#include "isa/isa.h"

namespace gpusim {

Pipe::Pipe(const sc_core::sc_module_name& name, const PipeConfig& cfg, uint32_t schedulers)
    : UnitModule(name), m_cfg(cfg), m_scale(uint64_t(cfg.lanes) * 1000),
      m_free(cfg.per_scheduler ? std::max(schedulers, 1u) : 1, 0), m_next(m_free.size(), 0) {}

uint64_t Pipe::accept(uint32_t inst, uint64_t cycle, uint32_t interval_milli) {
    uint64_t units = uint64_t(kWarpSize) * interval_milli;
    m_free[inst] = std::max(m_free[inst], cycle * m_scale) + units;
    m_next[inst] = m_free[inst] / m_scale;
    ++m_warps;
    m_busy_units += units;
    return (units + m_scale - 1) / m_scale;
}

void Pipe::report(nlohmann::json& out) const {
    stat(out, "warp_instructions", double(m_warps), "warp instructions", "warp instructions the pipe accepted");
    stat(out, "busy_cycles", double(m_busy_units) / double(m_scale), "cycles",
         "cycles the pipe was occupied, summed over its copies");
    constant(out, "copies", double(m_free.size()), "copies", "instances (one per scheduler or one shared)");
    constant(out, "lanes", m_cfg.lanes, "lanes", "operations one copy accepts per cycle");
}

} // namespace gpusim
