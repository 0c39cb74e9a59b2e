#include "runtime/stats_window.h"

namespace gpusim {

namespace {
// A property rather than a count (a pipe's lanes): kept as it is, not summed.
bool is_constant(const nlohmann::json& stat) {
    auto it = stat.find("constant");
    return it != stat.end() && it->is_boolean() && it->get<bool>();
}
} // namespace

nlohmann::json combine_stats(const nlohmann::json& a, const nlohmann::json& b, double sign) {
    if (a.is_number()) return a.get<double>() + sign * (b.is_number() ? b.get<double>() : 0.0);
    if (!a.is_object() || is_constant(a)) return a;
    nlohmann::json out = nlohmann::json::object();
    for (auto it = a.begin(); it != a.end(); ++it) {
        const bool other = b.is_object() && b.contains(it.key());
        out[it.key()] = combine_stats(it.value(), other ? b[it.key()] : nlohmann::json(), sign);
    }
    return out;
}

void StatsWindows::start(const nlohmann::json& stats, double now_ns) {
    if (m_open) return;   // a second start inside a window changes nothing, as with a profiler
    m_start = stats;
    m_start_ns = now_ns;
    m_open = true;
}

void StatsWindows::stop(const nlohmann::json& stats, double now_ns) {
    if (!m_open) return;
    const nlohmann::json window = combine_stats(stats, m_start, -1);
    m_sum = m_windows ? combine_stats(m_sum, window, 1) : window;
    m_sum_ns += now_ns - m_start_ns;
    ++m_windows;
    m_open = false;
}

nlohmann::json StatsWindows::stats(const nlohmann::json& now, double now_ns) const {
    StatsWindows copy = *this;
    copy.stop(now, now_ns);
    return copy.m_sum;
}

double StatsWindows::simulated_ns(double now_ns) const { return m_sum_ns + (m_open ? now_ns - m_start_ns : 0); }

} // namespace gpusim
