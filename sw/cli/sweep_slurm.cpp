#include "cli/sweep_slurm.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace gpusim::sweep {

namespace fs = std::filesystem;

namespace {

// A word for sh, in single quotes.
std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

fs::path slurm_dir(const fs::path& out) { return out / "slurm"; }
fs::path exit_file(const fs::path& out, const Task& t) { return slurm_dir(out) / ("exit-" + t.key); }

// Runs a command and returns its standard output; `rc` gets its exit status.
std::string capture(const std::string& cmd, int& rc) {
    std::FILE* p = popen(cmd.c_str(), "r");
    if (!p) throw std::runtime_error(fmt::format("cannot run {}", cmd));
    std::string out;
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    return out;
}

std::string read_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    return line;
}

// One task's script: its run, the rename that enters the cache, and its exit status.
void write_task_script(const fs::path& file, const Command& c, const Task& t, const fs::path& out) {
    std::string run;
    if (!c.env.empty()) run += "env";
    for (const std::string& e : c.env) run += " " + quote(e);
    for (const std::string& a : c.argv) run += (run.empty() ? "" : " ") + quote(a);
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
    const fs::path array = dir / "array.sh";
    {
        std::ofstream f(array);
        f << "#!/bin/sh\n"
          << "#SBATCH --job-name=" << quote("gpusim-sweep-" + s.name) << "\n"
          << "#SBATCH --array=0-" << n - 1 << "\n"
          << "#SBATCH --ntasks=1\n"
          << "#SBATCH --output=" << (fs::absolute(out) / "logs" / "slurm-%A_%a.out").string() << "\n";
        if (!partition.empty()) f << "#SBATCH --partition=" << partition << "\n";
        f << "exec sh " << quote(fs::absolute(dir).string()) << "/task-\"$SLURM_ARRAY_TASK_ID\".sh\n";
    }
    int rc = 0;
    std::string job = capture("sbatch --parsable " + quote(array.string()), rc);
    job = job.substr(0, job.find_first_of(";\n"));
    if (rc != 0 || job.empty()) throw std::runtime_error(fmt::format("sbatch failed (exit {}) for {}", rc, array.string()));
    std::ofstream(dir / "job_id") << job << "\n";
    fmt::print("submitted job array {} ({} runs) to Slurm\n", job, n);
    std::fflush(stdout);
    return job;
}

void wait_for_array(const std::string& job) {
    if (job.empty()) return;
    // Slurm lists a job while it is pending or running; once it ends the list is empty (or, after
    // MinJobAge, squeue no longer knows the id at all).
    for (;;) {
        int rc = 0;
        const std::string listed = capture(fmt::format("squeue -h -j {} -o %i 2>/dev/null", quote(job)), rc);
        if (rc != 0 || listed.find_first_not_of(" \n") == std::string::npos) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
}

void read_exits(std::vector<Task>& tasks, const fs::path& out) {
    for (Task& t : tasks) {
        if (t.cached) continue;
        const std::string line = read_line(exit_file(out, t));
        t.exit = line.empty() ? -1 : std::stoi(line);
        if (t.exit == 0 && !fs::exists(t.stats)) t.exit = 127;
    }
}

std::string submitted_spec(const fs::path& out) {
    const std::string spec = read_line(slurm_dir(out) / "spec_path");
    if (spec.empty()) throw std::runtime_error(fmt::format("{}: no sweep was submitted to Slurm from here", out.string()));
    return spec;
}

std::string submitted_job(const fs::path& out) { return read_line(slurm_dir(out) / "job_id"); }

} // namespace gpusim::sweep
