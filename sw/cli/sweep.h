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
};

// Returns gpusim's exit code: 0 when every point ran, 1 when one failed (its row says why).
int run(const Options& o);

} // namespace gpusim::sweep
