// Functional mode's launches: the SMs run quantum by quantum on a pool of host threads
// (sim.threads), with results that do not depend on how many there are
// (docs/architecture.md#host-threads).
//
// A quantum of sim.quantum_cycles goes in rounds:
//   1. Every SM that has blocks and issue slots left runs on its own, on some host thread, until
//      it has spent the quantum's slots or has nothing it may run. A warp that reaches an
//      instruction ordering with other SMs (sw/loader/ordering.h: an atomic whose old value is
//      read, a strong access, a device-runtime call, an access to the host's memory) parks in
//      front of it; the SM's other warps go on. An SM starts the blocks set aside for it as
//      its slots free up.
//   2. Then the SMs take their turns, in SM order: each parked warp issues its instruction; an
//      SM that ran out of blocks sets aside more from the grid.
// until every SM has spent the quantum or has nothing left to run. SystemC time then moves on by
// what the busiest SM used, and at the quantum's boundary each SM, in order, tops up its blocks.
//
// How many blocks an SM sets aside depends only on what it did before (how many blocks it
// started in the quantum so far, or in the last), never on the host threads, and near the
// grid's end the rest is shared out evenly.
//
// Timing mode goes in rounds too, with cycles instead of issue slots: on its own, an SM runs until
// the end of the quantum, or its horizon, or a cycle in which a warp stood at an instruction that
// orders with other SMs (SmCore::step_apart). Its requests beyond the SM (the L2, device memory)
// wait, written down, and its horizon is the first cycle in which their latencies could matter.
// In its turn the SM's requests reach the L2 in the order it made them, and the latencies go into
// its scoreboards; then a waiting warp issues. The L2 and device memory thus see each round's
// requests SM by SM, whatever the threads. On several threads the rounds overlap: an SM's turn
// waits only for its own part apart and the turn before it, so the turns go on, one at a time in
// the same order, while other SMs run apart (sm_cluster_overlap.cpp), unless the kernel has
// reductions apart that its ordered instructions might read (KernelImage::reductions_meet_ordered):
// a turn then could see a reduction of a later round.
//
// A program without data races between blocks computes the same, with the same statistics, on 1
// thread and on N: an SM on its own touches only its own state and memory that no other SM
// writes meanwhile, integer reductions whose results nobody reads commute, and everything else
// that orders SMs happens in SM order. Plain accesses that race between SMs may see either value
// when SMs run on several threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu/cta_dispatcher.h"
#include "gpu/host_threads.h"
#include "gpu/progress_meter.h"
#include "ldst/stale_log.h"
#include "isa/launch.h"
#include "sm/register_arena.h"
#include "sm/sm.h"

namespace gpusim {

class SmCluster {
public:
    // `threads`: host threads in all (the simulation's own included); 1 runs everything in it.
    SmCluster(std::vector<Sm*>& sms, uint32_t threads, uint64_t quantum_cycles, uint32_t schedulers, sc_core::sc_time cycle, bool timing);

    uint32_t threads() const { return m_pool.size(); }
    // The run's progress line (may be null), ticked after each quantum.
    void set_progress(ProgressMeter* p) { m_progress = p; }
    // Runs `launch` from its first block to its last, from within a SystemC process (it waits as
    // simulated time passes). A fault stops the launch at the end of the round it happened in:
    // the first faulting SM's fault goes to the dispatcher. `one_thread` keeps every SM on the
    // caller's thread (the race detector follows one interleaving).
    void run(const LaunchInfo& launch, CtaDispatcher& dispatcher, bool one_thread);
    // Kernel sampling: whether the next launches run in timing mode (the SMs were built for it);
    // whether a launch run without it hands the lines it touched to the L2 after each quantum; and
    // whether its quanta leave simulated time where it was (`projected`: the caller moves it on by
    // the projected cycles once the launch is done).
    void set_mode(bool timing, bool warm_l2, bool projected) {
        m_timing = timing;
        m_warm = warm_l2 && !timing;
        m_projected = projected && !timing;
    }

private:
    // What an SM did in the current quantum.
    struct Turn {
        uint64_t slots_left = 0;     // issue slots not yet used
        uint64_t start_cycle = 0;    // its cycle when the quantum began
        uint64_t started = 0;        // blocks it had started when the quantum began
        std::exception_ptr error;    // what stopped it (a KernelFault, or worse)
        uint64_t piece = 0;          // the issue slots of each piece of its round (run_apart)
        bool stopped_short = false;  // a piece of this round issued less than its slots
        std::atomic<uint32_t> pieces_done{0};
    };
    static constexpr uint32_t kPieces = 4;   // pieces per SM and round on several host threads
    // Full loads of blocks each SM has (resident and set aside) when a launch begins: an SM that
    // runs out within a quantum costs a round, and at first nothing says how long a block runs.
    static constexpr uint32_t kFirstLoads = 4;
    std::vector<Sm*>& m_sms;
    HostThreads m_pool;
    std::unique_ptr<StaleLog> m_stale;   // the relaxed memory model's late invalidations
    RegisterArena m_registers;           // every SM's warp registers, shared out at each launch
    uint64_t m_quantum;
    uint32_t m_schedulers;
    sc_core::sc_time m_cycle;
    std::vector<Turn> m_turns;
    bool m_timing;
    bool m_warm = false;
    bool m_projected = false;
    ProgressMeter* m_progress = nullptr;

    uint64_t even_share(const CtaDispatcher& d) const;
    void set_aside(size_t k, uint64_t want, CtaDispatcher& d);
    void begin_quantum();
    template <class F>
    void guarded(size_t k, F&& f);
    bool run_quantum(CtaDispatcher& d, bool one_thread);
    bool run_timed_quantum(CtaDispatcher& d, bool one_thread);
    // Timing mode on several threads: the same turns, in the same order, as run_timed_quantum,
    // while the other SMs run apart (sm_cluster_overlap.cpp).
    struct Overlap;
    bool run_overlapped_quantum(CtaDispatcher& d);
    void overlap_work(Overlap& o, CtaDispatcher& d);
    void overlap_turns(Overlap& o, CtaDispatcher& d);
    void finish_round_after_fault(Overlap& o);
    // Timing mode: whether SM k has work and cycles left in the quantum; its part apart.
    bool runnable_in_quantum(size_t k) const;
    void step_apart(size_t k);
    // Timing mode, SM k's turn: room the SM has left takes blocks from the grid, and up to a full
    // load more (at most `share`) is set aside.
    void end_memory_round();
    void settle_memory();
    void lend_registers(const LaunchInfo& launch);
    void top_up(size_t k, uint64_t share, CtaDispatcher& d);
    void run_apart(const std::vector<size_t>& runnable, bool one_thread);
    bool stopped(const std::vector<size_t>& sms, CtaDispatcher& d) const;
};

} // namespace gpusim
