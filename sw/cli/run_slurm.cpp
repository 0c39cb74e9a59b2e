#include "cli/run_slurm.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/slurm.h"
#include "cli/sweep_task.h"

namespace gpusim {

namespace fs = std::filesystem;

std::vector<SlurmRun> run_on_slurm(const std::vector<std::string>& args, const std::vector<std::string>& manifests,
                                   const std::string& partition) {
    const fs::path dir = fs::absolute(fmt::format("gpusim-slurm-{}", getpid()));
    fs::create_directories(dir / "logs");
    for (size_t k = 0; k < manifests.size(); ++k) {
        std::vector<std::string> words = {sweep::self_exe().string(), "run"};
        words.insert(words.end(), args.begin(), args.end());
        words.insert(words.end(), {"--junit-record", (dir / fmt::format("record-{}.json", k)).string(), fs::absolute(manifests[k]).string()});
        std::ofstream f(dir / fmt::format("task-{}.sh", k));
        f << "#!/bin/sh\n# gpusim run: one manifest of the job array\n"
          << "cd " << slurm::quote(fs::current_path().string()) << "\n"
          << slurm::command_line(words) << " > " << slurm::quote((dir / fmt::format("out-{}.txt", k)).string()) << " 2>&1\n"
          << "echo $? > " << slurm::quote((dir / fmt::format("exit-{}", k)).string()) << "\n";
    }
    const std::string job = slurm::submit(dir, manifests.size(), "gpusim-run", dir / "logs", partition);
    fmt::print(stderr, "gpusim: {} manifests submitted to Slurm as job array {}\n", manifests.size(), job);
    slurm::wait(job);

    std::vector<SlurmRun> runs(manifests.size());
    bool all_passed = true;
    for (size_t k = 0; k < manifests.size(); ++k) {
        SlurmRun& r = runs[k];
        const std::string exit = slurm::first_line(dir / fmt::format("exit-{}", k));
        r.exit = exit.empty() ? -1 : std::stoi(exit);
        all_passed &= r.exit == 0;
        std::ifstream out(dir / fmt::format("out-{}.txt", k));
        std::vector<std::string> lines;
        for (std::string line; std::getline(out, line);) lines.push_back(line);
        for (size_t i = 0; i < lines.size(); ++i) {
            const bool header = i == 0 && lines[i].rfind("result ", 0) == 0;
            const bool footer = lines[i].find(" passed, ") != std::string::npos && lines[i].find(" failed") != std::string::npos;
            if (!header && !footer) r.rows += lines[i] + "\n";
        }
        std::ifstream record(dir / fmt::format("record-{}.json", k));
        r.record = record ? JunitRecord::parse(record, nullptr, false) : JunitRecord();
        if (r.record.is_discarded()) r.record = JunitRecord();
    }
    if (all_passed) fs::remove_all(dir);
    else fmt::print(stderr, "gpusim: the array's scripts and outputs are in {}\n", dir.string());
    return runs;
}

} // namespace gpusim
