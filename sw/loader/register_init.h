// Which register rows a warp of a kernel must find at zero when it starts. PTX leaves a read of a
// register the thread never wrote undefined; the model has always given 0 there and keeps doing
// so, but clearing every row of every warp costs as much as running a short kernel. So only the
// rows some thread may read before writing them are cleared: a must-define analysis over the
// kernel's control-flow graph finds, at each instruction, the rows every path from the entry has
// written unconditionally, and a read of any other row marks it.
#pragma once

#include <vector>

#include "isa/isa.h"
#include "loader/cfg.h"

namespace gpusim::loader {

// Sets img.zero_rows (and img.zero_all_rows) for a kernel whose code [0, flow.size()) is the
// kernel body alone. An image with called functions keeps clearing every row.
void find_rows_to_zero(KernelImage& img, const std::vector<Flow>& flow);

} // namespace gpusim::loader
