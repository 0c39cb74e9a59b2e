// Statistics over chosen stretches of a run (cudaProfilerStart/Stop bound them, as profilers do):
// the units' cumulative counters at the end of each window minus those at its start, summed over
// the windows.
#pragma once

#include <nlohmann/json.hpp>

namespace gpusim {

class StatsWindows {
public:
    // `stats` is the GPU's statistics document (Runtime::unit_stats) at this moment.
    void start(const nlohmann::json& stats, double now_ns);
    void stop(const nlohmann::json& stats, double now_ns);
    bool used() const { return m_windows > 0 || m_open; }
    bool open() const { return m_open; }
    int windows() const { return m_windows + (m_open ? 1 : 0); }
    // The statistics of every window so far, an open one counted up to now.
    nlohmann::json stats(const nlohmann::json& now, double now_ns) const;
    double simulated_ns(double now_ns) const;

private:
    nlohmann::json m_sum;        // completed windows
    nlohmann::json m_start;      // where the open window began
    double m_sum_ns = 0, m_start_ns = 0;
    int m_windows = 0;
    bool m_open = false;
};

// Counter by counter: a + sign * b over the numbers of two documents of the same shape (a stat's
// "value", or a bare number); other fields are a's, and so is a stat marked "constant" (a
// property such as a pipe's lanes).
nlohmann::json combine_stats(const nlohmann::json& a, const nlohmann::json& b, double sign);

} // namespace gpusim
