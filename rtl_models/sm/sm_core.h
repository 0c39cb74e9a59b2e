// The functional heart of an SM: resident CTAs, their warps and barriers, and the loop that issues
// warp instructions. Plain C++ so it can be tested and benchmarked without a running simulation;
// the Sm module wraps it with sockets and time.
#pragma once

#include <chrono>
#include <deque>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <memory>

#include <nlohmann/json.hpp>

#include "barrier/barrier_unit.h"
#include "clock/clock_unit.h"
#include "protocol/memory_request.h"
#include "isa/memory_view.h"
#include "ldst/store_buffer.h"
#include "isa/exec_context.h"
#include "isa/launch.h"
#include "sm/register_arena.h"
#include "sm/scoreboard_map.h"
#include "sm/sm_config.h"
#include "isa/warp.h"
#include "trace/trace_recorder.h"
#include "trace/vcd_recorder.h"

namespace gpusim {

// A run-time fault of a kernel, with the kernel, block, thread and instruction named, and its
// kind (which CUDA error the runtime reports).
class KernelFault : public std::runtime_error {
public:
    explicit KernelFault(const std::string& what, FaultKind kind = FaultKind::Exec) : std::runtime_error(what), m_kind(kind) {}
    FaultKind kind() const { return m_kind; }

private:
    FaultKind m_kind;
};

struct SmStats {
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    uint64_t ctas_completed = 0;
    uint64_t barrier_waits = 0;
    uint64_t pm_events[kPmCounters] = {};   // pmevent triggers, counted once per warp
    uint64_t by_class[kOpClasses] = {};      // warp instructions issued per timing class
    uint64_t resident_warp_cycles = 0;       // timing mode: resident warps summed over cycles
};

struct TimingUnits;

class SmCore {
public:
    // In timing mode the LD/ST unit's memory socket is bound to `l2`: the chip's L2, or what a
    // testbench gives an SM on its own (testbench/common/memory_system.h). Functional mode needs none.
    SmCore(const SmConfig& cfg, uint32_t smid, MemoryView& memory, MemoryRequestTarget* l2 = nullptr);
    ~SmCore();
    // The device heap and printf output that device runtime calls use.
    void set_services(DeviceServices* s) { m_ctx.services = s; }
    // The checks: the allocation map names the allocation near a faulting address, and bounds
    // every global access when `memcheck`; `racecheck` (may be null) sees every shared and global
    // access, barrier and fence.
    void set_checks(const AllocationMap* allocations, bool memcheck, RaceCheck* racecheck) {
        m_ctx.allocations = allocations;
        m_ctx.memcheck = memcheck && allocations;
        m_ctx.racecheck = racecheck;
    }

    // The timeline (may be null): each block becomes a span on its SM's track for its slot.
    void set_trace(TraceRecorder* t) { m_trace = t; }
    TraceRecorder* trace() const { return m_trace; }
    // The chip-time nanosecond of the SM's current cycle (for the timeline).
    double now_ns() const;
    // Timing mode: declares the SM's waveform signals, named `prefix` + "issued" (warp instructions
    // issued per cycle), "active_warps", "blocks" and its L1's "l1.queue".
    void record_signals(VcdRecorder& vcd, const std::string& prefix);
    // Whether any of the SM's own signals is recorded (the recorder takes changes from one thread).
    bool records_signals() const { return m_signals.issued || m_signals.warps || m_signals.blocks; }
    uint32_t live_warps() const { return m_live_warps; }
    uint32_t smid() const { return m_smid; }

    void begin_launch(const LaunchInfo* launch);
    // The 64-bit words of warp registers the SM uses for `l`. SmCluster lends each SM its share of
    // a chip-wide RegisterArena for the next begin_launch; without one the SM uses its own arena.
    size_t register_words(const LaunchInfo& l) const;
    void lend_registers(uint64_t* share) { m_lent_registers = share; }
    bool can_accept_cta() const;
    void add_cta(uint64_t linear_cta);
    bool idle() const { return m_resident == 0; }

