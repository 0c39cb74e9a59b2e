// A timeline of a run in the Chrome trace-event JSON format, which ui.perfetto.dev and
// chrome://tracing open (docs/profiling.md#timeline). Spans on tracks (host API calls, each
// stream's commands, the copy engines, kernels, and the blocks resident on each SM) and counters
// (per SM: resident warps and issue rate per sampling interval; for the chip: L2 hit rate and
// DRAM bandwidth per interval). Times are simulated, in nanoseconds.
//
// The units that own the events call it directly (no process of its own); only a run that asks
// for a trace has one, so a run without costs a null-pointer test at each call site.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace gpusim {

class TraceRecorder {
public:
    // Track groups, each a "process" of the trace; each SM is kSmBase + its index.
    enum Group : int { kHost = 1, kStreams = 2, kCopyEngines = 3, kCompute = 4, kChip = 5, kSmBase = 100 };

    // Opens `path` (throws std::runtime_error when it cannot); counters are sampled every
    // `interval_cycles` cycles of `cycle_ns`.
    TraceRecorder(const std::string& path, double cycle_ns, uint64_t interval_cycles);
    ~TraceRecorder();
    TraceRecorder(const TraceRecorder&) = delete;
    TraceRecorder& operator=(const TraceRecorder&) = delete;

    double cycle_ns() const { return m_cycle_ns; }
    uint64_t interval_cycles() const { return m_interval; }
    double ns_of_cycle(uint64_t cycle) const { return double(cycle) * m_cycle_ns; }

    // Names a group, and a track within it (the first use of a track names it, once).
    void name_group(int group, const std::string& name, int sort_index);
    void name_track(int group, int track, const std::string& name);
    // A span [start_ns, end_ns] on a track; `args` shows in the span's details.
    void span(int group, int track, const std::string& name, const char* category, double start_ns, double end_ns,
              const nlohmann::json& args = nlohmann::json::object());
    // A counter's value from `at_ns` until its next sample.
    void counter(int group, const std::string& name, double at_ns, double value);

    // Chip-wide samples, kept per interval of the cycle they happened in and written as
    // counters at the end (an SM runs ahead of others within a quantum, so they arrive out of order).
    void l2_lookup(uint64_t cycle, bool hit);
    void dram_bytes(uint64_t cycle, uint64_t bytes);

    // Writes the chip counters and closes the document; later events are dropped. The destructor
    // finishes too.
    void finish();

private:
    struct Bucket {
        uint64_t l2_hits = 0, l2_lookups = 0, dram_bytes = 0;
    };
    std::mutex m_lock;
    std::FILE* m_out = nullptr;
    double m_cycle_ns;
    uint64_t m_interval;
    bool m_first = true;
    std::map<uint64_t, Bucket> m_buckets;   // by interval index
    std::map<std::pair<int, int>, bool> m_named;

    void event(const nlohmann::json& e);
};

} // namespace gpusim
