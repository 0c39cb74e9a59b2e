#include "sm/sm.h"

#include <algorithm>

#include "memory/memory_lock.h"

namespace gpusim {

Sm::Sm(const sc_core::sc_module_name& name, const SmConfig& cfg, uint32_t smid, MemoryRequestTarget* l2)
    : sc_module(name), mem("mem"), m_view(this), m_core(cfg, smid, m_view, l2) {
    mem.register_invalidate_direct_mem_ptr(this, &Sm::invalidate_direct_mem_ptr);
}

void Sm::trace_begin(double now_ns) {
    if (!m_core.trace()) return;
    m_launch_cycle = m_core.cycles();
    m_launch_ns = now_ns;
    m_sample = Sample{m_core.cycles(), m_core.stats().warp_instructions, m_core.stats().resident_warp_cycles};
}

// Functional mode samples the timeline's counters when a step crosses an interval boundary.
void Sm::trace_after_step() {
    const uint64_t interval = m_core.trace() ? m_core.trace()->interval_cycles() : 0;
    if (interval && m_core.cycles() / interval != m_sample.cycle / interval) sample();
}

uint64_t Sm::step_apart(uint64_t target) {
    TraceRecorder* trace = m_core.trace();
    const uint64_t interval = trace ? trace->interval_cycles() : 0;
    if (!interval) return m_core.step_apart(target);
    uint64_t issued = 0;
    for (;;) {
        const uint64_t boundary = (m_core.cycles() / interval + 1) * interval;
        issued += m_core.step_apart(std::min(target, boundary));
        if (m_core.cycles() < boundary) return issued;   // it stopped for a reason of its own
        sample();
        if (m_core.cycles() >= target) return issued;
    }
}

void Sm::trace_end() {
    TraceRecorder* trace = m_core.trace();
    if (!trace) return;
    sample();
    // An SM busy to the launch's last cycle ends with it; the sum behind ns_at may land a rounding
    // error past that, after the next launch's first sample.
    const double end = std::min(ns_at(m_core.cycles()), sc_core::sc_time_stamp().to_seconds() * 1e9);
    trace->counter(TraceRecorder::kSmBase + int(m_core.smid()), "issue rate (IPC)", end, 0);
    trace->counter(TraceRecorder::kSmBase + int(m_core.smid()), "resident warps", end, 0);
}

void Sm::cluster_begin(const LaunchInfo* launch) {
    m_core.begin_launch(launch);
    trace_begin(sc_core::sc_time_stamp().to_seconds() * 1e9);
}

void Sm::cluster_quantum(uint64_t chip_cycle) {
    m_core.set_chip_cycle(chip_cycle);
    m_core.set_time_ns(uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9));
}

void Sm::cluster_end() {
    trace_end();
    m_core.abort();
}

// The interval since the last sample: warp instructions per cycle, and resident warps averaged
// over its cycles (timing mode) or as they are now (functional mode), shown from its start.
void Sm::sample() {
    const SmStats s = m_core.stats();
    const uint64_t cycles = m_core.cycles() - m_sample.cycle;
    TraceRecorder* trace = m_core.trace();
    const int group = TraceRecorder::kSmBase + int(m_core.smid());
    if (cycles > 0) {
        const double at = ns_at(m_sample.cycle);
        trace->counter(group, "issue rate (IPC)", at, double(s.warp_instructions - m_sample.warp_instructions) / double(cycles));
        const double warps = m_core.timing() ? double(s.resident_warp_cycles - m_sample.warp_cycles) / double(cycles) : m_core.live_warps();
        trace->counter(group, "resident warps", at, warps);
    }
    m_sample = Sample{m_core.cycles(), s.warp_instructions, s.resident_warp_cycles};
}

bool Sm::get_dmi(uint64_t addr, bool write, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& writable) {
    // SMs on host threads ask for regions (and pages come into being) one at a time.
    std::lock_guard<std::mutex> lock(memory_map_lock());
    tlm::tlm_generic_payload p;
    tlm::tlm_dmi dmi;
    p.set_address(addr);
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    if (!mem->get_direct_mem_ptr(p, dmi)) return false;
    if (write ? !dmi.is_write_allowed() : !dmi.is_read_allowed()) return false;
    start = dmi.get_start_address();
    end = dmi.get_end_address();
    ptr = dmi.get_dmi_ptr();
    writable = dmi.is_write_allowed();
    return true;
}

bool Sm::transport(bool write, uint64_t addr, uint8_t* data, uint32_t size) {
    std::lock_guard<std::mutex> lock(memory_map_lock());
    tlm::tlm_generic_payload p;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(size);
    p.set_streaming_width(size);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    mem->b_transport(p, delay);
    return p.is_response_ok();
}

void Sm::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) { m_view.invalidate(start, end); }

} // namespace gpusim
