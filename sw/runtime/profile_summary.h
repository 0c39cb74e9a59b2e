// The text a user reads first after a timing run: per kernel, in the spirit of Nsight Compute's
// "Speed of Light" and "Warp State" sections, from the launches' KernelProfiles
// (docs/profiling.md explains every line).
#pragma once

#include <string>
#include <vector>

#include "gpu/kernel_profile.h"

namespace gpusim {

// One profile per kernel name, summing its launches, in the order the kernels first ran.
std::vector<KernelProfile> profiles_by_kernel(const std::vector<KernelProfile>& launches);

// The summary of one (summed) kernel, a few lines ending in a newline.
std::string profile_summary(const KernelProfile& p);

// Summaries of every kernel, the slowest first; at most `limit` kernels, a line says how many more.
std::string profile_summaries(const std::vector<KernelProfile>& launches, size_t limit = 10);

} // namespace gpusim
