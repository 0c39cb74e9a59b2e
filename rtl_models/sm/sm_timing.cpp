// Timing mode of the SM core: each cycle every warp scheduler offers its warps in policy order and
// issues the first whose operands are ready (scoreboard) and whose pipe can take it; cycles in
// which nothing can issue are skipped to the next event. The instruction executes functionally
// at issue, so both modes compute the same results.
#include <algorithm>

#include <fmt/format.h>

#include "../../tlm/memory_map.h"
#include "sm/call_ops.h"
#include "sm/sm_core.h"
#include "sm/timing_units.h"
#include "tex/tex_ops.h"

namespace gpusim {

TimingUnits::TimingUnits(const SmConfig& c, L2Cache* chip_l2)
    : cfg(c.timing), smem(unit_name("smem"), c.timing.smem), ccache(unit_name("ccache"), c.timing.ccache),
      tex(unit_name("tex"), c.timing.tex),
      ldst(unit_name("l1"), c.timing.memory) {
    if (!chip_l2) {
        own_dram = std::make_unique<DramController>(unit_name("dram_ctrl"), c.timing.memory);
        own_l2 = std::make_unique<L2Cache>(unit_name("l2"), c.timing.memory);
        own_l2->out.bind(own_dram->socket);
        chip_l2 = own_l2.get();
    }
    ldst.mem.bind(chip_l2->in);
    for (uint32_t s = 0; s < c.warp_schedulers; ++s)
        schedulers.push_back(std::make_unique<WarpScheduler>(unit_name(fmt::format("sched{}", s).c_str()), c.timing.scheduler));
    for (int k = 0; k < kPipeKinds; ++k)
        pipes[k] = std::make_unique<Pipe>(unit_name(pipe_name(PipeKind(k))), c.timing.pipes[k], c.warp_schedulers);
}

namespace {

using Stall = WarpScheduler::Stall;

bool settled(const Warp& w, uint32_t code_size) { return w.active != 0 && w.pc != w.rpc && w.pc < code_size; }

// Local memory is interleaved by thread in device memory, so the same offset across a warp coalesces.
uint64_t local_address(uint64_t offset, uint32_t warp_slot, uint32_t local_bytes, int lane) {
    uint64_t warp_base = uint64_t(warp_slot) * local_bytes * kWarpSize;
    return memory_map::kLocalWindowBase + warp_base + (offset / 4 * kWarpSize + uint64_t(lane)) * 4 + offset % 4;
}

} // namespace

void SmCore::enqueue_warp(uint32_t slot) {
    TimingUnits& u = *m_units;
    Warp& w = m_warps[slot];
    w.scheduler = slot % uint32_t(u.schedulers.size());
    w.reg_ready.assign(m_ctx.kernel->num_regs, 0);
    w.pred_ready.assign(m_ctx.kernel->num_preds, 0);
    w.ready_at = u.now;
    w.mem_done = 0;
    w.operands_pc = UINT32_MAX;
    m_hints[slot] = ScanHint{};
    u.schedulers[w.scheduler]->add(slot, m_age++);
    u.schedulers[w.scheduler]->wake();
}

void SmCore::wake_schedulers() {
    if (m_units)
        for (auto& s : m_units->schedulers) s->wake();
}

// The cycle from which the instruction's sources (and destinations, for write-after-write) are
// written. Calls and returns move whole frames: they wait for every pending register.
uint64_t SmCore::operand_ready(const Warp& w, const Inst& in) const {
    const uint64_t* rr = w.reg_ready.data();
    const uint64_t* pr = w.pred_ready.data();
    uint64_t r = 0;
    for (Row row : {in.d, in.a, in.b, in.c, in.vec[0], in.vec[1], in.vec[2], in.vec[3]})
        if (row >= 0) r = std::max(r, rr[row]);
    for (int16_t p : {in.guard, in.pd, in.pa, in.pb, in.pc})
        if (p >= 0) r = std::max(r, pr[p]);
    if (in.op_class == OpClass::Fence) r = std::max(r, w.mem_done);
    // Texture and surface instructions read more rows than Inst names: all their coordinates,
    // the sampler, and a store's values.
    if (in.space == MemSpace::Texture) {
        const TexOperands& o = m_ctx.kernel->tex_operands[in.target];
        for (Row row : o.coord)
            if (row >= 0) r = std::max(r, rr[row]);
        if (o.sampler >= 0) r = std::max(r, rr[o.sampler]);
        for (Row row : o.value)
            if (row >= 0) r = std::max(r, rr[row]);
    }
    static const ExecFn call = call_fn(), ret = ret_fn(), sys = syscall_fn();
    if (in.op_class == OpClass::Branch && (in.fn == call || in.fn == ret || in.fn == sys))
        for (uint64_t v : w.reg_ready) r = std::max(r, v);
    return r;
}

// The cycle from which the warp's next instruction may issue as far as the warp itself is
// concerned: its dispatch slot and its operands.
uint64_t SmCore::issue_ready(Warp& w, const Inst& in) const {
    if (w.operands_pc != w.pc) {
        w.operands_at = operand_ready(w, in);
        w.operands_pc = w.pc;
    }
    return std::max(w.ready_at, w.operands_at);
}

// Offers the scheduler's warps in policy order; issues the first that can go. Otherwise `why`
// receives the reason the best candidate could not, and `next` a lower bound on the cycle at which
// any of them could (the scheduler sleeps until then).
bool SmCore::try_issue(uint32_t s, uint64_t t, bool& exclusive_used, int& why, uint64_t& next) {
    TimingUnits& u = *m_units;
    const Inst* code = m_ctx.kernel->code.data();
    const uint32_t n = uint32_t(m_ctx.kernel->code.size());
    int first_blocked = -1;
    bool at_barrier = false;
    next = UINT64_MAX;
    // Records that a candidate cannot issue before `at`, and why (the reason of the first one counts).
    auto block = [&](Stall why_blocked, uint64_t at) {
        if (first_blocked < 0) first_blocked = int(why_blocked);
        next = std::min(next, at);
    };
    // Whether a warp whose operands are ready at `ready` waits for its pipe copy (free from
    // `pipe_free`) or its operands: the pipe is checked first.
    auto waits = [&](uint64_t ready, uint64_t pipe_free) {
        if (pipe_free > t || exclusive_used) {
            block(Stall::PipeBusy, std::max({ready, pipe_free, t + 1}));
            return true;
        }
        if (ready > t) {
            block(Stall::Dependency, ready);
            return true;
        }
        return false;
    };
    const CandidateOrder order = u.schedulers[s]->candidates();
    for (size_t k = 0, n_candidates = order.size(); k < n_candidates; ++k) {
        const uint32_t wi = order[k];
        if (order.repeat(k, wi)) continue;
        // What an earlier scan found, checked as a full check would. Without skipping, every warp
        // is checked in full (the test of both).
        const ScanHint hint = m_hints[wi];
        if (hint.pipe_free && u.cfg.skip_idle && waits(hint.not_before, *hint.pipe_free)) continue;
        Warp& w = m_warps[wi];
        if (w.state != Warp::State::Ready) {
            at_barrier |= w.state == Warp::State::AtBarrier;
            continue;
        }
        if (!settled(w, n) && !settle(w)) {
            if (w.state == Warp::State::Done) m_retire.push_back(wi);
            continue;
        }
        const Inst& in = code[w.pc];
        Pipe& p = u.pipe(u.cfg.ops[int(in.op_class)].pipe);
        const uint64_t ready = issue_ready(w, in);
        m_hints[wi] = ScanHint{ready, p.next_free_at(p.instance(s))};
        if (waits(ready, p.next_free(p.instance(s)))) continue;
        if (p.exclusive()) {
            bool others = false;
            for (const auto& sc : u.schedulers) others |= sc->issued_at(t);
            if (others) {
                block(Stall::PipeBusy, t + 1);
                continue;
            }
            exclusive_used = true;
        }
        issue_timed(w, s, t);
        return true;
    }
    why = first_blocked >= 0 ? first_blocked : at_barrier ? int(Stall::Barrier) : int(Stall::NoWarp);
    return false;
}

// Prices a memory instruction before it executes (its address register may be overwritten):
// returns the latency its unit adds and sets the pipe passes.
uint64_t SmCore::memory_cost(Warp& w, const Inst& in, LaneMask m, uint32_t& passes, uint32_t& ideal) {
    if (!m) return 0;
    TimingUnits& u = *m_units;
    if (in.space == MemSpace::Texture) return texture_cost(w, in, m, passes, ideal);
    uint64_t addr[kWarpSize] = {};
    const uint64_t* base = in.a == kNoRow ? nullptr : m_ctx.src(w, in.a);
    for_lanes(m, [&](int l) { addr[l] = effective_address(base ? base[l] : 0, in); });
    const uint32_t width = uint32_t(std::max<uint8_t>(in.width, 1)) * std::max<uint8_t>(in.vec_count, 1);
    MemSpace space = in.space;
    if (space == MemSpace::Generic) {
        uint64_t a = addr[__builtin_ctz(m)];
        space = memory_map::in_shared_window(a) ? MemSpace::Shared : memory_map::in_local_window(a) ? MemSpace::Local : MemSpace::Global;
        if (space != MemSpace::Global) {
            uint64_t off = space == MemSpace::Shared ? memory_map::kSharedWindowBase : memory_map::kLocalWindowBase;
            for_lanes(m, [&](int l) { addr[l] -= off; });
        }
    }
    u.ldst.set_now(uint64_t(std::max<int64_t>(int64_t(m_units->now) + m_chip_offset, 0)));
    const LdstUnit::Kind kind = (in.dest_flags & kMemAtomic) ? LdstUnit::Kind::Atomic
                                : (in.dest_flags & kMemStore) ? LdstUnit::Kind::Write : LdstUnit::Kind::Read;
    switch (space) {
    case MemSpace::Shared:
        passes = u.smem.access(addr, m, width, kind == LdstUnit::Kind::Atomic);
        ideal = u.smem.ideal_passes(m, 4);   // pipe time is relative to a conflict-free 32-bit access
        return u.smem.latency(passes);
    case MemSpace::Const:
    case MemSpace::Param: {
        ConstantCache::Cost c = u.ccache.access(addr, m);
        passes = std::max(c.passes, 1u);
        ideal = c.groups;
        uint64_t fill = 0;
        for (uint32_t k = 0; k < c.misses; ++k) fill = std::max<uint64_t>(fill, u.ldst.fill(c.miss_lines[k], u.ccache.line_bytes()));
        return u.ccache.latency(passes) + fill;
    }
    case MemSpace::Local: {
        uint32_t slot = uint32_t(&w - m_warps.data());
        for_lanes(m, [&](int l) { addr[l] = local_address(addr[l], slot, w.local_bytes, l); });
        LdstUnit::Cost c = u.ldst.access(addr, m, width, kind, true);
        passes = std::max(c.transactions, 1u);
        ideal = c.groups;
        return c.latency;
    }
    default: {
        LdstUnit::Cost c = u.ldst.access(addr, m, width, kind, false);
        passes = std::max(c.transactions, 1u);
        ideal = c.groups;
        return c.latency;
    }
    }
}

// A texture or surface instruction: the texture cache's passes over the lines its texels lie in,
// and the fill of those that miss.
uint64_t SmCore::texture_cost(Warp& w, const Inst& in, LaneMask m, uint32_t& passes, uint32_t& ideal) {
    TimingUnits& u = *m_units;
    uint64_t texels[TextureCache::kMaxTexels];
    uint32_t n = 0;
    try {
        n = texture_footprint(m_ctx, w, in, m, texels, TextureCache::kMaxTexels);
    } catch (const ExecFault&) {
        return 0;   // a bad handle or access: the instruction's execution reports it
    } catch (const AccessFault&) {
        return 0;
    }
    if (n == 0) return 0;
    u.ldst.set_now(uint64_t(std::max<int64_t>(int64_t(m_units->now) + m_chip_offset, 0)));
    const TextureCache::Cost c = u.tex.access(texels, n);
    passes = std::max(c.passes, 1u);
    ideal = 1;
    uint64_t fill = 0;
    for (uint32_t k = 0; k < c.misses; ++k) fill = std::max<uint64_t>(fill, u.ldst.fill(c.miss_lines[k], u.tex.line_bytes()));
    // A miss's fill overlaps the unit's own pipeline: on Kepler a texture fetch that misses takes
    // about as long as a global load (PPT: texture memory 317, global 331, texture cache hit 112).
    return c.misses ? std::max<uint64_t>(u.tex.latency(passes), fill + u.tex.latency(passes) - u.tex.latency(1))
                    : u.tex.latency(passes);
}

void SmCore::issue_timed(Warp& w, uint32_t s, uint64_t t) {
    TimingUnits& u = *m_units;
    const uint32_t wi = uint32_t(&w - m_warps.data());
    const Inst& in = m_ctx.kernel->code[w.pc];
    const OpTiming& op = u.cfg.ops[int(in.op_class)];
    LaneMask m = w.active;
    if (in.guard >= 0) m &= in.guard_negated ? ~w.preds[in.guard] : w.preds[in.guard];
    // A memory access occupies the LD/ST pipe in proportion to its passes (bank conflicts, distinct
    // constant addresses, transactions) over those of a conflict-free access.
    uint32_t passes = 1, ideal = 1;
    uint64_t latency = op.latency;
    if (in.op_class == OpClass::Memory) latency += memory_cost(w, in, m, passes, ideal);
    const uint32_t interval = uint32_t(uint64_t(op.interval_milli) * passes / std::max(ideal, 1u));

    const Cta& cta = m_ctas[w.cta_slot];
    m_ctx.shared = const_cast<uint8_t*>(cta.shared.data());
    m_ctx.shared_size = uint32_t(cta.shared.size());
    m_ctx.clock = t;
    m_clock.advance_to(t);
    ++m_stats.warp_instructions;
    ++m_stats.by_class[int(in.op_class)];
    m_stats.thread_instructions += lane_count(w.active);
    execute(w, in);
    w.operands_pc = UINT32_MAX;
    m_hints[wi] = ScanHint{};

    Pipe& p = u.pipe(op.pipe);
    uint64_t occupied = p.accept(p.instance(s), t, std::max(interval, 1u));
    u.schedulers[s]->issued(wi, t, occupied);
    const uint64_t done = t + latency;
    if (in.d >= 0) w.reg_ready[in.d] = done;
    if (in.dest_flags & kDestVec)
        for (int e = 0; e < in.vec_count; ++e)
            if (in.vec[e] >= 0) w.reg_ready[in.vec[e]] = done;
    if (in.pd >= 0) w.pred_ready[in.pd] = done;
    if ((in.dest_flags & kDestPb) && in.pb >= 0) w.pred_ready[in.pb] = done;
    if (in.op_class == OpClass::Memory) {
        w.mem_done = std::max(w.mem_done, done);
        if (latency > u.cfg.scheduler.long_latency_cycles) u.schedulers[s]->long_stall(wi);
    }
    // A warp issues at most once per cycle per dispatch slot; a taken branch refetches.
    w.ready_at = t + (in.op_class == OpClass::Branch ? std::max<uint64_t>(op.latency, 1) : u.schedulers[s]->dispatch_width() > 1 ? 0 : 1);

    if (w.state == Warp::State::AtBarrier) arrive(w);
    if (w.state == Warp::State::Ready) settle(w);
    if (w.state == Warp::State::Done) retire_warp(w);
}

uint64_t SmCore::step_until(uint64_t until) {
    TimingUnits& u = *m_units;
    const uint64_t issued_before = m_stats.warp_instructions;
    const uint64_t ctas_before = m_stats.ctas_completed;
    const size_t ns = u.schedulers.size();
    int why[64];
    // Returns when a CTA completes, so the SM can take the next one without waiting for the quantum.
    while (m_resident > 0 && u.now < until && m_stats.ctas_completed == ctas_before) {
        const uint64_t t = u.now;
        bool any = false, exclusive_used = false;
        // Schedulers that share a pipe take turns at being first, so none starves.
        for (size_t k = 0; k < ns; ++k) {
            const size_t s = (k + t) % ns;
            WarpScheduler& sc = *u.schedulers[s];
            why[s] = -1;
            if (!sc.ready(t)) { why[s] = int(Stall::Dispatch); continue; }
            if (sc.asleep(t)) { why[s] = int(sc.sleep_reason()); continue; }
            uint32_t issued = 0;
            int reason = -1;
            uint64_t wake = 0;
            while (issued < sc.dispatch_width() && try_issue(uint32_t(s), t, exclusive_used, reason, wake)) ++issued;
            if (issued) {
                any = true;
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
        if (next == UINT64_MAX) {
            if (m_resident == 0) break;
            check_deadlock();
            throw KernelFault(fmt::format("kernel '{}': SM {} has resident blocks but no warp can run", m_ctx.kernel->name, m_smid));
        }
        // A skip stops at the end of the quantum: the SM meets SystemC time (and the other SMs) at
        // the same cycles whatever it skipped, so the skipping cannot change the results.
        next = std::min(next, until);
        for (size_t s = 0; s < ns; ++s)
            if (why[s] >= 0) u.schedulers[s]->stalled(Stall(why[s]), next - t);
        u.now = next;
    }
    m_clock.advance_to(u.now);
    check_watchdog();
    return m_stats.warp_instructions - issued_before;
}

void SmCore::report(nlohmann::json& out) const {
    auto unit = [&](const UnitModule& m) { m.report(out[m.basename()]); };
    unit(m_clock);
    unit(m_barrier);
    nlohmann::json& cls = out["issue"];
    for (int k = 0; k < kOpClasses; ++k)
        if (m_stats.by_class[k])
            cls[op_class_name(OpClass(k))] = {{"value", double(m_stats.by_class[k])}, {"unit", "warp instructions"},
                                              {"description", "warp instructions issued of this timing class"}};
    if (!m_units) return;
    for (const auto& s : m_units->schedulers) unit(*s);
    for (const auto& p : m_units->pipes) unit(*p);
    unit(m_units->smem);
    unit(m_units->ccache);
    unit(m_units->tex);
    unit(m_units->ldst);
    if (m_units->own_l2) unit(*m_units->own_l2);
    if (m_units->own_dram) unit(*m_units->own_dram);
}

} // namespace gpusim
