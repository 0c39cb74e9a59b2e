#include "cli/sweep_task.h"

#include <cstdlib>

#include <fmt/format.h>

namespace gpusim::sweep {

namespace fs = std::filesystem;

fs::path self_exe() { return fs::read_symlink("/proc/self/exe"); }

std::vector<std::string> overrides(const Spec& s, const Point& p) {
    std::vector<std::string> out;
    for (const auto& [k, v] : s.fixed) out.push_back(k + "=" + v);
    for (size_t k = 0; k < p.size(); ++k) out.push_back(s.parameters[k].key + "=" + p[k]);
    return out;
}

std::string point_label(const Spec& s, const Point& p) {
    std::string out;
    for (size_t k = 0; k < p.size(); ++k) out += fmt::format("{}{}={}", k ? " " : "", s.parameters[k].key, p[k]);
    return out;
}

Command command_of(const Spec& s, const Point& p, const Task& t) {
    const Workload& w = s.workloads[t.workload];
    Command c;
    if (!w.manifest.empty()) {
        c.argv = {self_exe().string(), "run", "--config", s.config, "--mode", s.mode, "--no-summary", "--stats", t.partial().string()};
        for (const std::string& o : overrides(s, p)) c.argv.insert(c.argv.end(), {"--set", o});
        c.argv.push_back(w.manifest);
        return c;
    }
    c.argv.push_back(w.program);
    c.argv.insert(c.argv.end(), w.args.begin(), w.args.end());
    std::string sets;
    for (const std::string& o : overrides(s, p)) sets += (sets.empty() ? "" : ",") + o;
    const char* old = std::getenv("LD_LIBRARY_PATH");
    c.env = {fmt::format("LD_LIBRARY_PATH={}{}{}", GPUSIM_CUDART_DIR, old ? ":" : "", old ? old : ""), "GPUSIM_CONFIG=" + s.config,
             "GPUSIM_MODE=" + s.mode, "GPUSIM_SET=" + sets, "GPUSIM_STATS=" + t.partial().string()};
    return c;
}

} // namespace gpusim::sweep
