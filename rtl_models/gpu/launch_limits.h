// The chip's limits on a launch configuration, checked in one place: by the compute engine when
// it starts a launch, and by the runtime at the launch call (so that the call returns the error,
// as CUDA's does).
#pragma once

#include <cstdint>
#include <string>

#include "gpu/gpu_config.h"
#include "isa/isa.h"
#include "isa/launch.h"

namespace gpusim {

struct LaunchProblem {
    enum class Kind : uint8_t { None, Configuration, Resources };
    Kind kind = Kind::None;
    std::string why;                 // empty when kind is None
};

// Grid and block dimensions, threads per block, shared memory, and whether one block fits on an
// SM (threads, warps, registers, shared memory of the config).
LaunchProblem check_launch_limits(const GpuConfig& cfg, const std::shared_ptr<const KernelImage>& kernel, Dim3 grid,
                                  Dim3 block, uint32_t dynamic_shared);

} // namespace gpusim
