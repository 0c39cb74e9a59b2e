// A progress line on stderr for long runs (docs/profiling.md#progress): once a run has taken
// `after` host seconds, the line is redrawn at most every `every` seconds with what the caller's
// `status` reports (kernels, blocks done of the launch's total, simulated cycles, host speed).
// The SMs call tick() at the end of each step; it costs a clock read until a line is due.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

namespace gpusim {

class ProgressMeter {
public:
    ProgressMeter(std::FILE* out, std::function<std::string()> status, double after_s = 2.0, double every_s = 0.5);
    ~ProgressMeter();

    void tick();
    // Clears the line (the program's own output then starts on a clean one).
    void clear();

private:
    using Clock = std::chrono::steady_clock;
    std::FILE* m_out;
    std::function<std::string()> m_status;
    Clock::time_point m_start, m_next;
    Clock::duration m_every;
    bool m_shown = false;
};

} // namespace gpusim
