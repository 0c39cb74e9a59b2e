// The SM parameters: its own (residency, schedulers, the watchdog) and those of the units it
// composes; filled from the GPU config file (docs/config.md).
#pragma once

#include <cstdint>
#include <string>

#include "check/allocation_map.h"
#include "ldst/store_buffer.h"
#include "sfu/sfu_ops.h"
#include "sm/timing_config.h"

namespace gpusim {

struct SmConfig {
    uint32_t max_warps = 48;             // resident warps per SM
    uint32_t max_ctas = 8;               // resident CTAs per SM
    uint32_t max_threads = 1536;         // resident threads per SM
    uint32_t registers = 32768;          // 32-bit registers per SM
    uint32_t max_regs_per_thread = 63;
    // How occupancy counts a kernel's registers: the PTX's virtual registers ("declared") or the
    // most live at once ("live"), at least `register_floor`, rounded up to `register_granularity`.
    std::string register_estimate = "declared";
    uint32_t register_floor = 0;
    uint32_t register_granularity = 1;
    bool hoist_loads = false;            // the loader issues loads as early as ptxas would (load_hoisting.h)
    bool aggregate_atomics = false;      // warp-uniform atomic adds timed as one lane's (atomic_aggregation.h)
    std::string contraction = "ptxas";   // multiply/add pairs fused as ptxas fuses them (loader/contraction.h), or "none"
    bool drain_stores = false;           // timing mode: a warp exits once the L2 has acknowledged its stores
    uint32_t shared_bytes = 49152;       // shared memory per SM
    uint32_t warp_schedulers = 2;        // warp instructions issued per cycle
    uint32_t stack_bytes = 1024;         // per-thread call stack for recursive kernels
    uint32_t try_wait_suspend = 32;      // timing mode: cycles a failing mbarrier.try_wait suspends its warp
    uint32_t warp_slice = 64;            // instructions a warp runs before the next warp's turn
    uint64_t max_cycles = 0;             // sim.max_cycles: the watchdog's limit per launch, 0 for none
    double timeout_seconds = 0;          // sim.timeout_seconds: host seconds per launch, 0 for none
    SfuConfig sfu;                       // sfu.approx
    CheckConfig checks;                  // sim.memcheck, sim.racecheck ...
    StoreBufferConfig stores;            // sim.memory_model, sim.memory_seed, sim.store_*: the relaxed model
    TimingConfig timing;                 // timing mode: units, pipes, latencies
};

// The keys sm.* (sm_keys.cpp).
void declare_keys(ConfigSection<SmConfig>& s);
// The keys of how the SM runs: sim.mode, sim.skip_idle_cycles, sim.warp_slice, sim.max_cycles
// and sim.timeout_seconds (sm_keys.cpp).
void declare_run_keys(ConfigSection<SmConfig>& s);
// A check of smem.impl "rtl" against what this build and the RTL twin offer.
void check_bank_arbiter(const SharedMemoryConfig& c, std::vector<std::string>& problems);

} // namespace gpusim
