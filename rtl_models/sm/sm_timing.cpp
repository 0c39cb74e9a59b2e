// Timing mode of the SM core: each cycle every warp scheduler offers its warps in policy order and
// issues the first whose operands are ready (scoreboard) and whose pipe can take it; cycles in
// which nothing can issue are skipped to the next event. The instruction executes functionally
// at issue, so both modes compute the same results.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "protocol/memory_map.h"
#include "sm/sm_core.h"
#include "sm/timing_units.h"
#ifdef GPUSIM_HAVE_RTL
#include "rtl/bank_arbiter_rtl.h"
#endif

namespace gpusim {

std::unique_ptr<SmemArbiter> bank_arbiter(const SharedMemoryConfig& cfg, bool trace) {
    if (cfg.impl != "rtl") return nullptr;
#ifdef GPUSIM_HAVE_RTL
    return std::make_unique<BankArbiterRtl>(bank_geometry(cfg), trace ? cfg.rtl_vcd : std::string());
#else
    (void)trace;
    throw std::runtime_error("smem.impl 'rtl': this build has no RTL twin (Verilator 5 was not found when it was configured)");
#endif
}

TimingUnits::TimingUnits(const SmConfig& c, uint32_t smid, MemoryRequestTarget* l2)
    : cfg(c.timing), smem(unit_name("smem"), c.timing.smem, bank_arbiter(c.timing.smem, smid == 0)),
      ccache(unit_name("ccache"), c.timing.ccache), tex(unit_name("tex"), c.timing.tex),
      ldst(unit_name("l1"), c.timing.ldst) {
    if (!l2) throw std::invalid_argument("an SM in timing mode needs a target for its memory requests (the chip's L2)");
    ldst.mem.bind(*l2);
    for (uint32_t s = 0; s < c.warp_schedulers; ++s)
        schedulers.push_back(std::make_unique<WarpScheduler>(unit_name(fmt::format("sched{}", s).c_str()), c.timing.scheduler));
    for (int k = 0; k < kPipeKinds; ++k)
        pipes[k] = std::make_unique<Pipe>(unit_name(pipe_name(PipeKind(k))), c.timing.pipes[k], c.warp_schedulers);
}

namespace {

using Stall = WarpScheduler::Stall;

bool settled(const Warp& w, uint32_t code_size) { return w.active != 0 && w.pc != w.rpc && w.pc < code_size; }

} // namespace

// The SM's cycle at which the warp's block arrives from the chip's distributor.
uint64_t SmCore::arrival(const Warp& w) const {
    return uint64_t(std::max<int64_t>(int64_t(m_launch->cta_arrival(m_ctas[w.cta_slot].linear_id)) - m_chip_offset, 0));
}

void SmCore::enqueue_warp(uint32_t slot) {
    TimingUnits& u = *m_units;
    Warp& w = m_warps[slot];
    w.scheduler = slot % uint32_t(u.schedulers.size());
    w.board.assign(m_board.size(), 0);
    w.board_source.assign(m_board.size(), uint8_t(Stall::ExecDependency));
    w.board_source[m_board.memory()] = uint8_t(Stall::MemoryDependency);
    // A block the chip's distributor has not handed out yet holds its slot until it arrives.
    w.ready_at = std::max(u.now, arrival(w));
    w.operands_pc = UINT32_MAX;
    m_hints[slot] = ScanHint{};
    u.schedulers[w.scheduler]->add(slot, m_age++);
    u.schedulers[w.scheduler]->wake();
}

void SmCore::wake_schedulers() {
    if (m_units)
        for (auto& s : m_units->schedulers) s->wake();
}

// The cycle from which the instruction's scoreboard entries are all written, and what wrote the
// last of them (the reason a wait for it counts as).
uint64_t SmCore::operand_ready(const Warp& w, uint8_t& source) const {
    uint64_t r = 0;
    source = uint8_t(Stall::ExecDependency);
    const uint64_t* ready = w.board.data();
    const uint8_t* wrote = w.board_source.data();
    for (const uint32_t *e = m_board.begin(w.pc), *end = m_board.end(w.pc); e != end; ++e)
        if (ready[*e] > r) r = ready[*e], source = wrote[*e];
    if (m_board.waits_for_all_rows(w.pc))
        for (uint32_t row = 0; row < m_board.rows(); ++row)
            if (ready[row] > r) r = ready[row], source = wrote[row];
    return r;
}

// A dependency counts as what wrote the entry it waits on longest, unless the warp's own issue
// interval (a taken branch refetching) holds it longer; a busy LD/ST pipe is a memory structural
// stall, any other busy pipe a pipe stall.
uint8_t SmCore::refine_stall(const Warp& w, uint8_t seen, uint64_t t) const {
    const Inst& in = m_ctx.kernel->code[w.pc];
    if (seen == uint8_t(Stall::PipeBusy))
        return m_units->cfg.ops[int(in.op_class)].pipe == PipeKind::Ldst ? uint8_t(Stall::MemoryStructural) : seen;
    if (seen != uint8_t(Stall::Dependency)) return seen;
    if (t < arrival(w)) return uint8_t(Stall::NoWarp);   // its block has not arrived
    uint8_t source = w.operands_source;
    const uint64_t latest = w.operands_pc == w.pc ? w.operands_at : operand_ready(w, source);
    return w.ready_at > t && w.ready_at >= latest ? uint8_t(Stall::Branch) : source;
}

// The cycle from which the warp's next instruction may issue as far as the warp itself is
// concerned: its dispatch slot and its operands.
uint64_t SmCore::issue_ready(Warp& w) const {
    if (w.operands_pc != w.pc) {
        w.operands_at = operand_ready(w, w.operands_source);
        w.operands_pc = w.pc;
    }
    return std::max(w.ready_at, w.operands_at);
}

// Offers the scheduler's warps in policy order; issues the first that can go. Otherwise `why`
// receives the reason the best candidate could not, and `next` a lower bound on the cycle at which
// any of them could (the scheduler sleeps until then).
bool SmCore::try_issue(uint32_t s, uint64_t t, bool& exclusive_used, int& why, uint64_t& next) {
    TimingUnits& u = *m_units;
    const bool use_hints = u.cfg.skip_idle;
    const bool exclusive = exclusive_used;
    // The scan's findings live in locals, written back once at the end; the candidates whose hint
    // settles them are handled here, the rest by check_warp (out of line, so that this loop keeps
    // its state in registers).
    int first_blocked = -1;
    uint32_t blocked_warp = 0;
    bool at_barrier = false;
    uint64_t earliest = UINT64_MAX;
    // Records that warp wi cannot issue before `at`, and why (the reason of the first one counts).
    auto block = [&](uint32_t wi, Stall why_blocked, uint64_t at) {
        if (first_blocked < 0) first_blocked = int(why_blocked), blocked_warp = wi;
        earliest = std::min(earliest, at);
    };
    const ScanHint* hints = m_hints.data();
    // A candidate that its hint does not block, checked in full; true when it issued.
    auto check = [&](uint32_t wi) {
        const Warp::State state = m_warps[wi].state;
        if (state != Warp::State::Ready) {
            at_barrier |= state == Warp::State::AtBarrier;
            return false;
        }
        const Check c = check_warp(s, t, wi, exclusive_used);
        if (c.outcome == Check::Blocked) block(wi, Stall(c.why), c.at);
        return c.outcome == Check::Issued;
    };
    // One candidate; true when it issued.
    auto visit = [&](uint32_t wi) {
        // What an earlier scan found, checked as a full check would: the pipe first, then the
        // operands. Without skipping, every warp is checked in full (the test of both).
        const ScanHint hint = hints[wi];
        if (hint.known() && use_hints) {
            // Decided without branching on the values (they vary from warp to warp): the pipe
            // first, at max(operands, pipe, t + 1), then the operands.
            const uint64_t pipe_free = *hint.pipe_free;
            const bool pipe_busy = pipe_free > t || exclusive;
            if (pipe_busy || hint.not_before > t) {
                const uint64_t at = pipe_busy ? std::max({hint.not_before, pipe_free, t + 1}) : hint.not_before;
                block(wi, pipe_busy ? Stall::PipeBusy : Stall::Dependency, at);
                return false;
            }
        }
        return check(wi);
    };
    // The candidates in policy order (CandidateOrder): the first one, then the list from `start`
    // round to `start` - 1, passing over the first one where the list holds it again.
    const CandidateOrder& order = u.schedulers[s]->candidates();
    if (order.first != CandidateOrder::kNone && visit(order.first)) return true;
    // The list in locals, so that they stay in registers across the calls out of line: the
    // policy changes its order only when a warp issues, and the scan ends there.
    const uint32_t* const warps = order.warps;
    const size_t count = order.count, start = order.start;
    const uint32_t first = order.first;
    // The rest of the candidates in policy order, each offered to `offer` (true: it issued),
    // which passes over the first one itself.
    auto scan = [&](auto&& offer) {
        for (size_t i = start; i < count; ++i)
            if (offer(warps[i])) return true;
        for (size_t i = 0; i < start; ++i)
            if (offer(warps[i])) return true;
        return false;
    };
    auto offer = [&](uint32_t wi) { return wi != first && visit(wi); };
    // The common case, where a hint blocks when its pipe or its operands are not ready (an
    // unknown hint never does), until the later of the two: visit() with what cannot vary
    // taken out of the loop. One comparison decides, the later of the two against t (which of
    // them blocks varies from warp to warp: a branch on each was mispredicted twice per scan).
    // The first candidate is passed over only where its hint lets it by: blocked by its hint, it
    // is blocked again until the same cycle, which changes nothing, and the test stays out of the
    // common path.
    auto offer_hinted = [&](uint32_t wi) {
        const ScanHint hint = hints[wi];
        const uint64_t pipe_free = *hint.pipe_free;
        const uint64_t at = std::max(hint.not_before, pipe_free);
        if (at > t) {
            block(wi, pipe_free > t ? Stall::PipeBusy : Stall::Dependency, at);
            return false;
        }
        return wi != first && check(wi);
    };
    if (use_hints && !exclusive ? scan(offer_hinted) : scan(offer)) return true;
    next = earliest;
    if (first_blocked >= 0) why = refine_stall(m_warps[blocked_warp], uint8_t(first_blocked), t);
    else if (at_barrier || u.schedulers[s]->has_waiting()) why = int(Stall::Barrier);
    else why = int(order.size() ? Stall::NoEligible : Stall::NoWarp);
    return false;
}

// A ready candidate checked in full: issued, blocked (why and until when), or with nothing to
// offer (finishing). Its findings become its hint.
__attribute__((noinline)) SmCore::Check SmCore::check_warp(uint32_t s, uint64_t t, uint32_t wi, bool& exclusive_used) {
    TimingUnits& u = *m_units;
    Warp& w = m_warps[wi];
    if (!settled(w, uint32_t(m_ctx.kernel->code.size())) && !settle(w)) {
        if (w.state == Warp::State::Done) m_retire.push_back(wi);
        return {Check::Nothing};
    }
    const Inst& in = m_ctx.kernel->code[w.pc];
    Pipe& p = u.pipe(u.cfg.ops[int(in.op_class)].pipe);
    const uint64_t ready = issue_ready(w);
    m_hints[wi] = ScanHint{ready, p.next_free_at(p.instance(s))};
    const uint64_t pipe_free = p.next_free(p.instance(s));
    if (pipe_free > t || exclusive_used) return {Check::Blocked, uint8_t(Stall::PipeBusy), std::max({ready, pipe_free, t + 1})};
    if (ready > t) return {Check::Blocked, uint8_t(Stall::Dependency), ready};
    if (p.exclusive()) {
        bool others = false;
        for (const auto& sc : u.schedulers) others |= sc->issued_at(t);
        if (others) return {Check::Blocked, uint8_t(Stall::PipeBusy), t + 1};
    }
    // On its own, the SM leaves an instruction that orders with other SMs to its turn.
    if ((m_ctx.apart && (in.dest_flags & kOrdered)) || !issue_timed(w, s, t)) {
        want_turn(t);
        return {Check::Blocked, uint8_t(Stall::MemoryStructural), t + 1};
    }
    exclusive_used |= p.exclusive();
    return {Check::Issued};
}

void SmCore::want_turn(uint64_t t) {
    m_turn_wanted = true;
    m_horizon = std::min(m_horizon, t + 1);
}

bool SmCore::issue_timed(Warp& w, uint32_t s, uint64_t t) {
    TimingUnits& u = *m_units;
    const uint32_t wi = uint32_t(&w - m_warps.data());
    const Inst& in = m_ctx.kernel->code[w.pc];
    const OpTiming& op = u.cfg.ops[int(in.op_class)];
    LaneMask m = w.active;
    if (in.guard >= 0) m &= in.guard_negated ? ~w.preds[in.guard] : w.preds[in.guard];
    const bool memory = in.op_class == OpClass::Memory;
    MemoryAccess access;
    if (memory) gather_access(w, in, m, access);

    const Cta& cta = m_ctas[w.cta_slot];
    m_ctx.shared = const_cast<uint8_t*>(cta.shared.data());
    m_ctx.shared_size = uint32_t(cta.shared.size());
    m_ctx.clock = t;
    m_clock.advance_to(t);
    const uint32_t lanes = lane_count(w.active);
    try {
        execute(w, in);
    } catch (const PauseRequest&) {
        --w.pc;   // it moved nothing: it waits for the SM's turn
        return false;
    }
    ++m_stats.warp_instructions;
    ++m_stats.by_class[int(in.op_class)];
    m_stats.thread_instructions += lanes;
    w.operands_pc = UINT32_MAX;
    m_hints[wi] = ScanHint{};

    // A memory access occupies the LD/ST pipe in proportion to its passes (bank conflicts, distinct
    // constant addresses, transactions) over those of a conflict-free access.
    MemoryCost mc{0, 1, 1, uint8_t(Stall::ExecDependency)};
    if (memory) mc = memory_cost(access);
    const uint64_t latency = op.latency + (mc.group >= 0 ? mc.lower : mc.latency);
    const uint32_t interval = uint32_t(uint64_t(op.interval_milli) * mc.passes / std::max(mc.ideal, 1u));

    Pipe& p = u.pipe(op.pipe);
    uint64_t occupied = p.accept(p.instance(s), t, std::max(interval, 1u));
    u.schedulers[s]->issued(wi, t, occupied);
    const uint64_t done = t + latency;
    auto write = [&](uint32_t e) { w.board[e] = done, w.board_source[e] = mc.source; };
    m_board.for_each_destination(in, write);
    if (memory) {
        note_memory_done(w, done, mc.source);
        if (latency > u.cfg.scheduler.long_latency_cycles) u.schedulers[s]->long_stall(wi);
        if (mc.group >= 0) defer_latency(w, in, t + op.latency, done, mc.source, mc.group, t);
    }
    // A warp issues at most once per cycle per dispatch slot; a taken branch refetches.
    w.ready_at = t + (in.op_class == OpClass::Branch ? std::max<uint64_t>(op.latency, 1) : u.schedulers[s]->dispatch_width() > 1 ? 0 : 1);
    if (w.suspend) {   // a failed mbarrier.try_wait: the warp sleeps, and a two-level scheduler lets others in
        w.ready_at = std::max(w.ready_at, t + w.suspend);
        w.suspend = 0;
        u.schedulers[s]->long_stall(wi);
    }

    if (w.state == Warp::State::AtBarrier) arrive(w);
    // Still waiting: its own arrival did not open the barrier (bar.arrive leaves it Ready).
    if (w.state == Warp::State::AtBarrier) u.schedulers[s]->barrier_wait(wi);
    if (w.state == Warp::State::Ready) settle(w);
    if (w.state == Warp::State::Done) retire_warp(w);
    return true;
}

uint64_t SmCore::step_until(uint64_t until) {
    TimingUnits& u = *m_units;
    const uint64_t issued_before = m_stats.warp_instructions;
    const uint64_t ctas_before = m_stats.ctas_completed;
    const size_t ns = u.schedulers.size();
    int why[64];
    uint32_t lost[64];   // issue slots a scheduler that issued left unused this cycle
    // Returns when a CTA completes, so the SM can take the next one without waiting for the quantum.
    while (m_resident > 0 && u.now < std::min(until, m_horizon) && m_stats.ctas_completed == ctas_before) {
        const uint64_t t = u.now;
        const uint64_t issued_at_t = m_stats.warp_instructions;
        const uint32_t live_warps = m_live_warps;
        bool any = false, exclusive_used = false;
        // Schedulers that share a pipe take turns at being first, so none starves (a mask for
        // the usual power-of-two count, rather than a division every cycle).
        const size_t lead = (ns & (ns - 1)) == 0 ? size_t(t) & (ns - 1) : size_t(t % ns);
        for (size_t k = 0, s = lead; k < ns; ++k, s = s + 1 == ns ? 0 : s + 1) {
            WarpScheduler& sc = *u.schedulers[s];
            why[s] = -1;
            lost[s] = 0;
            if (!sc.ready(t)) { why[s] = int(Stall::Dispatch); continue; }
            if (sc.asleep(t)) { why[s] = int(sc.sleep_reason()); continue; }
            uint32_t issued = 0;
            int reason = -1;
            uint64_t wake = 0;
            while (issued < sc.dispatch_width() && try_issue(uint32_t(s), t, exclusive_used, reason, wake)) ++issued;
            if (issued) {
                any = true;
                if (issued < sc.dispatch_width()) why[s] = reason, lost[s] = sc.dispatch_width() - issued;
            } else {
                why[s] = reason;
                // Without skipping, the scheduler scans again next cycle, unless nothing but an
                // event (a barrier release, a new warp) can let one of its warps issue.
                sc.sleep(u.cfg.skip_idle || wake == UINT64_MAX ? wake : t + 1, Stall(reason));
            }
        }
        for (uint32_t wi : m_retire)
            if (m_warp_used[wi] && m_warps[wi].state == Warp::State::Done) retire_warp(m_warps[wi]);
        m_retire.clear();
        uint64_t next = t + 1;
        if (!any) {
            next = UINT64_MAX;
            for (const auto& sc : u.schedulers) next = std::min(next, std::max(sc->wake_at(), sc->busy_until()));
        }
        if (m_signals.issued) record_issue(t, m_stats.warp_instructions - issued_at_t);
        if (next == UINT64_MAX) {
            if (m_resident == 0) break;
            check_deadlock();
            throw KernelFault(fmt::format("kernel '{}': SM {} has resident blocks but no warp can run", m_ctx.kernel->name, m_smid));
        }
        // A skip stops at the end of the quantum: the SM meets SystemC time (and the other SMs) at
        // the same cycles whatever it skipped, so the skipping cannot change the results.
        next = std::min({next, until, m_horizon});
        for (size_t s = 0; s < ns; ++s)
            if (why[s] >= 0) u.schedulers[s]->stalled(Stall(why[s]), lost[s] ? lost[s] : (next - t) * u.schedulers[s]->dispatch_width());
        m_stats.resident_warp_cycles += uint64_t(live_warps) * (next - t);
        u.now = next;
    }
    m_clock.advance_to(u.now);
    check_watchdog();
    return m_stats.warp_instructions - issued_before;
}

uint64_t SmCore::step_apart(uint64_t until) {
    TimingUnits& u = *m_units;
    m_ctx.apart = true;
    u.ldst.set_deferred(true);
    uint64_t issued = 0;
    try {
        // A block that completes makes room for one set aside; with none left, and more in the
        // grid, the step ends, and the next comes from the chip's distributor in the SM's turn
        // (at the same cycle).
        for (;;) {
            start_reserved();
            if (m_resident == 0 || u.now >= std::min(until, m_horizon) || m_turn_wanted) break;
            if (m_wants_blocks && can_accept_cta()) break;
            issued += step_until(until);
        }
    } catch (...) {
        m_ctx.apart = false;
        u.ldst.set_deferred(false);
        throw;
    }
    m_ctx.apart = false;
    u.ldst.set_deferred(false);
    return issued;
}

uint64_t SmCore::take_turn(uint64_t until) {
    resolve_memory();
    if (!m_turn_wanted || m_units->now >= until) return 0;
    m_turn_wanted = false;
    return step_until(m_units->now + 1);
}

// The waveform's issue signal: `issued` in cycle t, and none after it until a later cycle issues
// (the step may end here: the next cycle's own value replaces the 0 recorded for it).
void SmCore::record_issue(uint64_t t, uint64_t issued) const {
    const uint64_t chip = uint64_t(std::max<int64_t>(int64_t(t) + m_chip_offset, 0));
    m_signals.issued.set(chip, issued);
    m_signals.issued.set(chip + 1, 0);
}

void SmCore::record_signals(VcdRecorder& vcd, const std::string& prefix) {
    if (!m_timing_units) return;
    uint64_t width = 0;
    for (const auto& s : m_timing_units->schedulers) width += s->dispatch_width();
    m_signals.issued = vcd.declare(prefix + "issued", VcdRecorder::Kind::Level, VcdRecorder::bits_for(width));
    m_signals.warps = vcd.declare(prefix + "active_warps", VcdRecorder::Kind::Level, VcdRecorder::bits_for(m_cfg.max_warps));
    m_signals.blocks = vcd.declare(prefix + "blocks", VcdRecorder::Kind::Level, VcdRecorder::bits_for(m_cfg.max_ctas));
    m_timing_units->ldst.record_signals(vcd, prefix + "l1.");
}

void SmCore::report(nlohmann::json& out) const {
    auto unit = [&](const UnitModule& m) { m.report(out[m.basename()]); };
    unit(m_clock);
    unit(m_barrier);
    if (m_stores) {
        nlohmann::json& sb = out["store_buffer"];
        sb["stores"] = {{"value", double(m_stores->buffered())}, {"unit", "stores"},
                        {"description", "global stores that went through the store buffer (sim.memory_model=relaxed)"}};
        sb["reordered"] = {{"value", double(m_stores->reordered())}, {"unit", "stores"},
                           {"description", "stores that reached memory while an earlier store of the SM had not"}};
        sb["stale_reads"] = {{"value", double(m_stores->stale_reads())}, {"unit", "loads"},
                             {"description", "loads that returned a value another SM's store had replaced (its invalidation not arrived)"}};
        sb["overflow_drains"] = {{"value", double(m_stores->overflows())}, {"unit", "stores"},
                                 {"description", "stores drained because the buffer was full"}};
    }
    nlohmann::json& cls = out["issue"];
    for (int k = 0; k < kOpClasses; ++k)
        if (m_stats.by_class[k])
            cls[op_class_name(OpClass(k))] = {{"value", double(m_stats.by_class[k])}, {"unit", "warp instructions"},
                                              {"description", "warp instructions issued of this timing class"}};
    // The timing units report whether or not the last launch ran in timing mode (kernel sampling
    // takes a launch's counters as the difference of two reports).
    const TimingUnits* units = m_timing_units.get();
    if (!units) return;
    nlohmann::json& warps = out["warps"];
    warps["resident_warp_cycles"] = {{"value", double(m_stats.resident_warp_cycles)}, {"unit", "warp-cycles"},
                                     {"description", "resident warps (not exited) summed over the SM's cycles"}};
    warps["max_warps"] = {{"value", double(m_cfg.max_warps)}, {"unit", "warps"}, {"constant", true},
                          {"description", "warps the SM can hold (occupancy's denominator)"}};
    warps["launch_warps"] = {{"value", double(m_launch ? m_limit * m_launch->warps_per_cta() : 0)}, {"unit", "warps"},
                             {"constant", true}, {"description", "warps the last launch's blocks could keep resident (its theoretical occupancy)"}};
    for (const auto& s : units->schedulers) unit(*s);
    for (const auto& p : units->pipes) unit(*p);
    unit(units->smem);
    unit(units->ccache);
    unit(units->tex);
    unit(units->ldst);
}

} // namespace gpusim
