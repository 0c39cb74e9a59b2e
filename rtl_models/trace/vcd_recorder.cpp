#include "trace/vcd_recorder.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>
#include <sysc/tracing/sc_tracing_ids.h>

namespace gpusim {

namespace {
std::vector<std::string> split_patterns(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t comma = text.find(',', start);
        std::string p = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        p.erase(0, p.find_first_not_of(" \t"));
        p.erase(p.find_last_not_of(" \t") + 1);
        if (!p.empty()) out.push_back(p);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.empty()) throw std::runtime_error("no waveform signal pattern given (--vcd-signals, GPUSIM_VCD_SIGNALS; '*' for every signal)");
    return out;
}
} // namespace

VcdRecorder::VcdRecorder(const sc_core::sc_module_name& name, const std::string& path, const std::string& patterns,
                         const std::string& scope, sc_core::sc_time cycle)
    : sc_module(name), m_path(path), m_cycle(cycle), m_scope(scope), m_patterns(split_patterns(patterns)),
      m_pattern_used(m_patterns.size(), false), m_wake_at(sc_core::sc_max_time()) {
    if (path.size() < 5 || path.compare(path.size() - 4, 4, ".vcd") != 0)
        throw std::runtime_error(fmt::format("{}: a waveform file's name must end in .vcd", path));
    SC_HAS_PROCESS(VcdRecorder);
    SC_THREAD(replay);
}

VcdRecorder::~VcdRecorder() {
    if (m_file) sc_core::sc_close_vcd_trace_file(m_file);
}

void VcdRecorder::finish() {
    if (!m_file) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (!m_pending.empty() && sc_core::sc_get_status() == sc_core::SC_PAUSED) {
        m_draining = true;
        wake();
        sc_core::sc_start(std::max(time_of(m_last_cycle), now) - now + m_cycle);
    }
    sc_core::sc_close_vcd_trace_file(m_file);
    m_file = nullptr;
}

VcdSignal VcdRecorder::declare(const std::string& name, Kind kind, unsigned bits, const VcdSignal& parent) {
    bool selected = false;
    for (size_t k = 0; k < m_patterns.size(); ++k)
        if (fnmatch(m_patterns[k].c_str(), name.c_str(), 0) == 0) selected = true, m_pattern_used[k] = true;
    // A busy bit feeds its parent's count even when only the parent is recorded.
    const int parent_id = parent.m_id == UINT32_MAX ? -1 : int(parent.m_id);
    m_names.push_back(name);
    m_signals.push_back(Signal{kind, kind == Kind::Busy ? 1u : std::clamp(bits, 1u, 64u), parent_id, selected});
    VcdSignal s;
    s.m_id = uint32_t(m_signals.size() - 1);
    if (selected || (parent_id >= 0 && m_signals[size_t(parent_id)].selected)) s.m_rec = this;
    return s;
}

void VcdRecorder::start_tracing() {
    for (size_t k = 0; k < m_patterns.size(); ++k)
        if (!m_pattern_used[k])
            throw std::runtime_error(fmt::format("no waveform signal matches '{}' (--vcd-signals, GPUSIM_VCD_SIGNALS); the signals are: {}", m_patterns[k],
                                                 signal_kinds()));
    // SystemC reports an unwritable file only as a warning, and appends ".vcd" to the name it gets.
    if (std::FILE* f = std::fopen(m_path.c_str(), "w")) std::fclose(f);
    else throw std::runtime_error(fmt::format("{}: cannot write the waveform file", m_path));
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_DO_NOTHING);
    m_file = sc_core::sc_create_vcd_trace_file(m_path.substr(0, m_path.size() - 4).c_str());
    m_file->set_time_unit(1, sc_core::SC_PS);
    m_values = std::make_unique<sc_dt::uint64[]>(m_signals.size());
    for (size_t k = 0; k < m_signals.size(); ++k)
        if (m_signals[k].selected) sc_core::sc_trace(m_file, m_values[k], m_scope + "." + m_names[k], int(m_signals[k].bits));
}

