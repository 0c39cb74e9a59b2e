// The few Slurm client calls gpusim makes (sbatch, squeue), for the job arrays of
// `gpusim sweep --slurm` and `gpusim run --slurm` (docs/sweeps.md#on-a-slurm-cluster).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpusim::slurm {

// A word for sh, in single quotes.
std::string quote(const std::string& s);
// A command line for sh from its words.
std::string command_line(const std::vector<std::string>& words);
// Writes an array script of `tasks` runs, each `exec sh DIR/task-$SLURM_ARRAY_TASK_ID.sh`, with
// its output under `logs`, and submits it; returns the job id (throws when sbatch fails).
std::string submit(const std::filesystem::path& dir, size_t tasks, const std::string& name, const std::filesystem::path& logs,
                   const std::string& partition);
// Waits until the job has left the queue (squeue lists it no more).
void wait(const std::string& job);
// The first line of a file ("" when it does not exist).
std::string first_line(const std::filesystem::path& p);

} // namespace gpusim::slurm
