#include "config/config_schema.h"
#include "sm/sm_config.h"

namespace gpusim {

void declare_keys(ConfigSection<SmConfig>& s) {
    using C = SmConfig;
    s.key("max_warps", &C::max_warps, "warps", "Resident warps per SM (occupancy). Also the value of `%nwarpid`.").at_least(1);
    s.key("max_ctas", &C::max_ctas, "CTAs", "Resident CTAs per SM.").at_least(1);
    s.key("max_threads", &C::max_threads, "threads", "Resident threads per SM.");
    s.key("registers", &C::registers, "32-bit registers", "Register file per SM. Used only for occupancy.");
    s.key("max_regs_per_thread", &C::max_regs_per_thread, "registers", "Cap on the per-thread register estimate in the "
          "occupancy formula. A kernel that needs more is not rejected.");
    s.key("register_estimate", &C::register_estimate, "", "What occupancy counts as a kernel's registers per thread. "
          "`declared`: the PTX's virtual registers (64-bit ones count 2), several times what ptxas allocates, since nvcc's PTX "
          "gives every value a register of its own. `live`: the most 32-bit words live at once, from a liveness analysis over "
          "the kernel's control-flow graph (sw/loader/register_pressure.h), close to ptxas's allocation; a kernel that calls "
          "functions keeps the declared count. `cudaFuncGetAttributes` reports the same number.")
        .one_of({"declared", "live"}).or_default("declared");
    s.key("register_floor", &C::register_floor, "registers", "The fewest registers per thread a kernel is given, whatever "
          "the estimate.").or_default(0);
    s.key("register_granularity", &C::register_granularity, "registers", "Registers per thread are allocated in multiples "
          "of this (the estimate is rounded up).").at_least(1).or_default(1);
    s.key("hoist_loads", &C::hoist_loads, "", "Run each kernel with its loads moved up within their basic block, past "
          "the independent arithmetic before them, as ptxas schedules them (sw/loader/load_hoisting.h): a load's latency "
          "then overlaps that arithmetic instead of stalling the in-order issue just before its use. Every thread computes "
          "and reads what it did; only the order of independent instructions changes, so the key moves cycles, not results. "
          "`false` runs the PTX in the order written.").or_default(false);
    s.key("aggregate_atomics", &C::aggregate_atomics, "", "Time an integer atom or red add whose address and operand are the "
          "same in every lane (warp-uniform by the loader's analysis, sw/loader/atomic_aggregation.h) as one lane's "
          "operation, as ptxas aggregates it: one lane adds the warp's sum. Results are unchanged; the key moves cycles. "
          "`false` times every lane's operation.").or_default(false);
    s.key("drain_stores", &C::drain_stores, "", "Timing mode: a warp's exit (`exit`, or `ret` in the kernel's body) waits "
          "until its memory accesses have completed (the L2's acknowledgements of its stores and atomics among them), as a fence does, so a kernel lasts until its writes have "
          "landed and the L2's write ports (`l2.slice_write_bytes`) bound a stream of stores. `false`: stores are posted and "
          "a warp exits at once.").or_default(false);
    s.key("shared_bytes", &C::shared_bytes, "bytes", "Shared memory per SM (occupancy).");
    s.key("warp_schedulers", &C::warp_schedulers, "schedulers", "Warp schedulers per SM. Timing mode: warp slot k belongs to "
          "scheduler k mod n (Fermi's odd/even split), each with its own copy of the `per_scheduler` pipes. Functional mode: "
          "cycles = ceil(issue slots / warp_schedulers).").at_least(1);
    s.key("stack_bytes", &C::stack_bytes, "bytes per thread", "Call stack of a kernel whose calls can recurse (directly, "
          "mutually or through function pointers): local memory above the kernel's own frame, where each activation's frame "
          "(parameters, return values, local arrays) goes. A call that does not fit faults with a stack overflow naming the "
          "function and call depth. Kernels without recursion get exactly the deepest call chain and ignore this key.");
    s.key("try_wait_suspend", &C::try_wait_suspend, "core cycles", "Timing mode: how long a warp whose `mbarrier.try_wait` "
          "finds its phase incomplete is suspended before the instruction returns false. PTX leaves this time limit to the "
          "implementation (the suspend-time hint is a bound on it); a warp that spins without one could keep a greedy "
          "scheduler from ever issuing the warp it waits for. The value is a model choice, not a measurement. Functional mode "
          "returns at once.").or_default(32);
}

void declare_run_keys(ConfigSection<SmConfig>& s) {
    using C = SmConfig;
    s.converted<std::string>("mode", [](C& c, const std::string& v) { c.timing.enabled = v == "timing"; }, "name",
                             "`\"timing\"` runs the cycle-approximate model ([timing.md](timing.md)), `\"functional\"` the "
                             "fastest, without timing; `--mode` sets it from the command line. Both compute the same results.")
        .one_of({"functional", "timing"}).or_default("functional");
    s.key("contraction", &C::contraction, "", "Both modes: how the loader treats a multiply and the add that reads its product. "
          "`ptxas` fuses them into one fused multiply-add (FFMA, DFMA, HFMA2, rounded once) where ptxas does, by the rules "
          "measured on the H200 and listed in [ptx.md](ptx.md#contraction): products of mul.f32, .f64, .f16, .f16x2, .bf16 and .bf16x2, and "
          "of div.approx and div.full, without a rounding modifier, read only by adds of the same .ftz in their basic block. "
          "Results then match the GPU's in the last bit, and the pair issues as one instruction. `none` runs the PTX as "
          "written, each operation rounded (what `nvcc -fmad=false` would ask of ptxas).")
        .one_of({"ptxas", "none"}).or_default("ptxas");
    s.key("warp_slice", &C::warp_slice, "warp instructions", "Functional mode: how many instructions one warp runs before the "
          "SM's round-robin moves to the next warp (earlier if it reaches a barrier or finishes). It changes the interleaving "
          "of warps, and so the order of atomics; through the point where CTAs finish, it can also shift which SM runs which "
          "CTA. The total instruction count and the results of race-free kernels stay the same.").at_least(1).or_default(64);
    s.converted<bool>("skip_idle_cycles", [](C& c, const bool& v) { c.timing.skip_idle = v; }, "",
                      "Timing mode: a warp scheduler that finds nothing to issue sleeps until the earliest cycle one of its "
                      "warps could issue, and the SM jumps over cycles in which every scheduler sleeps (never past the end of "
                      "its quantum). `false` checks every warp of every scheduler in full, every cycle. The results are the "
                      "same either way (`timing.skip_idle.*` tests it); only the speed differs.").or_default(true);
    s.key("max_cycles", &C::max_cycles, "core cycles", "The watchdog: a launch that runs longer than this on an SM (in "
          "functional mode the SM's issue slots divided by `sm.warp_schedulers`) is stopped with a timeout fault "
          "(`cudaErrorLaunchTimeout` in the runtime library). The report names every live warp of the SM, its instruction and "
          "PTX line, and what it waits for: a barrier, an operand, or nothing (a spin loop). 0 turns the watchdog off. The "
          "default lets a kernel run hours of host time before it stops.").or_default(10000000000ull);
    s.key("timeout_seconds", &C::timeout_seconds, "host seconds", "The same watchdog on host time: a launch still running this "
          "long after it began on an SM is stopped with the same report. 0 turns it off. `gpusim run --timeout S` sets it; the "
          "runtime library takes `GPUSIM_SET=sim.timeout_seconds=S`. Unlike every other key, it can make a run's outcome depend "
          "on the host's speed, so it is meant as a safety net for CI, not for results.").at_least(0).or_default(0);
}

void check_bank_arbiter(const SharedMemoryConfig& c, std::vector<std::string>& p) {
    if (c.impl != "rtl") return;
#ifndef GPUSIM_HAVE_RTL
    p.push_back("smem.impl 'rtl': this build has no RTL twin (Verilator 5 was not found when it was configured; setup.sh installs it)");
#endif
    // The RTL covers the bank geometries of the four generations (rtl_models/rtl/smem_bank_arbiter.sv).
    if (!(c.interleave_bytes == 4 && (c.banks == 16 || c.banks == 32) && (c.bank_width_bytes == 4 || c.bank_width_bytes == 8) &&
          (c.max_group_threads == 16 || c.max_group_threads == 32)))
        p.push_back("smem.impl 'rtl' needs smem.interleave_bytes 4, smem.banks 16 or 32, smem.bank_width_bytes 4 or 8 and "
                    "smem.max_group_threads 16 or 32");
    // cc 1.x's rules come with its 4-byte banks only.
    if (c.bank_width_bytes != 4 && (c.single_broadcast || c.split_wide))
        p.push_back("smem.impl 'rtl': smem.single_broadcast and smem.split_wide (cc 1.x) need smem.bank_width_bytes 4");
}

} // namespace gpusim
