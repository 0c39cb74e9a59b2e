// The units an SM uses in timing mode: warp schedulers, pipes, shared memory banks, constant
// cache and the LD/ST unit's memory path. Built from the config when sim.mode is "timing"; as
// sc_modules they sit in the SM's hierarchy (gpu.sm0.sched0, gpu.sm0.alu, gpu.sm0.smem ...).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "alu/pipe.h"
#include "ccache/constant_cache.h"
#include "ldst/ldst_unit.h"
#include "protocol/memory_request.h"
#include "scheduler/warp_scheduler.h"
#include "sm/sm_config.h"
#include "smem/shared_memory.h"
#include "tex/texture_cache.h"

namespace gpusim {

// The bank arbiter that shared memory hands its accesses to: the verilated RTL twin where
// smem.impl is "rtl" (with its signals in smem.rtl_vcd where `trace`), none for the unit's own
// rules (sm_timing.cpp).
std::unique_ptr<SmemArbiter> bank_arbiter(const SharedMemoryConfig& cfg, bool trace);

struct TimingUnits {
    // `l2` receives the LD/ST unit's requests.
    TimingUnits(const SmConfig& cfg, uint32_t smid, MemoryRequestTarget* l2);

    const TimingConfig& cfg;
    std::vector<std::unique_ptr<WarpScheduler>> schedulers;
    std::array<std::unique_ptr<Pipe>, kPipeKinds> pipes;
    SharedMemory smem;
    ConstantCache ccache;
    TextureCache tex;
    LdstUnit ldst;
    uint64_t now = 0;                     // the cycle being scheduled

    Pipe& pipe(PipeKind k) { return *pipes[int(k)]; }
};

} // namespace gpusim
