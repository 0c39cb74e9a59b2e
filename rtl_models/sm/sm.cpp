#include "sm/sm.h"

#include <algorithm>

namespace gpusim {

Sm::Sm(const sc_core::sc_module_name& name, const SmConfig& cfg, uint32_t smid, sc_core::sc_time cycle, L2Cache* l2)
    : sc_module(name), mem("mem"), m_cfg(cfg), m_cycle(cycle), m_view(this), m_core(cfg, smid, m_view, l2) {
    mem.register_invalidate_direct_mem_ptr(this, &Sm::invalidate_direct_mem_ptr);
    SC_HAS_PROCESS(Sm);
    SC_THREAD(run);
}

void Sm::start(const LaunchInfo* launch, CtaDispatcher* dispatcher) {
    m_launch = launch;
    m_dispatcher = dispatcher;
    m_busy = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void Sm::run() {
    for (;;) {
        wait(m_start);
        m_qk.reset();
        run_launch();
        m_qk.sync();
        m_busy = false;
        m_done.notify(sc_core::SC_ZERO_TIME);
    }
}

// Timing mode's launches (functional mode's run under the GPU's SmCluster).
void Sm::run_launch() {
    m_core.begin_launch(m_launch);
    const uint64_t quantum = std::max<uint64_t>(uint64_t(tlm_utils::tlm_quantumkeeper::get_global_quantum() / m_cycle), 1);
    bool first_fill = true;
    TraceRecorder* trace = m_core.trace();
    const uint64_t interval = trace ? trace->interval_cycles() : 0;
    trace_begin(local_ns());
    for (;;) {
        uint64_t cta;
        // The SM's cycle on the chip's time base, before blocks arrive (the timeline dates them).
        m_core.set_chip_cycle(uint64_t(m_qk.get_current_time() / m_cycle + 0.5));
        // The first CTAs go round-robin over the SMs, as the chip's distributor hands them out:
        // each SM takes one and lets the others take theirs. Later ones go to whichever SM has room.
        while (m_core.can_accept_cta() && m_dispatcher->next(cta)) {
            m_core.add_cta(cta);
            if (first_fill) wait(sc_core::SC_ZERO_TIME);
        }
        first_fill = false;
        if (m_core.idle() || m_dispatcher->aborted()) break;
        uint64_t before = m_core.cycles();
        m_core.set_time_ns(uint64_t(m_qk.get_current_time().to_seconds() * 1e9));
        try {
            step_quantum(before + quantum, interval);
        } catch (const KernelFault& f) {
            m_dispatcher->abort(f.what(), f.kind());
            break;
        }
        m_qk.inc(m_cycle * double(m_core.cycles() - before));
        if (m_progress) m_progress->tick();
        if (m_qk.need_sync()) sync();
    }
    trace_end();
    m_core.abort();
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

void Sm::trace_end() {
    TraceRecorder* trace = m_core.trace();
    if (!trace) return;
    sample();
    trace->counter(TraceRecorder::kSmBase + int(m_core.smid()), "issue rate (IPC)", ns_at(m_core.cycles()), 0);
    trace->counter(TraceRecorder::kSmBase + int(m_core.smid()), "resident warps", ns_at(m_core.cycles()), 0);
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

// Meets SystemC time at the quantum's end. SMs that meet at the same time run on in index order
// (SM k after k + 1 delta cycles), whatever order SystemC's timed queue wakes them in: that order
// changes with any other timed event (a waveform's replay, a user's own module), and the SMs'
// order decides who takes the next block and whose requests reach the L2 first.
void Sm::sync() {
    m_qk.sync();
    for (uint32_t k = 0; k <= m_core.smid(); ++k) wait(sc_core::SC_ZERO_TIME);
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

// Steps to `target` as one step_until would; with a timeline, in pieces that end at each
// sampling boundary. The pieces change no result: the SM meets SystemC time (and the other SMs)
// only after the whole step, at the same cycle, and the scheduling state carries over.
void Sm::step_quantum(uint64_t target, uint64_t interval) {
    if (!interval) {
        m_core.step_until(target);
        return;
    }
    const uint64_t completed = m_core.stats().ctas_completed;
    for (;;) {
        const uint64_t boundary = (m_core.cycles() / interval + 1) * interval;
        m_core.step_until(std::min(target, boundary));
        if (m_core.cycles() >= boundary) sample();
        if (m_core.cycles() >= target || m_core.idle() || m_core.stats().ctas_completed != completed) return;
    }
}

bool Sm::get_dmi(uint64_t addr, bool write, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& writable) {
    // SMs on host threads ask for regions (and pages come into being) one at a time.
    std::lock_guard<std::mutex> lock(memory_lock());
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
    std::lock_guard<std::mutex> lock(memory_lock());
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

std::mutex& Sm::memory_lock() {
    static std::mutex lock;
    return lock;
}

} // namespace gpusim