    // Issues up to `budget` warp instructions over the resident warps; returns how many were issued.
    // Throws KernelFault on an access fault or a barrier deadlock. A step that ends on its budget
    // resumes where it stopped, within a warp's slice: steps of b1 and b2 slots issue what one of
    // b1 + b2 would. With `apart` (functional mode on host threads, SmCluster) a warp that reaches
    // an instruction ordering with other SMs parks in front of it, and the others go on; the step
    // also ends when every warp left waits on one.
    uint64_t step(uint64_t budget, bool apart = false);
    // Throws KernelFault once the launch has run past sim.max_cycles or sim.timeout_seconds.
    void check_watchdog() const;
    // The SM's turn: each parked warp, in slot order, issues the instruction it waits at. Returns
    // how many were issued.
    uint64_t run_parked();
    bool parked() const { return m_parked > 0; }
    // Blocks set aside for the SM (functional mode): it starts them, in order, as slots free up
    // (and at the start of each step()).
    void reserve_cta(uint64_t linear_cta) { m_reserve.push_back(linear_cta); }
    size_t reserved() const { return m_reserve.size(); }
    // Blocks resident or set aside.
    bool has_work() const { return m_resident > 0 || !m_reserve.empty(); }
    uint32_t cta_limit() const { return m_limit; }
    // Blocks the SM has started in this launch.
    uint64_t ctas_started() const { return m_stats.ctas_completed + m_resident; }
    // Timing mode: issues warp instructions cycle by cycle until the SM's clock reaches `cycle` or
    // no CTA is left; returns how many were issued. Throws KernelFault like step().
    uint64_t step_until(uint64_t cycle);
    bool timing() const { return m_units != nullptr; }
    // Kernel sampling (gpu/kernel_sampler.h): whether the next launch runs in timing mode, on an SM
    // built for it; one that does not records the global-memory lines it touches, at
    // `warm_line_bytes`, and warm_l2() hands them to the L2 without timing them.
    void set_detailed(bool detailed, uint32_t warm_line_bytes);
    void warm_l2();
    // Timing mode on host threads (SmCluster): step_until on the SM's own, as far as it can go
    // without the other SMs. Requests beyond the SM wait to be priced (LdstUnit's deferred mode)
    // and the step ends at the SM's horizon, before any cycle in which their latencies could
    // matter; it also ends after a cycle in which a warp stood at an instruction that orders with
    // other SMs (it waits for the SM's turn). Returns how many were issued.
    uint64_t step_apart(uint64_t cycle);
    // The SM's turn, in SM order: prices what step_apart wrote down; then, when a warp waits for
    // it, runs one cycle in which the instructions ordering with other SMs may issue (unless the
    // SM has reached `until`: the next turn runs it).
    uint64_t take_turn(uint64_t until);
    // Whether the grid still has blocks for the SM to take in its turn (step_apart then stops when
    // it has room and none set aside).
    void set_wants_blocks(bool more) { m_wants_blocks = more; }
    // Whether other SMs may run apart while this one takes its turn (ExecContext::reductions_atomic).
    void set_turns_overlap(bool on) { m_ctx.reductions_atomic = on; }

    // Drops every resident CTA (after a fault elsewhere).
    void abort();
    // The relaxed memory model (sim.memory_model=relaxed): at the end of a round (chip cycle
    // `now`) the SM's buffered stores due by then reach memory.
    void end_memory_round(uint64_t now) {
        if (m_stores) m_stores->end_round(now);
    }
    // The chip-wide cycle of the SM's current one.
    uint64_t chip_cycle() const;
    StoreBuffer* store_buffer() { return m_stores.get(); }

    uint64_t cycles() const { return m_clock.cycles(); }
    void set_time_ns(uint64_t ns) { m_ctx.time_ns = ns; }
    // The chip-wide cycle that the SM's current cycle corresponds to (its local time), so that
    // shared resources (device memory channels) see all SMs on one time base.
    void set_chip_cycle(uint64_t chip) {
        m_chip_offset = int64_t(chip) - int64_t(m_clock.cycles());
        if (m_stores) m_stores->set_chip_offset(m_chip_offset);
    }
    SmStats stats() const;
    // Every unit's statistics, keyed by the unit's name within the SM.
    void report(nlohmann::json& out) const;
    static uint32_t occupancy_limit(const SmConfig& cfg, const LaunchInfo& launch);
    // The registers per thread occupancy counts for a kernel (sm.register_estimate).
    static uint32_t registers_per_thread(const SmConfig& cfg, const KernelImage& kernel);

private:
    struct Cta {
        bool in_use = false;
        uint64_t linear_id = 0;
        uint32_t ctaid[3] = {0, 0, 0};
        uint32_t first_warp = 0;
        uint32_t num_warps = 0;
        uint32_t live_warps = 0;
        double started_ns = 0;          // when it became resident (for the timeline)
        std::vector<uint8_t> shared;
    };

