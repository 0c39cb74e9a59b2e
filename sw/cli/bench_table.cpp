#include "cli/bench_table.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

namespace gpusim {

namespace {

// Millions of instructions per host second.
double rate(uint64_t instructions, const BenchPoint& p) { return instructions / std::max(p.host_seconds, 1e-9) / 1e6; }
// The same over the whole process: the figure a user feels.
double process_rate(uint64_t instructions, const BenchPoint& p) { return instructions / std::max(p.process_seconds, 1e-9) / 1e6; }

std::string ratio(const BenchPoint& one, const BenchPoint& many) {
    if (!one.ok || !many.ok) return "-";
    return fmt::format("{:.2f}x", one.host_seconds / std::max(many.host_seconds, 1e-9));
}

// The faster of two runs of one point; a failed run fails the point.
void keep_faster(BenchPoint& best, const BenchPoint& p, uint32_t k) {
    if (k == 0 || !p.ok) best = p;
    else if (best.ok && p.host_seconds < best.host_seconds) best = p;
}

} // namespace

bool bench_table(const std::vector<std::string>& manifests, uint32_t threads, uint32_t repeat, const BenchRunner& run) {
    const std::string n = std::to_string(threads);
    // "whole": the rate over the whole process of the run on `threads` threads, not its launches only.
    fmt::print("{:<16} | {:>43} | {:>43}\n", "", "functional: Mtinst/s", "timing: Mwinst/s");
    fmt::print("{:<16} | {:>10} {:>10} {:>10} {:>10} | {:>10} {:>10} {:>10} {:>10}\n", "kernel", "1 thread", n + " threads",
               "speed-up", "whole", "1 thread", n + " threads", "speed-up", "whole");
    bool all = true;
    for (const std::string& m : manifests) {
        BenchPoint f1, fn, t1, tn;
        for (uint32_t k = 0; k < std::max(repeat, 1u); ++k) {
            keep_faster(f1, run(m, "functional", 1), k);
            keep_faster(fn, run(m, "functional", threads), k);
            keep_faster(t1, run(m, "timing", 1), k);
            keep_faster(tn, run(m, "timing", threads), k);
        }
        const auto cell = [](const BenchPoint& p, uint64_t insts) { return p.ok ? fmt::format("{:.1f}", rate(insts, p)) : "FAIL"; };
        const auto whole = [](const BenchPoint& p, uint64_t insts) { return p.ok ? fmt::format("{:.1f}", process_rate(insts, p)) : "FAIL"; };
        fmt::print("{:<16} | {:>10} {:>10} {:>10} {:>10} | {:>10} {:>10} {:>10} {:>10}\n", std::filesystem::path(m).stem().string(),
                   cell(f1, f1.thread_instructions), cell(fn, fn.thread_instructions), ratio(f1, fn), whole(fn, fn.thread_instructions),
                   cell(t1, t1.warp_instructions), cell(tn, tn.warp_instructions), ratio(t1, tn), whole(tn, tn.warp_instructions));
        std::fflush(stdout);
        all = all && f1.ok && fn.ok && t1.ok && tn.ok;
    }
    return all;
}

} // namespace gpusim
