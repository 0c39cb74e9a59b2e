#include "isa/reports.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace gpusim::reports {

namespace {

struct Pending {
    sc_core::sc_severity severity;
    const char* type;
    std::string text;
    const char* file;
    int line;
};

std::mutex g_lock;
std::vector<Pending> g_pending;
thread_local bool t_worker = false;

const char* const kTypes[] = {kRacecheck, kLdst, kSm, kWatchdog, kComputeEngine, kDma};

void report(const Pending& p) { sc_core::sc_report_handler::report(p.severity, p.type, p.text.c_str(), p.file, p.line); }

} // namespace

bool is_model_type(const char* type) {
    for (const char* t : kTypes)
        if (std::strcmp(t, type) == 0) return true;
    return false;
}

void post(sc_core::sc_severity severity, const char* type, const std::string& text, const char* file, int line) {
    Pending p{severity, type, text, file, line};
    if (!t_worker) return report(p);
    std::lock_guard<std::mutex> lock(g_lock);
    g_pending.push_back(std::move(p));
}

void deliver() {
    std::vector<Pending> ready;
    {
        std::lock_guard<std::mutex> lock(g_lock);
        ready.swap(g_pending);
    }
    for (const Pending& p : ready) report(p);
}

void mark_worker_thread() { t_worker = true; }

void set_error_actions() {
    for (const char* t : kTypes)
        sc_core::sc_report_handler::set_actions(t, sc_core::SC_ERROR, sc_core::SC_LOG | sc_core::SC_DISPLAY | sc_core::SC_CACHE_REPORT);
}

} // namespace gpusim::reports
