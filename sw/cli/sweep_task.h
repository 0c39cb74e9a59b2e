// One run of a sweep (a workload at a point) and the command that makes it, shared by the local
// runner (sweep.cpp) and the Slurm job array (sweep_slurm.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli/sweep_spec.h"

namespace gpusim::sweep {

struct Task {
    size_t workload = 0, point = 0;
    std::string key;                // the cache key: config, workload and simulator version
    std::filesystem::path stats;    // the cached statistics file (present once the run finished)
    std::filesystem::path log;      // the run's output
    bool cached = false;
    int exit = -1;                  // the run's exit status (0: done); -1: did not run
    double seconds = 0;

    // Where the run writes its statistics; renamed to `stats` only when it succeeds.
    std::filesystem::path partial() const { return stats.string() + ".partial"; }
};

// A process to start: its arguments, and the environment settings it adds.
struct Command {
    std::vector<std::string> argv;
    std::vector<std::string> env;
};

// The run of a task: gpusim run on a manifest, or the program on the replacement libcudart, with
// the point's overrides, writing its statistics to the task's partial file.
Command command_of(const Spec& s, const Point& p, const Task& t);
// The spec's fixed overrides, then the point's parameter values, as --set takes them.
std::vector<std::string> overrides(const Spec& s, const Point& p);
// "key=value key=value" for messages.
std::string point_label(const Spec& s, const Point& p);
// This gpusim executable.
std::filesystem::path self_exe();

} // namespace gpusim::sweep
