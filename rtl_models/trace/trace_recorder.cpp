#include "trace/trace_recorder.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace gpusim {

namespace {
// The format's times are microseconds.
double us(double ns) { return ns / 1000.0; }
// A track's thread id, unique over all groups: some viewers (Perfetto before 2022) match threads
// by id alone.
int tid(int group, int track) { return group * 1000 + track; }
} // namespace

TraceRecorder::TraceRecorder(const std::string& path, double cycle_ns, uint64_t interval_cycles)
    : m_cycle_ns(cycle_ns), m_interval(std::max<uint64_t>(interval_cycles, 1)) {
    m_out = std::fopen(path.c_str(), "w");
    if (!m_out) throw std::runtime_error(fmt::format("{}: cannot write the trace file", path));
    const nlohmann::json meta = {{"cycle_ns", cycle_ns}, {"interval_cycles", m_interval}, {"producer", "gpusim"}};
    std::fprintf(m_out, "{\"displayTimeUnit\":\"ns\",\"otherData\":%s,\"traceEvents\":[\n", meta.dump().c_str());
}

TraceRecorder::~TraceRecorder() { finish(); }

void TraceRecorder::event(const nlohmann::json& e) {
    if (!m_out) return;
    std::fprintf(m_out, "%s%s", m_first ? "" : ",\n", e.dump().c_str());
    m_first = false;
}

void TraceRecorder::name_group(int group, const std::string& name, int sort_index) {
    std::lock_guard<std::mutex> lock(m_lock);
    event({{"ph", "M"}, {"pid", group}, {"name", "process_name"}, {"args", {{"name", name}}}});
    event({{"ph", "M"}, {"pid", group}, {"name", "process_sort_index"}, {"args", {{"sort_index", sort_index}}}});
}

void TraceRecorder::name_track(int group, int track, const std::string& name) {
    std::lock_guard<std::mutex> lock(m_lock);
    if (m_named[{group, track}]) return;
    m_named[{group, track}] = true;
    event({{"ph", "M"}, {"pid", group}, {"tid", tid(group, track)}, {"name", "thread_name"}, {"args", {{"name", name}}}});
    event({{"ph", "M"}, {"pid", group}, {"tid", tid(group, track)}, {"name", "thread_sort_index"}, {"args", {{"sort_index", track}}}});
}

void TraceRecorder::span(int group, int track, const std::string& name, const char* category, double start_ns, double end_ns,
                         const nlohmann::json& args) {
    std::lock_guard<std::mutex> lock(m_lock);
    event({{"ph", "X"}, {"pid", group}, {"tid", tid(group, track)}, {"name", name}, {"cat", category}, {"ts", us(start_ns)},
           {"dur", us(std::max(end_ns - start_ns, 0.0))}, {"args", args}});
}

void TraceRecorder::counter(int group, const std::string& name, double at_ns, double value) {
    std::lock_guard<std::mutex> lock(m_lock);
    event({{"ph", "C"}, {"pid", group}, {"name", name}, {"ts", us(at_ns)}, {"args", {{"value", value}}}});
}

void TraceRecorder::l2_lookup(uint64_t cycle, bool hit) {
    std::lock_guard<std::mutex> lock(m_lock);
    Bucket& b = m_buckets[cycle / m_interval];
    ++b.l2_lookups;
    b.l2_hits += hit;
}

void TraceRecorder::dram_bytes(uint64_t cycle, uint64_t bytes) {
    std::lock_guard<std::mutex> lock(m_lock);
    m_buckets[cycle / m_interval].dram_bytes += bytes;
}

void TraceRecorder::finish() {
    std::unique_lock<std::mutex> lock(m_lock);
    if (!m_out) return;
    // Each interval's rate from its start; an interval without traffic returns the line to zero.
    const double interval_ns = double(m_interval) * m_cycle_ns;
    std::map<uint64_t, Bucket> buckets = std::move(m_buckets);
    lock.unlock();
    for (auto it = buckets.begin(); it != buckets.end(); ++it) {
        const auto& [index, b] = *it;
        const double at = double(index) * interval_ns;
        if (b.l2_lookups) counter(kChip, "L2 hit rate", at, double(b.l2_hits) / double(b.l2_lookups));
        counter(kChip, "DRAM bandwidth (GB/s)", at, double(b.dram_bytes) / interval_ns);
        auto next = std::next(it);
        if (next == buckets.end() || next->first != index + 1) counter(kChip, "DRAM bandwidth (GB/s)", at + interval_ns, 0);
    }
    lock.lock();
    std::fprintf(m_out, "\n]}\n");
    std::fclose(m_out);
    m_out = nullptr;
}

} // namespace gpusim
