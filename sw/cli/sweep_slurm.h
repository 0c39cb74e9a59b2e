// A sweep's runs as one Slurm job array (gpusim sweep --slurm, docs/sweeps.md#on-a-slurm-cluster):
// a shell script per run and an array script that picks its task's, submitted with sbatch; the
// runs write their statistics into the sweep's cache as local runs do, and an exit file each.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli/sweep_task.h"

namespace gpusim::sweep {

// Writes the scripts for the tasks that are not cached and submits them as one array; returns
// the array's job id ("" when every task is cached). The spec's path is kept for --collect.
std::string submit_array(const Spec& s, const std::vector<Point>& points, const std::vector<Task>& tasks,
                         const std::filesystem::path& out, const std::string& partition);
// Waits until the job leaves Slurm's queue.
void wait_for_array(const std::string& job);
// After the array: each task's exit status from its exit file (-1 for a task that never ran).
void read_exits(std::vector<Task>& tasks, const std::filesystem::path& out);
// What --collect needs from an earlier submission: the spec's path, and the job id ("" if none).
std::string submitted_spec(const std::filesystem::path& out);
std::string submitted_job(const std::filesystem::path& out);

} // namespace gpusim::sweep
