// The SM parameters the functional core needs; filled from the GPU config file.
#pragma once

#include <cstdint>

#include "ldst/store_buffer.h"
#include "sm/timing_config.h"

namespace gpusim {

struct SmConfig {
    uint32_t max_warps = 48;             // resident warps per SM
    uint32_t max_ctas = 8;               // resident CTAs per SM
    uint32_t max_threads = 1536;         // resident threads per SM
    uint32_t registers = 32768;          // 32-bit registers per SM
    uint32_t max_regs_per_thread = 63;
    uint32_t shared_bytes = 49152;       // shared memory per SM
    uint32_t warp_schedulers = 2;        // warp instructions issued per cycle
    uint32_t stack_bytes = 1024;         // per-thread call stack for recursive kernels
    uint32_t warp_slice = 64;            // instructions a warp runs before the next warp's turn
    uint64_t max_cycles = 0;             // sim.max_cycles: the watchdog's limit per launch, 0 for none
    double timeout_seconds = 0;          // sim.timeout_seconds: host seconds per launch, 0 for none
    bool sfu_ideal = false;              // sfu.approx == "ideal": correctly rounded, not the GPU's bits
    bool memcheck = false;               // sim.memcheck: global accesses checked against exact allocation bounds
    bool racecheck = false;              // sim.racecheck: shared and global races reported
    uint64_t racecheck_shadow_mib = 4096;   // sim.racecheck_shadow_mib: host memory for the global shadow
    bool relaxed = false;                // sim.memory_model == "relaxed": global stores through a store buffer
    StoreBufferConfig stores;            // sim.memory_seed, sim.store_*: the relaxed model's store buffer
    TimingConfig timing;                 // timing mode: units, pipes, latencies
};

} // namespace gpusim