    SmConfig m_cfg;
    uint32_t m_smid;
    MemoryView& m_mem;
    const LaunchInfo* m_launch = nullptr;
    uint64_t m_launch_cycle = 0;        // the SM's cycle when the launch began, for the watchdog
    std::chrono::steady_clock::time_point m_launch_time;  // and the host's time
    ExecContext m_ctx;
    std::vector<Cta> m_ctas;
    std::vector<Warp> m_warps;          // warp slots; a CTA owns a contiguous range
    RegisterArena m_own_registers;      // the warps' registers, unless the launch lent a share
    uint64_t* m_lent_registers = nullptr;
    std::vector<bool> m_warp_used;
    uint32_t m_resident = 0;
    uint32_t m_live_warps = 0;          // warps of the resident CTAs that have not exited
    uint32_t m_limit = 0;
    uint32_t m_next_warp = 0;           // round-robin position
    // Where functional mode's issue loop stands in its sweep over the warp slots (step()).
    struct Sweep {
        uint32_t pos = 0;               // slots already visited, from m_next_warp on
        uint64_t slice_left = 0;        // what the warp at `pos` has left of its slice (0: a new one)
        bool progressed = false;        // whether anything moved in the sweep so far
    } m_sweep;
    uint32_t m_parked = 0;              // warps in State::Parked
    std::deque<uint64_t> m_reserve;     // blocks set aside for the SM, not started yet
    uint64_t m_age = 0;                 // order in which warps arrived, for oldest-first scheduling
    SmStats m_stats;
    BarrierUnit m_barrier;
    ClockUnit m_clock;
    std::unique_ptr<TimingUnits> m_timing_units;   // built in timing mode
    TimingUnits* m_units = nullptr;         // the launch runs in timing mode (kernel sampling may run one without)
    // Kernel sampling's warming: the lines a launch run without timing touched in global memory
    // (0: not recorded), for the L2 in SM order after each quantum.
    uint32_t m_warm_line_bytes = 0;
    std::vector<uint64_t> m_warm_lines;
    void note_warm_lines(Warp& w, const Inst& in, LaneMask m);
    std::unique_ptr<StoreBuffer> m_stores;  // the relaxed memory model only
    std::vector<uint32_t> m_retire;         // warps found finished while scheduling a cycle
    int64_t m_chip_offset = 0;              // chip cycle minus the SM's cycle
    TraceRecorder* m_trace = nullptr;
    struct Signals {
        VcdSignal issued, warps, blocks;
    } m_signals;
    // The chip cycle of the SM's current cycle (timing mode: the one being scheduled).
    // The waveform's resident warps and blocks, from chip cycle `from` on.
    void record_residency(uint64_t from) const;
    void record_issue(uint64_t t, uint64_t issued) const;
    // Per warp slot, what a scan found about the warp's next instruction, kept until the warp
    // issues: a cycle before which it cannot issue (its operands) and the pipe it needs. A compact
    // array, so a scan passes over waiting warps without touching them.
    struct ScanHint {
        // Not known (ScanHint{}): a pipe that is always free and not_before 0, so that a check
        // against the hint lets the warp by.
        static constexpr uint64_t kUnknownPipe = 0;
        uint64_t not_before = 0;
        const uint64_t* pipe_free = &kUnknownPipe;   // next_free of the pipe copy it needs
        bool known() const { return pipe_free != &kUnknownPipe; }
    };
    std::vector<ScanHint> m_hints;
    ScoreboardMap m_board;                  // timing mode: the warps' scoreboard entries, for the launch's kernel
    // The kernel m_board was built for, held so that no other kernel can come at its address: a
    // run of launches of one kernel builds the map once per SM.
    std::shared_ptr<const KernelImage> m_board_kernel;

