// `gpusim sweep SPEC`: runs every point of a design-space sweep (sweep_spec.h) as a separate
// process, N at a time, each result cached by its config, workload and simulator version so that
// an interrupted sweep resumes; then writes results.csv, results.json, plots (through
// sweep_plot.py and matplotlib) and an index.html report (docs/sweeps.md).
#pragma once

#include <string>

namespace gpusim::sweep {

struct Options {
    std::string spec;
    std::string out;        // the results folder (default: sweep-<name> beside the spec)
    unsigned jobs = 1;
    bool plots = true;
    bool slurm = false;     // run the points as one Slurm job array instead of locally
    std::string partition;  // its partition (default: the cluster's)
    bool wait = true;       // wait for the array, then write the results (else --collect later)
    std::string collect;    // a results folder whose submitted array to wait for and gather
};

// Returns gpusim's exit code: 0 when every point ran, 1 when one failed (its row says why).
int run(const Options& o);

} // namespace gpusim::sweep
