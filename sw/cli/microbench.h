// `gpusim microbench`: runs the timing microbenchmarks (regress/microbench/) under each GPU config,
// puts each figure beside the published one and checks it within the stated tolerance.
#pragma once

#include <string>
#include <vector>

namespace gpusim {

// Returns 0 when every checked figure is within tolerance. `configs` empty: every config the
// suite names. With `table`, also writes the results as a Markdown table to that file.
// `sets` are key=value config overrides applied to every config.
int run_microbench(const std::string& suite, const std::vector<std::string>& configs, const std::vector<std::string>& sets,
                   const std::string& table);

} // namespace gpusim