    void init_warp(Warp& w, const Cta& cta, uint32_t warp_in_cta);
    void init_registers(Warp& w, const KernelImage& img);
    uint64_t uniform_special(SpecialReg sr, const Cta& cta, uint32_t warp_in_cta) const;
    uint64_t run_warp(Warp& w, uint64_t budget);
    uint64_t run_slice(Warp& w, uint64_t budget);
    bool after_slice(Warp& w);
    void park(Warp& w);
    void start_reserved();
    bool settle(Warp& w);
    void execute(Warp& w, const Inst& in);
    void arrive(Warp& w);
    void release_barrier(Cta& cta, uint32_t id);
    void deliver_reduction(Warp& w, const BarrierUnit::Barrier& b);
    // Timing mode (sm_timing.cpp).
    bool try_issue(uint32_t sched, uint64_t t, bool& exclusive_used, int& why, uint64_t& next);
    struct Check {
        enum Outcome : uint8_t { Issued, Blocked, Nothing } outcome;
        uint8_t why = 0;        // Blocked: the reason (WarpScheduler::Stall) and until when
        uint64_t at = 0;
    };
    Check check_warp(uint32_t sched, uint64_t t, uint32_t wi, bool& exclusive_used);
    // Issues the warp's instruction; false when it must wait for the SM's turn (it changed nothing).
    bool issue_timed(Warp& w, uint32_t sched, uint64_t t);
    uint64_t operand_ready(const Warp& w, uint8_t& source) const;
    uint64_t issue_ready(Warp& w) const;
    // What a memory instruction costs: the latency its unit adds, its pipe passes against those of
    // a conflict-free access, and what a wait for its result counts as (WarpScheduler::Stall).
    struct MemoryCost {
        uint64_t latency = 0;
        uint32_t passes = 1, ideal = 1;
        uint8_t source;
        int32_t group = -1;     // deferred: the LD/ST unit's group that prices the latency later
        uint32_t lower = 0;     // deferred: a lower bound of the latency
    };
    // The addresses of a memory instruction (lanes, or a texture instruction's texels), read
    // before it executes, since it may overwrite its own address register.
    struct MemoryAccess {
        MemSpace space;
        LaneMask mask;
        uint32_t count;                  // texels, or 1 for lane addresses
        uint32_t width;
        MemoryRequest::Kind kind;
        bool bypass_l1;                  // kLoadBypassesL1
        uint64_t addr[kWarpSize * 8];    // not cleared: only what count and mask name is set
    };
    void gather_access(Warp& w, const Inst& in, LaneMask m, MemoryAccess& a);
    MemoryCost memory_cost(const MemoryAccess& a);
    MemoryCost texture_cost(const MemoryAccess& a);
    // Deferred mode: an issued instruction whose latency the LD/ST unit prices later.
    struct DeferredIssue {
        int32_t group;
        uint32_t warp;
        uint64_t base;          // its cycle plus the pipe's own latency
        uint64_t provisional;   // the lower bound its scoreboard entries hold meanwhile
        const Inst* in;
        uint8_t source;
    };
    std::vector<DeferredIssue> m_deferred;
    uint64_t m_horizon = UINT64_MAX;    // the first cycle a deferred latency could matter in
    bool m_turn_wanted = false;         // a warp waits for the SM's turn
    bool m_wants_blocks = false;        // the grid has blocks left (timing mode's turns)
    void defer_latency(Warp& w, const Inst& in, uint64_t base, uint64_t provisional, uint8_t source, int32_t group, uint64_t t);
    void resolve_memory();
    // The memory entry that fences wait on holds the latest completion of the warp's accesses,
    // and what it counts as.
    void note_memory_done(Warp& w, uint64_t done, uint8_t source) const {
        const uint32_t e = m_board.memory();
        if (done >= w.board[e]) w.board[e] = done, w.board_source[e] = source;
    }
    void want_turn(uint64_t t);
    // Why the first warp a scan found blocked cannot issue, refined from what the scan saw.
    uint8_t refine_stall(const Warp& w, uint8_t seen, uint64_t t) const;
    void wake_schedulers();
    void enqueue_warp(uint32_t slot);
    uint64_t arrival(const Warp& w) const;
    void retire_warp(Warp& w);
    void check_deadlock() const;
    std::string warp_report(const Warp& w) const;
    [[noreturn]] void raise_fault(const Warp& w, const AccessFault& f) const;
    [[noreturn]] void raise_fault(const Warp& w, const ExecFault& f) const;
    [[noreturn]] void raise_fault(const Warp& w, int lane, const std::string& what, FaultKind kind = FaultKind::Exec) const;
    std::string thread_name(const Cta& cta, uint32_t warp_in_cta, int lane) const;
};

} // namespace gpusim
