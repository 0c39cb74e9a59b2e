#include "cli/sweep_slurm.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/slurm.h"

namespace gpusim::sweep {

namespace fs = std::filesystem;

namespace {

using slurm::quote;

fs::path slurm_dir(const fs::path& out) { return out / "slurm"; }
fs::path exit_file(const fs::path& out, const Task& t) { return slurm_dir(out) / ("exit-" + t.key); }

// One task's script: its run, the rename that enters the cache, and its exit status.
void write_task_script(const fs::path& file, const Command& c, const Task& t, const fs::path& out) {
    std::vector<std::string> words;
    if (!c.env.empty()) words.push_back("env");
    words.insert(words.end(), c.env.begin(), c.env.end());
    words.insert(words.end(), c.argv.begin(), c.argv.end());
    const std::string run = slurm::command_line(words);
    std::ofstream f(file);
    f << "#!/bin/sh\n"
      << "# gpusim sweep: one run of the job array\n"
      << "cd " << quote(fs::current_path().string()) << "\n"
      << run << " > " << quote(t.log.string()) << " 2>&1\n"
      << "rc=$?\n"
      << "if [ $rc -eq 0 ] && [ -f " << quote(t.partial().string()) << " ]; then mv " << quote(t.partial().string()) << " "
      << quote(t.stats.string()) << "; fi\n"
      << "echo $rc > " << quote(exit_file(out, t).string()) << "\n"
      << "exit $rc\n";
    if (!f) throw std::runtime_error(fmt::format("{}: cannot write", file.string()));
}

} // namespace

std::string submit_array(const Spec& s, const std::vector<Point>& points, const std::vector<Task>& tasks, const fs::path& out,
                         const std::string& partition) {
    const fs::path dir = slurm_dir(out);
    fs::create_directories(dir);
    std::ofstream(dir / "spec_path") << fs::absolute(s.path).string() << "\n";
    size_t n = 0;
    for (const Task& t : tasks) {
        if (t.cached) continue;
        fs::remove(exit_file(out, t));
        write_task_script(dir / fmt::format("task-{}.sh", n++), command_of(s, points[t.point], t), t, out);
    }
    if (n == 0) return "";
    const std::string job = slurm::submit(dir, n, "gpusim-sweep-" + s.name, out / "logs", partition);
    std::ofstream(dir / "job_id") << job << "\n";
    fmt::print("submitted job array {} ({} runs) to Slurm\n", job, n);
    std::fflush(stdout);
    return job;
}

void wait_for_array(const std::string& job) { slurm::wait(job); }

void read_exits(std::vector<Task>& tasks, const fs::path& out) {
    for (Task& t : tasks) {
        if (t.cached) continue;
        const std::string line = slurm::first_line(exit_file(out, t));
        t.exit = line.empty() ? -1 : std::stoi(line);
        if (t.exit == 0 && !fs::exists(t.stats)) t.exit = 127;
    }
}

std::string submitted_spec(const fs::path& out) {
    const std::string spec = slurm::first_line(slurm_dir(out) / "spec_path");
    if (spec.empty()) throw std::runtime_error(fmt::format("{}: no sweep was submitted to Slurm from here", out.string()));
    return spec;
}

std::string submitted_job(const fs::path& out) { return slurm::first_line(slurm_dir(out) / "job_id"); }

} // namespace gpusim::sweep
