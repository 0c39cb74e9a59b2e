#include "cli/slurm.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace gpusim::slurm {

namespace fs = std::filesystem;

namespace {
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
} // namespace

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string command_line(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + quote(w);
    return out;
}

std::string submit(const fs::path& dir, size_t tasks, const std::string& name, const fs::path& logs, const std::string& partition) {
    const fs::path array = dir / "array.sh";
    {
        std::ofstream f(array);
        f << "#!/bin/sh\n"
          << "#SBATCH --job-name=" << quote(name) << "\n"
          << "#SBATCH --array=0-" << tasks - 1 << "\n"
          << "#SBATCH --ntasks=1\n"
          << "#SBATCH --output=" << (fs::absolute(logs) / "slurm-%A_%a.out").string() << "\n";
        if (!partition.empty()) f << "#SBATCH --partition=" << partition << "\n";
        f << "exec sh " << quote(fs::absolute(dir).string()) << "/task-\"$SLURM_ARRAY_TASK_ID\".sh\n";
        if (!f) throw std::runtime_error(fmt::format("{}: cannot write", array.string()));
    }
    int rc = 0;
    std::string job = capture("sbatch --parsable " + quote(array.string()), rc);
    job = job.substr(0, job.find_first_of(";\n"));
    if (rc != 0 || job.empty()) throw std::runtime_error(fmt::format("sbatch failed (exit {}) for {}", rc, array.string()));
    return job;
}

void wait(const std::string& job) {
    if (job.empty()) return;
    // Slurm lists a job while it is pending or running; once it ends the list is empty (or, after
    // MinJobAge, squeue no longer knows the id at all). No accounting database is needed.
    for (;;) {
        int rc = 0;
        const std::string listed = capture(fmt::format("squeue -h -j {} -o %i 2>/dev/null", quote(job)), rc);
        if (rc != 0 || listed.find_first_not_of(" \n") == std::string::npos) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
}

std::string first_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace gpusim::slurm
