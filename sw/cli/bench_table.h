// gpusim bench without --mode and --threads: each manifest in both modes, on one host thread and on
// several, in one table, with the speed-up of the threads (docs/manifest.md#gpusim-bench-manifest).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpusim {

struct BenchPoint {
    bool ok = false;                 // the run passed
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    double host_seconds = 0;         // over the launches only
    double process_seconds = 0;      // the whole run as a user waits for it: config, PTX, buffers, copies, launches, checks
};

// Runs one manifest in one mode on `threads` host threads (in a process of its own).
using BenchRunner = std::function<BenchPoint(const std::string& manifest, const std::string& mode, uint32_t threads)>;

// Prints the table; returns whether every run passed. `threads` > 1. With `repeat` > 1 each point
// runs that many times, the four points of a manifest taking turns, and keeps its fastest run: on
// a noisy host the fastest is the one least disturbed.
bool bench_table(const std::vector<std::string>& manifests, uint32_t threads, uint32_t repeat, const BenchRunner& run);

} // namespace gpusim
