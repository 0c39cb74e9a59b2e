// The units an SM uses in timing mode: warp schedulers, pipes, shared memory banks, constant
// cache and the LD/ST unit's memory path. Built from the config when sim.mode is "timing"; as
// sc_modules they sit in the SM's hierarchy (gpu.sm0.sched0, gpu.sm0.alu, gpu.sm0.smem ...).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "alu/pipe.h"
#include "ccache/constant_cache.h"
#include "dram/dram_controller.h"
#include "gpu/l2_cache.h"
#include "ldst/ldst_unit.h"
#include "scheduler/warp_scheduler.h"
#include "sm/sm_config.h"
#include "smem/shared_memory.h"
#include "tex/texture_cache.h"

namespace gpusim {

struct TimingUnits {
    TimingUnits(const SmConfig& cfg, uint32_t smid, L2Cache* chip_l2);

    const TimingConfig& cfg;
    std::vector<std::unique_ptr<WarpScheduler>> schedulers;
    std::array<std::unique_ptr<Pipe>, kPipeKinds> pipes;
    SharedMemory smem;
    ConstantCache ccache;
    TextureCache tex;
    std::unique_ptr<DramController> own_dram;   // when the SM runs without a chip around it,
    std::unique_ptr<L2Cache> own_l2;            // its LD/ST unit gets an L2 and device memory of its own
    LdstUnit ldst;
    uint64_t now = 0;                     // the cycle being scheduled

    Pipe& pipe(PipeKind k) { return *pipes[int(k)]; }
};

} // namespace gpusim
