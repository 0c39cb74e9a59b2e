// What one kernel launch did, reduced to the counters its performance metrics need: the difference
// of the GPU's statistics (Gpu::report) after and before the launch, summed over the SMs. Profiles
// of one kernel's launches add up, and the metrics (IPC, occupancy, where the issue slots went,
// unit utilisation, memory efficiency, cache hit rates, DRAM bandwidth) come from the sums, so a
// kernel launched a thousand times gets the same metrics as one launch doing all the work.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "scheduler/warp_scheduler.h"
#include "isa/launch.h"
#include "isa/op_class.h"

namespace gpusim {

struct KernelProfile {
    static constexpr int kStalls = int(WarpScheduler::Stall::Count);

    std::string kernel;
    uint32_t launches = 1;
    Dim3 grid, block;                 // of the (first) launch
    double start_ns = 0, end_ns = 0;  // simulated time, first launch's start to last launch's end
    bool timing = false;              // timing-mode units were present (else only instructions)
    bool faulted = false;
    bool projected = false;           // kernel sampling: cycles and counters projected, not simulated

    // Whole chip.
    uint64_t cycles = 0;              // the launch's own cycles (summed over launches)
    uint64_t warp_instructions = 0, thread_instructions = 0;
    double sm_cycles = 0;             // SM cycles with blocks resident, summed over SMs
    double sm_slots_per_cycle = 0;    // issue slots per cycle of the chip: schedulers x dispatch width
    double sms = 0;
    // Issue slots: issued, and each Stall reason; slots of SMs idle during the launch count as NoWarp.
    double issued = 0;
    std::array<double, kStalls> stalls{};
    double resident_warp_cycles = 0;
    double max_warps = 0;             // per SM
    double launch_warps = 0;          // per SM, the launch's theoretical occupancy
    std::array<double, kPipeKinds> pipe_busy{};     // cycles, summed over copies and SMs
    std::array<double, kPipeKinds> pipe_copies{};   // copies, summed over SMs
    double smem_passes = 0, smem_conflict_passes = 0;
    double transactions = 0, ideal_transactions = 0;
    double l1_hits = 0, l1_misses = 0, l2_hits = 0, l2_misses = 0;
    double const_hits = 0, const_misses = 0, tex_hits = 0, tex_misses = 0;
    double dram_bytes = 0;
    double dram_peak_gb_s = 0, cycle_ns = 1;

    // The counters of a GPU statistics document (Gpu::report), as they stand at that moment.
    static KernelProfile counters_of(const nlohmann::json& report);
    // after - before, for the launch between them; the properties (copies, widths) are after's.
    // The caller fills in what the report does not hold (the kernel, its cycles and instructions),
    // then calls count_idle_slots.
    static KernelProfile between(const KernelProfile& before, const KernelProfile& after);
    // Slots of the launch's cycles that no scheduler accounted for (its SM had no block left)
    // count as NoWarp.
    void count_idle_slots();

    double total_slots() const { return double(cycles) * sm_slots_per_cycle; }
    // Kernel sampling: every counter times `f` (a group's profile for one of its projected launches).
    void scale(double f);
    // Adds another launch (of the same kernel, for a per-kernel summary).
    void add(const KernelProfile& other);
    // The metrics, as the statistics file holds them (docs/profiling.md).
    nlohmann::json metrics() const;
};

} // namespace gpusim
