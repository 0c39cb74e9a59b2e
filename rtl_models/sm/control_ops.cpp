// Control instructions: branches through the SIMT stack, thread exit, CTA barriers, fences and
// reads of the time-varying special registers.
#include "check/race_check.h"
#include "ldst/store_buffer.h"
#include "sm/call_ops.h"
#include "isa/exec_context.h"
#include "sm/operations.h"
#include "sm/simt_stack.h"

namespace gpusim {
namespace {

void bra(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    // w.pc already points past the branch, which is the fall-through path.
    simt::branch(w, m, in.target, w.pc, in.reconv);
}

void exit_op(ExecContext&, Warp& w, const Inst&, LaneMask m) { simt::exit_lanes(w, m); }

// The warp stops issuing until the CTA's barrier releases it (the SM counts arrivals).
void barrier_wait(ExecContext& c, Warp& w, const Inst& in, LaneMask m, Warp::BarrierOp op) {
    w.state = Warp::State::AtBarrier;
    w.barrier_op = op;
    w.barrier_id = uint32_t(c.src(w, in.a)[__builtin_ctz(m)]);
    w.barrier_count = in.b == kNoRow ? 0 : uint32_t(c.src(w, in.b)[__builtin_ctz(m)]);
    w.barrier_lanes = m;
}

void bar_sync(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;  // guard false in every lane: the warp does not take part
    barrier_wait(c, w, in, m, Warp::BarrierOp::Sync);
}

// bar.arrive counts the warp's arrival and lets it go on at once (the SM sets it ready again).
void bar_arrive(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    barrier_wait(c, w, in, m, Warp::BarrierOp::Arrive);
}

// bar.red waits like bar.sync; the SM combines the predicates of every participating thread and
// writes the result to each waiting thread when the barrier opens.
void bar_red(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    barrier_wait(c, w, in, m, Warp::BarrierOp(in.aux));
    w.barrier_pred = (in.pc_negated ? ~w.preds[in.pc] : w.preds[in.pc]) & m;
    w.barrier_dest = in.d;
    w.barrier_dest_pred = in.pd;
}

// Fences order memory for other observers; in this model every access completes in program order
// before the next instruction issues, so they need no action.
void fence(ExecContext&, Warp&, const Inst&, LaneMask) {}

// A fence of gpu or system scope orders the block's earlier global accesses before its later ones
// for every other block: the race detector takes it as the block publishing what it wrote.
void wide_fence(ExecContext& c, Warp& w, const Inst&, LaneMask m) {
    if (c.racecheck && m) c.racecheck->fence(c.smid, w.cta_slot);
    // The relaxed model: the SM's earlier stores reach memory, and its view catches up.
    if (c.stores && m) c.stores->drain_all(), c.stores->clear_stale();
}

enum TimeReg : uint8_t { kClock, kClockHi, kClock64, kGlobalTimer, kGlobalTimerLo, kGlobalTimerHi, kPm = 16, kPm64 = 32 };

void read_time(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t clock = c.slots_per_cycle ? c.issue_slots / c.slots_per_cycle : c.clock;
    uint64_t v = 0;
    switch (in.aux) {
    case kClock: v = uint32_t(clock); break;
    case kClockHi: v = uint32_t(clock >> 32); break;
    case kClock64: v = clock; break;
    case kGlobalTimer: v = c.time_ns; break;
    case kGlobalTimerLo: v = uint32_t(c.time_ns); break;
    case kGlobalTimerHi: v = uint32_t(c.time_ns >> 32); break;
    default:   // %pmN and %pmN_64: the SM's pmevent counters (each warp's pmevent counts once)
        v = in.aux >= kPm64 ? c.pm_events[in.aux - kPm64] : uint32_t(c.pm_events[in.aux - kPm]);
        break;
    }
    uint64_t* d = w.row(in.d);
    for_lanes(m, [&](int l) { d[l] = v; });
}

// pmevent: each warp that executes it counts once in every counter of its mask (Inst::aux).
void pmevent(ExecContext& c, Warp&, const Inst& in, LaneMask m) {
    if (m == 0) return;
    for (int k = 0; k < kPmCounters; ++k)
        if (in.aux >> k & 1) ++c.pm_events[k];
}

// trap aborts the kernel: a fault of the first thread that executes it.
void trap(ExecContext&, Warp&, const Inst&, LaneMask m) {
    if (m) throw ExecFault{__builtin_ctz(m), "trap instruction executed", FaultKind::Trap};
}

} // namespace

ExecFn pmevent_fn() { return pmevent; }
ExecFn exit_fn() { return exit_op; }

// Which time-varying register a name denotes, or -1.
int time_register(const std::string& name) {
    if (name == "%clock") return kClock;
    if (name == "%clock_hi") return kClockHi;
    if (name == "%clock64") return kClock64;
    if (name == "%globaltimer") return kGlobalTimer;
    if (name == "%globaltimer_lo") return kGlobalTimerLo;
    if (name == "%globaltimer_hi") return kGlobalTimerHi;
    if (name.size() >= 4 && name.compare(0, 3, "%pm") == 0 && name[3] >= '0' && name[3] < '0' + kPmCounters)
        return (name.size() == 4 ? kPm : kPm64) + (name[3] - '0');
    return -1;
}

ExecFn time_register_reader() { return read_time; }

OpChoice select_control_op(const OpSpec& s) {
    OpChoice c;
    const std::string& op = s.opcode;
    if (op == "bra") { c.fn = bra; c.layout = Layout::Branch; }
    else if (op == "ret") { c.fn = ret_fn(); c.layout = Layout::None; }
    else if (op == "exit") { c.fn = exit_op; c.layout = Layout::None; }
    else if ((op == "bar" || op == "barrier") && s.has("warp")) {
        // bar.warp.sync: the model runs a warp as one unit, so its threads are always together.
        c.fn = fence;
        c.layout = Layout::Barrier;
    } else if ((op == "bar" || op == "barrier") && s.has("red")) {
        std::string t = s.type();
        if (s.has("popc") && t == "u32") c.aux = uint8_t(Warp::BarrierOp::RedPopc);
        else if (s.has("and") && t == "pred") c.aux = uint8_t(Warp::BarrierOp::RedAnd);
        else if (s.has("or") && t == "pred") c.aux = uint8_t(Warp::BarrierOp::RedOr);
        else { c.error = "unsupported instruction '" + s.full_name() + "': expected bar.red.popc.u32 or bar.red.{and,or}.pred"; return c; }
        c.fn = bar_red;
        c.layout = Layout::BarrierRed;
    } else if ((op == "bar" || op == "barrier") && s.has("arrive")) {
        c.fn = bar_arrive;
        c.layout = Layout::Barrier;
    } else if ((op == "bar" || op == "barrier") && (s.has("sync") || (op == "barrier" && s.mods.empty()))) {
        c.fn = bar_sync;
        c.layout = Layout::Barrier;
    } else if (op == "membar" || op == "fence") {
        const bool wide = (s.has("gl") || s.has("gpu") || s.has("sys")) && !s.has("proxy");
        c.fn = wide ? wide_fence : fence;
        c.layout = Layout::None;
    }
    // nanosleep may sleep anywhere from 0 to twice the time asked (PTX ISA): the model does not.
    else if (op == "nanosleep" && s.type() == "u32") { c.fn = fence; c.layout = Layout::Barrier; }
    else if (op == "trap") { c.fn = trap; c.layout = Layout::None; }
    // griddepcontrol (programmatic dependent launch, sm_90): the model starts a grid only once the
    // grids before it in its stream have completed, so .wait has nothing to wait for, and
    // .launch_dependents, which lets a dependent grid start early, has nothing to release.
    else if (op == "griddepcontrol" && (s.has("wait") || s.has("launch_dependents")) && s.mods.size() == 1) {
        c.fn = fence;
        c.layout = Layout::None;
    }
    return c;
}

} // namespace gpusim
