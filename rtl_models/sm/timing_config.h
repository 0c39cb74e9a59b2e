// The timing parameters of one SM, filled from the GPU config file (docs/config.md lists every
// key with its unit and source): each unit's own config, as the SM composes them.
#pragma once

#include <array>
#include <cstdint>

#include "alu/pipe.h"
#include "barrier/barrier_unit.h"
#include "ccache/constant_cache.h"
#include "isa/op_class.h"
#include "ldst/ldst_unit.h"
#include "scheduler/warp_scheduler.h"
#include "smem/shared_memory.h"
#include "tex/texture_cache.h"

namespace gpusim {

struct TimingConfig {
    bool enabled = false;              // sim.mode == "timing"
    bool skip_idle = true;             // sim.skip_idle_cycles: sleep schedulers that cannot issue
    SchedulerConfig scheduler;
    std::array<PipeConfig, kPipeKinds> pipes{};
    std::array<OpTiming, kOpClasses> ops{};
    SharedMemoryConfig smem;
    ConstantCacheConfig ccache;
    TextureCacheConfig tex;
    LdstConfig ldst;
    BarrierConfig barrier;
};

} // namespace gpusim
