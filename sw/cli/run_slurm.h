// gpusim run --slurm: the manifests as one Slurm job array, one `gpusim run` per manifest
// (docs/manifest.md), waited for; the caller prints their rows and writes the JUnit report as
// for a local run.
#pragma once

#include <string>
#include <vector>

#include "cli/junit.h"

namespace gpusim {

struct SlurmRun {
    int exit = -1;          // gpusim run's exit code; -1 when the task never ran
    std::string rows;       // its output, less the header and the "N passed" line
    JunitRecord record;     // its JUnit record (null when it never ran)
};

// `args` are the options each run gets (the manifest follows them). The array's scripts, outputs
// and logs go to a folder in the working directory (which the nodes must see); it is removed
// when every run passed.
std::vector<SlurmRun> run_on_slurm(const std::vector<std::string>& args, const std::vector<std::string>& manifests,
                                   const std::string& partition);

} // namespace gpusim
