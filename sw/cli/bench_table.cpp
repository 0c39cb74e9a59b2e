#include "cli/bench_table.h"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

namespace gpusim {

namespace {

// Millions of instructions per host second.
double rate(uint64_t instructions, const BenchPoint& p) { return instructions / std::max(p.host_seconds, 1e-9) / 1e6; }

std::string ratio(const BenchPoint& one, const BenchPoint& many) {
    if (!one.ok || !many.ok) return "-";
    return fmt::format("{:.2f}x", one.host_seconds / std::max(many.host_seconds, 1e-9));
}

} // namespace

bool bench_table(const std::vector<std::string>& manifests, uint32_t threads, const BenchRunner& run) {
    const std::string n = std::to_string(threads);
    fmt::print("{:<16} | {:>32} | {:>32}\n", "", "functional: Mtinst/s", "timing: Mwinst/s");
    fmt::print("{:<16} | {:>10} {:>10} {:>10} | {:>10} {:>10} {:>10}\n", "kernel", "1 thread", n + " threads", "speed-up",
               "1 thread", n + " threads", "speed-up");
    bool all = true;
    for (const std::string& m : manifests) {
        const BenchPoint f1 = run(m, "functional", 1), fn = run(m, "functional", threads);
        const BenchPoint t1 = run(m, "timing", 1), tn = run(m, "timing", threads);
        const auto cell = [](const BenchPoint& p, uint64_t insts) { return p.ok ? fmt::format("{:.1f}", rate(insts, p)) : "FAIL"; };
        fmt::print("{:<16} | {:>10} {:>10} {:>10} | {:>10} {:>10} {:>10}\n", std::filesystem::path(m).stem().string(),
                   cell(f1, f1.thread_instructions), cell(fn, fn.thread_instructions), ratio(f1, fn),
                   cell(t1, t1.warp_instructions), cell(tn, tn.warp_instructions), ratio(t1, tn));
        std::fflush(stdout);
        all = all && f1.ok && fn.ok && t1.ok && tn.ok;
    }
    return all;
}

} // namespace gpusim
