// One kernel launch as the SMs see it: the decoded kernel, its geometry and its parameter block.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "isa/isa.h"

namespace gpusim {

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t(x) * y * z; }
};

// %envreg0..31: values the driver hands every thread of a launch. The runtime sets %envreg1 (high
// word) and %envreg2 (low word) to the grid workspace of a cooperative launch, where
// cooperative_groups' grid.sync() keeps its barrier; the others are 0.
constexpr int kEnvRegs = 32;
using EnvRegs = std::array<uint32_t, kEnvRegs>;

struct LaunchInfo {
    std::shared_ptr<const KernelImage> kernel;
    Dim3 grid;
    Dim3 block;
    uint32_t dynamic_shared = 0;
    std::vector<uint8_t> params;
    uint32_t grid_id = 0;
    uint32_t num_sms = 1;
    EnvRegs envreg{};
    // Timing mode: the chip cycle from which the first block may run, and the cycles between the
    // arrivals of successive blocks (chip.cta_dispatch_cycles).
    uint64_t first_cta_cycle = 0;
    double cta_interval = 0;

    uint64_t cta_arrival(uint64_t linear_cta) const { return first_cta_cycle + uint64_t(double(linear_cta) * cta_interval); }

    uint32_t threads_per_cta() const { return uint32_t(block.count()); }
    uint32_t warps_per_cta() const { return (threads_per_cta() + kWarpSize - 1) / kWarpSize; }
    uint32_t shared_per_cta() const {
        uint32_t s = kernel->static_shared_bytes;
        if (dynamic_shared) s = (s + kernel->dynamic_shared_align - 1) / kernel->dynamic_shared_align * kernel->dynamic_shared_align + dynamic_shared;
        return s;
    }
};

} // namespace gpusim
