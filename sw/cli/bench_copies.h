// gpusim bench's copy table: how many bytes per host second the runtime's copies and fills move,
// each kind into memory never touched before and into memory already touched
// (docs/manifest.md#gpusim-bench-manifest). The simulated time of a copy is the model's; this is
// the host's cost of it, which a program at its real size feels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_config.h"

namespace gpusim {

struct CopyRate {
    std::string kind;            // "host to device, pageable" ...
    double fresh_gb_s = 0;       // into a destination never touched (GB/s, 1e9 bytes a second)
    double touched_gb_s = 0;     // the same copy again, into the same destination
};

// Runs every kind of copy of `bytes` once into fresh memory and once more into the same memory,
// each through the runtime's own calls and waiting for its completion. Builds a Runtime: call it
// in a process that has none (SystemC elaborates once per process).
std::vector<CopyRate> measure_copies(const GpuConfig& cfg, uint64_t bytes);

// The same in a child process, so that the caller may build its own Runtime; empty when it failed
// (the child says why on stderr).
std::vector<CopyRate> measure_copies_apart(const GpuConfig& cfg, uint64_t bytes);

void print_copy_table(const std::vector<CopyRate>& rates, uint64_t bytes);

} // namespace gpusim
