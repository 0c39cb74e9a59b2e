// How many registers a thread of a kernel needs, estimated as ptxas would allocate them. nvcc's
// PTX gives every value a virtual register of its own, so their count (KernelImage::
// regs_per_thread) is several times what ptxas allocates; ptxas gives registers to the values
// live at once. A liveness analysis over the kernel's control-flow graph finds the most 32-bit
// words live at any instruction: the estimate a config may choose for occupancy
// (`sm.register_estimate`, docs/config.md).
#pragma once

#include <cstdint>
#include <vector>

#include "isa/isa.h"
#include "loader/cfg.h"

namespace gpusim::loader {

// The most 32-bit register words live at once in the kernel body [0, flow.size()): at each
// instruction, what is live after it and what it writes. `row_words` gives each row's width in
// words (rows past its end count 1). 0 for an image with called functions (not analysed).
uint32_t most_live_words(const KernelImage& img, const std::vector<Flow>& flow, const std::vector<uint8_t>& row_words);

} // namespace gpusim::loader
