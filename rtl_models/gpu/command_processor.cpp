#include "gpu/command_processor.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "isa/reports.h"

namespace gpusim {

CommandProcessor::CommandProcessor(const sc_core::sc_module_name& name, const GpuConfig& cfg,
                                   std::vector<DmaEngine*> copy_engines, ComputeEngine& compute, Raise raise)
    : sc_module(name), host("host"), m_cfg(cfg), m_copy(std::move(copy_engines)), m_compute(compute),
      m_raise(std::move(raise)), m_channels(cfg.channels), m_copy_owner(m_copy.size(), -1) {
    for (uint32_t ch = 0; ch < m_channels.size(); ++ch) m_order.push_back(ch);
    SC_HAS_PROCESS(CommandProcessor);
    SC_THREAD(thread);
}

void CommandProcessor::submit(uint32_t channel, Command c) {
    c.seq = ++m_seq;
    Channel& ch = m_channels[channel];
    ++ch.submitted;
    ch.queue.push_back(c);
    m_kick.notify(sc_core::SC_ZERO_TIME);
}

void CommandProcessor::set_flags(uint32_t channel, bool non_blocking, uint32_t priority) {
    Channel& c = m_channels[channel];
    c.non_blocking = non_blocking;
    c.priority = std::min(priority, std::max(m_cfg.stream_priorities, 1u) - 1);
    std::stable_sort(m_order.begin(), m_order.end(), [this](uint32_t a, uint32_t b) {
        return m_channels[a].priority > m_channels[b].priority || (m_channels[a].priority == m_channels[b].priority && a < b);
    });
}

bool CommandProcessor::pending() const {
    for (const Channel& c : m_channels)
        if (!c.queue.empty()) return true;
    return false;
}

bool CommandProcessor::copy_running() const {
    for (int o : m_copy_owner)
        if (o >= 0) return true;
    return false;
}

void CommandProcessor::thread() {
    sc_core::sc_event_or_list any;
    any |= m_kick;
    any |= m_compute.done_event();
    for (DmaEngine* e : m_copy) any |= e->done_event();
    for (;;) {
        collect();
        while (dispatch()) collect();
        wait(any);
        if (m_vcd) m_vcd->wake();
    }
}

void CommandProcessor::record_signals(VcdRecorder& vcd) {
    m_vcd = &vcd;
    m_copy_busy.clear();
    for (DmaEngine* e : m_copy) m_copy_busy.push_back(vcd.declare(std::string(e->basename()) + ".busy", VcdRecorder::Kind::Level, 1));
}

// Completes the commands whose engine has finished.
void CommandProcessor::collect() {
    for (size_t e = 0; e < m_copy.size(); ++e) {
        if (m_copy_owner[e] < 0 || m_copy[e]->busy()) continue;
        const uint32_t ch = uint32_t(m_copy_owner[e]);
        m_copy_owner[e] = -1;
        if (!m_copy_busy.empty()) m_copy_busy[e].set_now(0);
        if (m_trace) trace_command(ch, int(e));
        if (m_copy[e]->error()) {
            const std::string what = fmt::format("copy engine {}: address 0x{:x} is outside device memory and the "
                                                  "host's registered memory", e, m_copy[e]->error_address());
            reports::post(sc_core::SC_ERROR, reports::kDma, what);
            set_fault(reg::kFaultDma, what);
            m_copy[e]->clear_error();
        }
        complete(ch);
        m_raise(reg::kIrqDmaDone);
    }
    if (m_compute_owner >= 0 && !m_compute.busy()) {
        const uint32_t ch = uint32_t(m_compute_owner);
        m_compute_owner = -1;
        m_last = m_compute.result();
        if (m_trace) trace_command(ch, -1);
        if (m_compute.fault_code() != reg::kFaultNone) set_fault(m_compute.fault_code(), m_compute.fault());
        complete(ch);
        m_raise(reg::kIrqKernelDone);
    }
}

// Starts every command that can start now; true when one did (which may free another).
bool CommandProcessor::dispatch() {
    if (m_code != reg::kFaultNone) drop_queued();
    bool any = false;
    for (uint32_t ch : m_order) {
        Channel& c = m_channels[ch];
        if (c.running || c.queue.empty() || !ordered_ok(ch, c.queue.front())) continue;
        any |= try_start(ch);
    }
    return any;
}

// The legacy default stream's ordering: channel 0 waits for older work of blocking channels,
// and they wait for older work of channel 0.
bool CommandProcessor::ordered_ok(uint32_t ch, const Command& c) const {
    auto older = [&](const Channel& o) { return !o.queue.empty() && o.queue.front().seq < c.seq; };
    if (ch == 0) {
        for (uint32_t k = 1; k < m_channels.size(); ++k)
            if (!m_channels[k].non_blocking && older(m_channels[k])) return false;
        return true;
    }
    return m_channels[ch].non_blocking || !older(m_channels[0]);
}

int CommandProcessor::free_copy_engine(DmaDescriptor::Kind kind) const {
    // With two or more engines, uploads use the even ones and downloads the odd ones, as on
    // Fermi and Kepler Teslas; with one, everything shares it.
    const bool split = m_copy.size() >= 2;
    for (size_t e = 0; e < m_copy.size(); ++e) {
        if (m_copy_owner[e] >= 0 || m_copy[e]->busy()) continue;
        if (split && kind == DmaDescriptor::Kind::HostToDevice && e % 2 != 0) continue;
        if (split && kind == DmaDescriptor::Kind::DeviceToHost && e % 2 != 1) continue;
        return int(e);
    }
    return -1;
}

bool CommandProcessor::try_start(uint32_t ch) {
    Channel& c = m_channels[ch];
    const Command& cmd = c.queue.front();
    switch (cmd.kind) {
    case Command::Kind::Copy: {
        if (!m_cfg.pcie.overlap && kernel_running()) return false;
        const int e = free_copy_engine(cmd.copy.kind);
        if (e < 0) return false;
        account_overlap();
        m_copy_owner[size_t(e)] = int(ch);
        if (!m_copy_busy.empty()) m_copy_busy[size_t(e)].set_now(1);
        m_copy[size_t(e)]->submit(cmd.copy);
        c.running = true;
        c.started = sc_core::sc_time_stamp();
        return true;
    }
    case Command::Kind::Launch:
        if (kernel_running() || (!m_cfg.pcie.overlap && copy_running())) return false;
        account_overlap();
        m_compute_owner = int(ch);
        m_compute.start(cmd.launch);
        c.running = true;
        c.started = sc_core::sc_time_stamp();
        return true;
    case Command::Kind::Release:
    case Command::Kind::Acquire:
        if (!semaphore(ch, cmd)) return false;
        complete(ch);
        return true;
    }
    return false;
}

// A release writes {payload, now in ns}; an acquire passes once the payload there has reached
// the command's. False when the acquire must keep waiting.
bool CommandProcessor::semaphore(uint32_t ch, const Command& c) {
    uint64_t words[2] = {c.payload, uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5)};
    const bool release = c.kind == Command::Kind::Release;
    tlm::tlm_generic_payload p;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.set_command(release ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(c.sem_address);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(words));
    p.set_data_length(release ? 16 : 8);
    p.set_streaming_width(release ? 16 : 8);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    host->b_transport(p, delay);
    if (p.is_response_error()) {
        set_fault(reg::kFaultDma, fmt::format("channel {}: semaphore at 0x{:x} is outside the host's registered memory", ch,
                                              c.sem_address));
        return true;
    }
    return release || words[0] >= c.payload;
}