// The declared names with each instance number ("sm_3", "channel_0") written as '*', once each:
// a list that stays short with many SMs, and whose entries are patterns themselves.
std::string VcdRecorder::signal_kinds() const {
    std::vector<std::string> kinds;
    for (const std::string& n : m_names) {
        std::string k;
        bool number = false;   // inside an instance number
        for (char c : n) {
            if (!std::isdigit(static_cast<unsigned char>(c))) number = false, k += c;
            else if (!k.empty() && k.back() == '_') number = true, k += '*';
            else if (!number) k += c;
        }
        if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
    }
    std::string out;
    for (const std::string& k : kinds) out += (out.empty() ? "" : ", ") + k;
    return out;
}

void VcdRecorder::wake() { m_more.notify(sc_core::SC_ZERO_TIME); }

void VcdRecorder::record(uint32_t id, uint64_t cycle, int64_t value) {
    if (!m_file) return;
    Signal& s = m_signals[id];
    if (s.kind == Kind::Level) {
        if (s.recorded && s.last == uint64_t(value)) return;
        // A level never goes back in time: a late change takes effect after the last one.
        cycle = std::max(cycle, s.last_cycle);
        s.last = uint64_t(value);
        s.last_cycle = cycle;
        s.recorded = true;
    }
    m_pending.push(Change{cycle, m_seq++, id, value});
    m_last_cycle = std::max(m_last_cycle, cycle);
    // Due before the replay would look again: it must plan anew.
    if (time_of(cycle) < m_wake_at) {
        m_wake_at = sc_core::SC_ZERO_TIME;
        m_more.notify(sc_core::SC_ZERO_TIME);
    }
}

void VcdRecorder::apply(const Change& c) {
    Signal& s = m_signals[c.id];
    if (s.kind == Kind::Level) {
        m_values[c.id] = uint64_t(c.value);
        return;
    }
    const bool was_busy = s.count > 0;
    s.count += c.value;
    const bool busy = s.count > 0;
    // A count beyond its bits shows as the largest value they hold.
    const uint64_t top = s.bits >= 64 ? UINT64_MAX : (uint64_t(1) << s.bits) - 1;
    m_values[c.id] = s.kind == Kind::Busy ? uint64_t(busy) : std::min(uint64_t(std::max<int64_t>(s.count, 0)), top);
    if (s.kind == Kind::Busy && busy != was_busy && s.parent >= 0) apply(Change{c.cycle, c.seq, uint32_t(s.parent), busy ? 1 : -1});
}

// Writes every change whose cycle has come, then sleeps until the next one is due, but never past
// the next activity of the model's other processes: waking later than they would have moved time
// on by itself. When nothing else is pending the held changes wait for wake() or a new change.
void VcdRecorder::replay() {
    for (;;) {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        while (!m_pending.empty() && time_of(m_pending.top().cycle) <= now) {
            apply(m_pending.top());
            m_pending.pop();
        }
        if (m_pending.empty()) {
            m_wake_at = sc_core::sc_max_time();
            wait(m_more);
            continue;
        }
        const sc_core::sc_time due = time_of(m_pending.top().cycle) - now;
        const sc_core::sc_time others = m_draining ? due : sc_core::sc_time_to_pending_activity();
        if (others == sc_core::SC_ZERO_TIME) {
            // Other processes run in this time step: look again once they have.
            m_wake_at = sc_core::SC_ZERO_TIME;
            wait(sc_core::SC_ZERO_TIME);
        } else if (others >= sc_core::sc_max_time() - now) {
            m_wake_at = sc_core::sc_max_time();
            wait(m_more);
        } else {
            m_wake_at = now + std::min(due, others);
            wait(std::min(due, others), m_more);
        }
    }
}

} // namespace gpusim
