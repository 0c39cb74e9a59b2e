#include "gpu/progress_meter.h"

namespace gpusim {

namespace {
std::chrono::steady_clock::duration seconds(double s) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}
} // namespace

ProgressMeter::ProgressMeter(std::FILE* out, std::function<std::string()> status, double after_s, double every_s)
    : m_out(out), m_status(std::move(status)), m_start(Clock::now()), m_next(m_start + seconds(after_s)), m_every(seconds(every_s)) {}

ProgressMeter::~ProgressMeter() { clear(); }

void ProgressMeter::tick() {
    const Clock::time_point now = Clock::now();
    if (now < m_next) return;
    m_next = now + m_every;
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    // \r and clear-to-end-of-line: one line, redrawn in place.
    std::fprintf(m_out, "\r\033[Kgpusim: %s, %.0f s", m_status().c_str(), elapsed);
    std::fflush(m_out);
    m_shown = true;
}

void ProgressMeter::clear() {
    if (!m_shown) return;
    std::fprintf(m_out, "\r\033[K");
    std::fflush(m_out);
    m_shown = false;
}

} // namespace gpusim