void CommandProcessor::complete(uint32_t ch) {
    Channel& c = m_channels[ch];
    account_overlap();
    ++m_commands[int(c.queue.front().kind)];   // counted as done, at the simulated time they finish
    c.queue.pop_front();
    c.running = false;
    ++c.completed;
    m_progress.notify(sc_core::SC_ZERO_TIME);
}

void CommandProcessor::trace_command(uint32_t channel, int copy_engine) {
    const Channel& c = m_channels[channel];
    const Command& cmd = c.queue.front();
    const double start = c.started.to_seconds() * 1e9, end = sc_core::sc_time_stamp().to_seconds() * 1e9;
    m_trace->name_track(TraceRecorder::kStreams, int(channel), channel == 0 ? "channel 0 (legacy default stream)"
                                                                            : fmt::format("channel {}", channel));
    if (cmd.kind == Command::Kind::Launch) {
        m_trace->span(TraceRecorder::kStreams, int(channel), m_compute.kernel_name(cmd.launch.kernel), "launch", start, end);
        return;
    }
    static const char* const kinds[] = {"", "copy host to device", "copy device to host", "copy device to device", "memset"};
    const std::string what = fmt::format("{} {} bytes", kinds[int(cmd.copy.kind) % 5], cmd.copy.size);
    const nlohmann::json args = {{"bytes", cmd.copy.size}, {"channel", channel}, {"copy_engine", copy_engine}};
    m_trace->span(TraceRecorder::kStreams, int(channel), what, "copy", start, end, args);
    m_trace->name_track(TraceRecorder::kCopyEngines, copy_engine, fmt::format("copy engine {}", copy_engine));
    m_trace->span(TraceRecorder::kCopyEngines, copy_engine, what, "copy", start, end, args);
}

void CommandProcessor::set_fault(reg::FaultCode code, const std::string& why) {
    if (m_code == reg::kFaultNone) {
        m_code = code;
        m_fault = why;
    }
    m_raise(reg::kIrqFault);
}

// After a fault, commands that have not started are completed without running.
void CommandProcessor::drop_queued() {
    bool dropped = false;
    for (Channel& c : m_channels) {
        while (c.queue.size() > (c.running ? 1u : 0u)) {
            c.queue.pop_back();
            ++c.completed;
            dropped = true;
        }
    }
    if (dropped) m_progress.notify(sc_core::SC_ZERO_TIME);
}

void CommandProcessor::account_overlap() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (copy_running() && kernel_running()) m_overlap += now - m_last_change;
    m_last_change = now;
}

void CommandProcessor::report(nlohmann::json& out) const {
    out["copies"] = m_commands[int(Command::Kind::Copy)];
    out["launches"] = m_commands[int(Command::Kind::Launch)];
    out["semaphore_releases"] = m_commands[int(Command::Kind::Release)];
    out["semaphore_acquires"] = m_commands[int(Command::Kind::Acquire)];
    out["copy_kernel_overlap_ns"] = m_overlap.to_seconds() * 1e9;
}

} // namespace gpusim
