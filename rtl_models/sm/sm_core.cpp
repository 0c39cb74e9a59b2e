#include "sm/sm_core.h"

#include <algorithm>
#include <map>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "protocol/memory_map.h"
#include "check/allocation_map.h"
#include "check/race_check.h"
#include "sm/call_ops.h"
#include "sm/simt_stack.h"
#include "sm/timing_units.h"

namespace gpusim {

SmCore::SmCore(const SmConfig& cfg, uint32_t smid, MemoryView& memory, MemoryRequestTarget* l2)
    : m_cfg(cfg), m_smid(smid), m_mem(memory), m_barrier(unit_name("barrier"), cfg.timing.barrier.release_latency),
      m_clock(unit_name("clock")) {
    m_ctx.gmem = &m_mem;
    m_ctx.smid = smid;
    m_ctx.pm_events = m_clock.pm_events();
    m_ctx.sfu_ideal = cfg.sfu.ideal;
    m_ctx.try_wait_suspend = cfg.try_wait_suspend;
    if (cfg.stores.enabled) {
        m_stores = std::make_unique<StoreBuffer>(cfg.stores, smid, m_mem);
        m_ctx.stores = m_stores.get();
    }
    if (m_cfg.timing.enabled) m_timing_units = std::make_unique<TimingUnits>(m_cfg, smid, l2);
    set_detailed(m_cfg.timing.enabled, 0);
}

void SmCore::set_detailed(bool detailed, uint32_t warm_line_bytes) {
    m_units = detailed ? m_timing_units.get() : nullptr;
    m_warm_line_bytes = m_units ? 0 : warm_line_bytes;
    m_warm_lines.clear();   // a launch stopped by a fault may have left some
    // Each mode keeps its own count of the SM's time (issue slots; the cycle being scheduled):
    // the one taking over starts where the other left the SM's clock.
    if (m_units) {
        m_ctx.slots_per_cycle = 0;
        m_units->now = std::max(m_units->now, m_clock.cycles());
    } else {
        m_ctx.slots_per_cycle = m_cfg.warp_schedulers;
        m_ctx.issue_slots = std::max<uint64_t>(m_ctx.issue_slots, m_clock.cycles() * m_cfg.warp_schedulers);
    }
}

void SmCore::note_warm_lines(Warp& w, const Inst& in, LaneMask m) {
    thread_local MemoryAccess a;
    gather_access(w, in, m, a);
    if (a.space != MemSpace::Global || !a.count) return;
    // Each line once per instruction, however scattered its lanes.
    uint64_t lines[kWarpSize];
    int n = 0;
    for_lanes(a.mask, [&](int l) { lines[n++] = a.addr[l] / m_warm_line_bytes; });
    std::sort(lines, lines + n);
    for (int k = 0; k < n; ++k)
        if (k == 0 || lines[k] != lines[k - 1]) m_warm_lines.push_back(lines[k] * m_warm_line_bytes);
}

void SmCore::warm_l2() {
    if (m_timing_units)
        for (uint64_t addr : m_warm_lines) m_timing_units->ldst.warm(addr);
    m_warm_lines.clear();
}

SmCore::~SmCore() = default;

SmStats SmCore::stats() const {
    SmStats s = m_stats;
    std::copy(m_clock.pm_events(), m_clock.pm_events() + kPmCounters, s.pm_events);
    return s;
}

namespace {

// A warp's rows, and in ASan builds the guard row after them.
size_t register_stride(const KernelImage& img) { return size_t(img.num_regs) * kWarpSize + RegisterArena::kGuardWords; }

} // namespace

size_t SmCore::register_words(const LaunchInfo& l) const {
    return size_t(std::max(occupancy_limit(m_cfg, l), 1u)) * l.warps_per_cta() * register_stride(*l.kernel);
}

uint32_t SmCore::registers_per_thread(const SmConfig& cfg, const KernelImage& k) {
    uint32_t regs = cfg.register_estimate == "live" && k.live_regs_per_thread ? k.live_regs_per_thread : k.regs_per_thread;
    regs = std::max(regs, cfg.register_floor);
    return (regs + cfg.register_granularity - 1) / cfg.register_granularity * cfg.register_granularity;
}

uint32_t SmCore::occupancy_limit(const SmConfig& cfg, const LaunchInfo& l) {
    uint32_t warps = l.warps_per_cta();
    uint32_t limit = cfg.max_ctas;
    limit = std::min(limit, cfg.max_warps / std::max(warps, 1u));
    limit = std::min(limit, cfg.max_threads / std::max(l.threads_per_cta(), 1u));
    // The PTX estimate counts virtual registers, far more than ptxas allocates; like a kernel built
    // with launch bounds, one block always fits (the compiler would spill instead).
    uint32_t per_thread = std::min(registers_per_thread(cfg, *l.kernel), cfg.max_regs_per_thread);
    uint32_t threads = warps * kWarpSize;
    if (threads && uint64_t(per_thread) * threads > cfg.registers) per_thread = cfg.registers / threads;
    uint32_t regs = per_thread * threads;
    if (regs) limit = std::min(limit, cfg.registers / regs);
    if (uint32_t sh = l.shared_per_cta()) limit = std::min(limit, cfg.shared_bytes / sh);
    return limit;
}

void SmCore::begin_launch(const LaunchInfo* launch) {
    m_launch = launch;
    m_ctx.kernel = launch->kernel.get();
    m_ctx.params = launch->params.data();
    m_ctx.param_size = uint32_t(launch->params.size());
    m_limit = std::max(occupancy_limit(m_cfg, *launch), 1u);
    uint32_t warps = launch->warps_per_cta();
    m_ctas.assign(m_limit, Cta{});
    m_barrier.resize(m_limit);
    m_warps.resize(size_t(m_limit) * warps);
    const size_t per_warp = size_t(launch->kernel->num_regs) * kWarpSize, stride = register_stride(*launch->kernel);
    uint64_t* regs = m_lent_registers;
    if (!regs) {
        regs = m_own_registers.reserve(stride * m_warps.size());
        RegisterArena::hide(regs, m_own_registers.capacity_words());
    }
    m_lent_registers = nullptr;
    for (size_t k = 0; k < m_warps.size(); ++k) {
        m_warps[k].regs = regs + k * stride;
        RegisterArena::expose(m_warps[k].regs, per_warp);
    }
    m_hints.assign(m_warps.size(), ScanHint{});
    if (m_units && m_board_kernel != launch->kernel) {
        m_board.build(*launch->kernel, m_cfg.drain_stores);
        m_board_kernel = launch->kernel;
    }
    m_warp_used.assign(m_warps.size(), false);
    m_resident = 0;
    m_live_warps = 0;
    m_next_warp = 0;
    m_sweep = Sweep{};
    m_parked = 0;
    m_reserve.clear();
    m_turn_wanted = false;
    m_launch_cycle = m_clock.cycles();
    m_launch_time = std::chrono::steady_clock::now();
}

uint64_t SmCore::chip_cycle() const {
    const uint64_t cycle = m_units ? std::max(m_units->now, m_clock.cycles()) : m_clock.cycles();
    return uint64_t(std::max<int64_t>(int64_t(cycle) + m_chip_offset, 0));
}

double SmCore::now_ns() const { return m_trace ? m_trace->ns_of_cycle(chip_cycle()) : 0.0; }

void SmCore::record_residency(uint64_t from) const {
    m_signals.warps.set(from, m_live_warps);
    m_signals.blocks.set(from, m_resident);
}

bool SmCore::can_accept_cta() const { return m_launch && m_resident < m_limit; }

void SmCore::add_cta(uint64_t linear) {
    const LaunchInfo& l = *m_launch;
    uint32_t slot = 0;
    while (m_ctas[slot].in_use) ++slot;
    Cta& cta = m_ctas[slot];
    cta.in_use = true;
    cta.linear_id = linear;
    cta.ctaid[0] = uint32_t(linear % l.grid.x);
    cta.ctaid[1] = uint32_t((linear / l.grid.x) % l.grid.y);
    cta.ctaid[2] = uint32_t(linear / (uint64_t(l.grid.x) * l.grid.y));
    cta.num_warps = l.warps_per_cta();
    cta.first_warp = slot * cta.num_warps;
    cta.live_warps = cta.num_warps;
    cta.shared.assign(l.shared_per_cta(), 0);
    if (m_trace) {
        cta.started_ns = now_ns();
        m_trace->name_track(TraceRecorder::kSmBase + int(m_smid), int(slot), fmt::format("block slot {}", slot));
    }
    m_barrier.reset(slot);
    if (m_ctx.racecheck) m_ctx.racecheck->begin_cta(m_smid, slot, linear, uint32_t(cta.shared.size()));
    for (uint32_t k = 0; k < cta.num_warps; ++k) {
        Warp& w = m_warps[cta.first_warp + k];
        w.cta_slot = slot;
        init_warp(w, cta, k);
        m_warp_used[cta.first_warp + k] = true;
        if (m_units) enqueue_warp(cta.first_warp + k);
    }
    m_live_warps += cta.num_warps;
    ++m_resident;
    if (m_signals.warps || m_signals.blocks) record_residency(chip_cycle());
}

// A warp's registers: the rows a thread may read before writing them start at zero (the loader's
// analysis, KernelImage::zero_rows); the others keep what the slot's last warp left, which no
// thread can see. Debug builds fill those with a pattern instead, so that a read the analysis
// missed changes results in the sanitizer build's tests.
void SmCore::init_registers(Warp& w, const KernelImage& img) {
    const size_t n = size_t(img.num_regs) * kWarpSize;
    if (img.zero_all_rows) {
        std::fill_n(w.regs, n, 0);
        return;
    }
#ifndef NDEBUG
    std::fill_n(w.regs, n, 0xBADC0FFEE0DDF00Dull);
#endif
    for (Row r : img.zero_rows) std::fill_n(w.row(r), kWarpSize, 0);
}

// The value of a special register that is the same for every lane of the warp.
uint64_t SmCore::uniform_special(SpecialReg sr, const Cta& cta, uint32_t warp_in_cta) const {
    const LaunchInfo& l = *m_launch;
    switch (sr) {
    case SpecialReg::NtidX: return l.block.x;
    case SpecialReg::NtidY: return l.block.y;
    case SpecialReg::NtidZ: return l.block.z;
    case SpecialReg::CtaidX: return cta.ctaid[0];
    case SpecialReg::CtaidY: return cta.ctaid[1];
    case SpecialReg::CtaidZ: return cta.ctaid[2];
    case SpecialReg::NctaidX: return l.grid.x;
    case SpecialReg::NctaidY: return l.grid.y;
    case SpecialReg::NctaidZ: return l.grid.z;
    case SpecialReg::WarpId: return cta.first_warp + warp_in_cta;
    case SpecialReg::NWarpId: return m_cfg.max_warps;
    case SpecialReg::SmId: return m_smid;
    case SpecialReg::NSmId: return l.num_sms;
    case SpecialReg::GridId: return l.grid_id;
    case SpecialReg::DynamicSmemSize: return l.dynamic_shared;
    case SpecialReg::TotalSmemSize: return l.shared_per_cta();
    case SpecialReg::Count: return 0;
    default: return l.envreg[size_t(uint8_t(sr) - uint8_t(SpecialReg::EnvReg0))];
    }
}

void SmCore::init_warp(Warp& w, const Cta& cta, uint32_t k) {
    const LaunchInfo& l = *m_launch;
    const KernelImage& img = *l.kernel;
    init_registers(w, img);
    w.preds.assign(img.num_preds, 0);
    for (auto [p, v] : img.constant_preds) w.preds[p] = v ? ~0u : 0u;
    // Unbounded call chains (recursion) get the configured stack above the kernel's own frame.
    w.local_bytes = img.local_bytes + (img.recursive ? m_cfg.stack_bytes : 0);
    w.local.assign(size_t(w.local_bytes) * kWarpSize, 0);
    w.warp_in_cta = k;
    uint32_t threads = l.threads_per_cta();
    uint32_t first = k * kWarpSize;
    uint32_t lanes = std::min<uint32_t>(kWarpSize, threads - first);
    LaneMask mask = lanes == 32 ? ~0u : ((1u << lanes) - 1);
    for (auto [sr, row] : img.special_rows) {
        uint64_t* r = w.row(row);
        auto per_lane = [&](auto value) {
            for (uint32_t lane = 0; lane < uint32_t(kWarpSize); ++lane) r[lane] = uint32_t(value(first + lane, lane));
        };
        // A warp within one row of the block (the usual case) has x = x0 + lane and y, z fixed.
        const uint32_t x0 = first % l.block.x, y0 = (first / l.block.x) % l.block.y, z0 = first / (l.block.x * l.block.y);
        const bool one_row = x0 + uint32_t(kWarpSize) <= l.block.x;
        switch (sr) {
        case SpecialReg::TidX:
            if (one_row) per_lane([&](uint32_t, uint32_t lane) { return x0 + lane; });
            else per_lane([&](uint32_t t, uint32_t) { return t % l.block.x; });
            break;
        case SpecialReg::TidY:
            if (one_row) std::fill_n(r, kWarpSize, uint64_t(y0));
            else per_lane([&](uint32_t t, uint32_t) { return (t / l.block.x) % l.block.y; });
            break;
        case SpecialReg::TidZ:
            if (one_row) std::fill_n(r, kWarpSize, uint64_t(z0));
            else per_lane([&](uint32_t t, uint32_t) { return t / (l.block.x * l.block.y); });
            break;
        case SpecialReg::LaneId: per_lane([](uint32_t, uint32_t lane) { return lane; }); break;
        case SpecialReg::LanemaskEq: per_lane([](uint32_t, uint32_t lane) { return 1u << lane; }); break;
        case SpecialReg::LanemaskLt: per_lane([](uint32_t, uint32_t lane) { return (1u << lane) - 1; }); break;
        case SpecialReg::LanemaskLe: per_lane([](uint32_t, uint32_t lane) { return lane == 31 ? ~0u : (2u << lane) - 1; }); break;
        case SpecialReg::LanemaskGt: per_lane([](uint32_t, uint32_t lane) { return lane == 31 ? 0u : ~((2u << lane) - 1); }); break;
        case SpecialReg::LanemaskGe: per_lane([](uint32_t, uint32_t lane) { return ~((1u << lane) - 1); }); break;
        default: std::fill_n(r, kWarpSize, uint64_t(uint32_t(uniform_special(sr, cta, k)))); break;
        }
    }
    simt::start(w, mask);
}

// Resolves reconvergence and returns from calls until the warp stands at a real instruction;
// false when it has finished or waits.
bool SmCore::settle(Warp& w) {
    const uint32_t n = uint32_t(m_ctx.kernel->code.size());
    try {
        for (;;) {
            if (w.active == 0 || w.pc == w.rpc) {
                if (simt::reconverge(w)) continue;
                if (w.state == Warp::State::Done) return false;
                calls::finish_call(m_ctx, w);
                continue;
            }
            if (w.pc >= n) {  // ran off the end of the body: an implicit return
                simt::exit_lanes(w, w.active);
                continue;
            }
            return w.state == Warp::State::Ready;
        }
    } catch (const ExecFault& f) {
        raise_fault(w, f);
    }
}

void SmCore::execute(Warp& w, const Inst& in) {
    LaneMask m = w.active;
    if (in.guard >= 0) m &= in.guard_negated ? ~w.preds[in.guard] : w.preds[in.guard];
    ++w.pc;
    try {
        in.fn(m_ctx, w, in, m);
    } catch (const AccessFault& f) {
        --w.pc;
        raise_fault(w, f);
    } catch (const ExecFault& f) {
        --w.pc;
        raise_fault(w, f);
    }
}

// Functional mode's inner loop: execute() for one instruction after another of one warp.
uint64_t SmCore::run_warp(Warp& w, uint64_t budget) {
    const Inst* code = m_ctx.kernel->code.data();
    const uint32_t n = uint32_t(m_ctx.kernel->code.size());
    uint64_t issued = 0;
    uint64_t threads = 0;
    try {
        while (issued < budget) {
            // A warp that stands at an instruction (the common case) needs no settling.
            if ((w.active == 0 || w.pc == w.rpc || w.pc >= n) && !settle(w)) break;
            const Inst& in = code[w.pc];
            if ((in.dest_flags & kOrdered) && m_ctx.apart) {
                park(w);
                break;
            }
            LaneMask m = w.active;
            if (in.guard >= 0) m &= in.guard_negated ? ~w.preds[in.guard] : w.preds[in.guard];
            ++issued;
            ++m_ctx.issue_slots;   // %clock counts the instruction that reads it
            threads += lane_count(w.active);
            if (m_warm_line_bytes && in.op_class == OpClass::Memory) note_warm_lines(w, in, m);
            ++w.pc;
            try {
                in.fn(m_ctx, w, in, m);
            } catch (const PauseRequest&) {
                // It changed nothing: as if it had not issued.
                --w.pc;
                --issued;
                --m_ctx.issue_slots;
                threads -= lane_count(w.active);
                park(w);
                break;
            }
            if (w.state != Warp::State::Ready) break;
        }
    } catch (const AccessFault& f) {
        --w.pc;
        raise_fault(w, f);
    } catch (const ExecFault& f) {
        --w.pc;
        raise_fault(w, f);
    }
    m_stats.warp_instructions += issued;
    m_stats.thread_instructions += threads;
    return issued;
}

uint64_t SmCore::step(uint64_t budget, bool apart) {
    uint64_t issued = 0;
    const uint32_t nw = uint32_t(m_warps.size());
    m_ctx.apart = apart;
    if (!m_reserve.empty()) start_reserved();
    while (issued < budget && m_resident > 0) {
        const uint32_t i = (m_next_warp + m_sweep.pos) % nw;
        Warp& w = m_warps[i];
        if (m_warp_used[i] && w.state == Warp::State::Ready) {
            if (m_sweep.slice_left == 0) m_sweep.slice_left = m_cfg.warp_slice;
            const uint64_t n = run_slice(w, std::min(m_sweep.slice_left, budget - issued));
            issued += n;
            m_sweep.slice_left -= n;
            m_sweep.progressed |= n > 0;
            m_sweep.progressed |= after_slice(w);
            // Out of budget within the warp's slice: the next step goes on with it.
            if (issued == budget && w.state == Warp::State::Ready && m_sweep.slice_left > 0) break;
        }
        m_sweep.slice_left = 0;
        if (++m_sweep.pos < nw) continue;
        m_sweep.pos = 0;
        m_next_warp = (m_next_warp + 1) % nw;
        if (!m_sweep.progressed) {
            if (m_parked) break;   // what is left waits for the SM's turn
            check_deadlock();
            throw KernelFault(fmt::format("kernel '{}': SM {} has resident blocks but no warp can run", m_ctx.kernel->name, m_smid));
        }
        m_sweep.progressed = false;
    }
    m_clock.advance_to((m_ctx.issue_slots + m_cfg.warp_schedulers - 1) / m_cfg.warp_schedulers);
    return issued;
}

uint64_t SmCore::run_parked() {
    uint64_t issued = 0;
    m_ctx.apart = false;
    for (uint32_t i = 0; i < m_warps.size() && m_parked > 0; ++i) {
        Warp& w = m_warps[i];
        if (!m_warp_used[i] || w.state != Warp::State::Parked) continue;
        w.state = Warp::State::Ready;
        --m_parked;
        issued += run_slice(w, 1);
        after_slice(w);
    }
    m_clock.advance_to((m_ctx.issue_slots + m_cfg.warp_schedulers - 1) / m_cfg.warp_schedulers);
    return issued;
}

uint64_t SmCore::run_slice(Warp& w, uint64_t budget) {
    Cta& cta = m_ctas[w.cta_slot];
    m_ctx.shared = cta.shared.data();
    m_ctx.shared_size = uint32_t(cta.shared.size());
    return run_warp(w, budget);
}

// A warp that stopped at a barrier arrives there; one that exited retires, and a block it ends
// makes room for a reserved one. Whether anything moved.
bool SmCore::after_slice(Warp& w) {
    if (w.state == Warp::State::AtBarrier) {
        arrive(w);
        return true;
    }
    if (w.state == Warp::State::Done) {
        retire_warp(w);
        if (!m_reserve.empty()) start_reserved();
        return true;
    }
    return false;
}

void SmCore::park(Warp& w) {
    w.state = Warp::State::Parked;
    ++m_parked;
}

void SmCore::start_reserved() {
    while (!m_reserve.empty() && can_accept_cta()) {
        add_cta(m_reserve.front());
        m_reserve.pop_front();
    }
}

void SmCore::arrive(Warp& w) {
    Cta& cta = m_ctas[w.cta_slot];
    uint32_t id = w.barrier_id & 15;
    ++m_stats.barrier_waits;
    m_barrier.arrive(w.cta_slot, id, w.barrier_count, lane_count(w.barrier_pred), lane_count(w.barrier_lanes));
    w.barrier_since = m_clock.cycles();
    if (w.barrier_op == Warp::BarrierOp::Arrive) w.state = Warp::State::Ready;
    release_barrier(cta, id);
}

// A barrier opens when every live warp (or the named thread count) has arrived; in timing mode
// the waiting warps issue again after the unit's release latency.
void SmCore::release_barrier(Cta& cta, uint32_t id) {
    BarrierUnit::Barrier b;
    if (!m_barrier.release(uint32_t(&cta - m_ctas.data()), id, cta.live_warps, b)) return;
    if (m_ctx.racecheck) m_ctx.racecheck->barrier(m_smid, uint32_t(&cta - m_ctas.data()));
    const uint64_t now = m_clock.cycles();
    for (uint32_t k = 0; k < cta.num_warps; ++k) {
        Warp& w = m_warps[cta.first_warp + k];
        if (w.state != Warp::State::AtBarrier || (w.barrier_id & 15) != id) continue;
        w.state = Warp::State::Ready;
        deliver_reduction(w, b);
        if (m_units) {
            m_barrier.waited(now - w.barrier_since);
            w.ready_at = std::max(w.ready_at, now + m_barrier.release_latency());
            m_units->schedulers[w.scheduler]->resume(cta.first_warp + k);
        }
    }
    wake_schedulers();
}

// bar.red results reach every thread that waited: the count of true predicates, or whether all or
// any of the participating threads had a true predicate.
void SmCore::deliver_reduction(Warp& w, const BarrierUnit::Barrier& b) {
    LaneMask m = w.barrier_lanes;
    switch (w.barrier_op) {
    case Warp::BarrierOp::RedPopc:
        if (w.barrier_dest != kNoRow) for_lanes(m, [&](int l) { w.row(w.barrier_dest)[l] = b.popc; });
        break;
    case Warp::BarrierOp::RedAnd:
    case Warp::BarrierOp::RedOr: {
        bool r = w.barrier_op == Warp::BarrierOp::RedAnd ? b.popc == b.threads : b.popc != 0;
        w.preds[w.barrier_dest_pred] = (w.preds[w.barrier_dest_pred] & ~m) | (r ? m : 0);
        break;
    }
    default: break;
    }
    w.barrier_pred = 0;
}

void SmCore::retire_warp(Warp& w) {
    Cta& cta = m_ctas[w.cta_slot];
    uint32_t idx = cta.first_warp + w.warp_in_cta;
    m_warp_used[idx] = false;
    if (m_units) m_units->schedulers[w.scheduler]->remove(idx);
    --m_live_warps;
    // A warp is resident through the cycle it exits in (as resident_warp_cycles counts it).
    const bool record = m_signals.warps || m_signals.blocks;
    if (--cta.live_warps == 0) {
        if (m_trace)
            m_trace->span(TraceRecorder::kSmBase + int(m_smid), int(w.cta_slot),
                          fmt::format("block ({},{},{})", cta.ctaid[0], cta.ctaid[1], cta.ctaid[2]), "block", cta.started_ns,
                          now_ns(), {{"kernel", m_ctx.kernel->name}, {"block", cta.linear_id}, {"warps", cta.num_warps}});
        cta.in_use = false;
        --m_resident;
        if (record) record_residency(chip_cycle() + 1);
        ++m_stats.ctas_completed;
        return;
    }
    if (record) record_residency(chip_cycle() + 1);
    // Its exit may complete the barriers its block's other warps wait at.
    for (uint32_t ids = m_barrier.waiting(w.cta_slot); ids; ids &= ids - 1) release_barrier(cta, uint32_t(__builtin_ctz(ids)));
}

// A block whose live warps all wait, at barriers that cannot open: the report says which warps
// wait at which barrier (and for how many threads, for a named count) and which have exited.
void SmCore::check_deadlock() const {
    for (const Cta& cta : m_ctas) {
        if (!cta.in_use) continue;
        std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> waiting;  // (barrier, count) -> warps
        std::vector<uint32_t> exited;
        for (uint32_t k = 0; k < cta.num_warps; ++k) {
            const Warp& w = m_warps[cta.first_warp + k];
            if (w.state == Warp::State::AtBarrier) waiting[{w.barrier_id, w.barrier_count}].push_back(k);
            else if (w.state == Warp::State::Done) exited.push_back(k);
        }
        if (waiting.empty()) continue;
        auto warps = [](const std::vector<uint32_t>& v) {
            return fmt::format("{} {}", v.size() == 1 ? "warp" : "warps", fmt::join(v, ", "));
        };
        std::vector<std::string> parts;
        for (const auto& [key, ws] : waiting)
            parts.push_back(fmt::format("{} {} at barrier {}{}", warps(ws), ws.size() == 1 ? "waits" : "wait", key.first,
                                        key.second ? fmt::format(" for {} threads", key.second) : ""));
        if (!exited.empty()) parts.push_back(fmt::format("{} exited", warps(exited)));
        throw KernelFault(fmt::format("kernel '{}': barrier deadlock in block ({},{},{}): {}", m_ctx.kernel->name, cta.ctaid[0],
                                      cta.ctaid[1], cta.ctaid[2], fmt::join(parts, "; ")));
    }
}

// A kernel that runs past sim.max_cycles, or sim.timeout_seconds of host time, is stopped with
// every live warp's place and what it waits for, so a spin loop or a missed barrier shows where it is.
void SmCore::check_watchdog() const {
    if (m_resident == 0) return;
    std::string limit;
    if (m_cfg.max_cycles && m_clock.cycles() - m_launch_cycle > m_cfg.max_cycles)
        limit = fmt::format("sim.max_cycles ({} cycles)", m_cfg.max_cycles);
    else if (m_cfg.timeout_seconds > 0 &&
             std::chrono::duration<double>(std::chrono::steady_clock::now() - m_launch_time).count() > m_cfg.timeout_seconds)
        limit = fmt::format("sim.timeout_seconds ({} s of host time)", m_cfg.timeout_seconds);
    else
        return;
    constexpr size_t kShown = 16;  // warps named in full; the rest are counted
    std::string report;
    size_t live = 0;
    for (const Cta& cta : m_ctas) {
        if (!cta.in_use) continue;
        for (uint32_t k = 0; k < cta.num_warps; ++k) {
            const Warp& w = m_warps[cta.first_warp + k];
            if (w.state == Warp::State::Done) continue;
            if (live++ < kShown) report += fmt::format("\n  block ({},{},{}) warp {}: {}", cta.ctaid[0], cta.ctaid[1], cta.ctaid[2], k, warp_report(w));
        }
    }
    if (live > kShown) report += fmt::format("\n  and {} more warps", live - kShown);
    throw KernelFault(fmt::format("kernel '{}' ran past {} on SM {}; its live warps:{}", m_ctx.kernel->name, limit, m_smid, report),
                      FaultKind::Timeout);
}

std::string SmCore::warp_report(const Warp& w) const {
    const KernelImage& img = *m_ctx.kernel;
    const bool waits = w.state == Warp::State::AtBarrier;
    const Inst& in = img.code[waits && w.pc > 0 ? w.pc - 1 : w.pc];  // a waiting warp has moved past its barrier
    const std::string at = fmt::format("'{}' at {}:{}", img.text[in.text_index], img.module_file, in.source_line);
    if (waits) return fmt::format("{}: waits at barrier {}", at, w.barrier_id);
    if (w.ready_at > m_clock.cycles()) return fmt::format("{}: waits for an operand or a pipe until cycle {}", at, w.ready_at);
    return fmt::format("{}: issuing, waiting for nothing (a loop that does not end?)", at);
}

std::string SmCore::thread_name(const Cta& cta, uint32_t warp_in_cta, int lane) const {
    const LaunchInfo& l = *m_launch;
    uint32_t t = warp_in_cta * kWarpSize + uint32_t(lane < 0 ? 0 : lane);
    return fmt::format("block ({},{},{}) thread ({},{},{}) (warp {}, lane {})", cta.ctaid[0], cta.ctaid[1], cta.ctaid[2],
                       t % l.block.x, (t / l.block.x) % l.block.y, t / (l.block.x * l.block.y), warp_in_cta,
                       lane < 0 ? 0 : lane);
}

// A global address is also placed against what the program allocated: a null pointer, or the
// nearest allocation and the distance from it, as compute-sanitizer does.
void SmCore::raise_fault(const Warp& w, const AccessFault& f) const {
    const bool misaligned = f.misaligned();
    std::string what = fmt::format("{} {} of {} bytes at address 0x{:x} ({})", f.space, f.write ? "write" : "read", f.size,
                                   f.address, f.reason);
    const std::string_view space(f.space);
    if (!misaligned && (space == "global" || space == "generic")) {
        if (f.address < memory_map::kSharedWindowBase)
            what += ": a null pointer, or an offset from one";
        else if (std::string near = m_ctx.allocations ? m_ctx.allocations->locate(f.address) : ""; !near.empty())
            what += ": " + near;
    }
    raise_fault(w, f.lane, what, misaligned ? FaultKind::Misaligned : FaultKind::Memory);
}

// A failed device-side assert also prints CUDA's line for the thread, through the printf output.
void SmCore::raise_fault(const Warp& w, const ExecFault& f) const {
    if (f.kind == FaultKind::Assert && m_ctx.services) {
        const Cta& cta = m_ctas[w.cta_slot];
        const LaunchInfo& l = *m_launch;
        const LaneMask lanes = f.lanes ? f.lanes : LaneMask(1u << (f.lane < 0 ? 0 : f.lane));
        for_lanes(lanes, [&](int lane) {
            const uint32_t t = w.warp_in_cta * kWarpSize + uint32_t(lane);
            m_ctx.services->print(fmt::format("{}: block: [{},{},{}], thread: [{},{},{}] {}\n", f.where, cta.ctaid[0],
                                              cta.ctaid[1], cta.ctaid[2], t % l.block.x, (t / l.block.x) % l.block.y,
                                              t / (l.block.x * l.block.y), f.message), true);
        });
    }
    raise_fault(w, f.lane, f.message, f.kind);
}

void SmCore::raise_fault(const Warp& w, int lane, const std::string& what, FaultKind kind) const {
    const KernelImage& img = *m_ctx.kernel;
    const Inst& in = img.code[w.pc];
    std::string where = w.frames.empty() ? "" : fmt::format(" in function '{}'", img.functions[w.frames.back().callee].name);
    throw KernelFault(fmt::format("kernel '{}' faulted: {}: '{}' at {}:{}{}: {}", img.name,
                                  thread_name(m_ctas[w.cta_slot], w.warp_in_cta, lane), img.text[in.text_index],
                                  img.module_file, in.source_line, where, what), kind);
}

void SmCore::abort() {
    if (m_stores) m_stores->drain_all();   // a launch's end orders everything
    resolve_memory();   // what the LD/ST unit wrote down still reached the L2
    m_turn_wanted = false;
    if (m_units)
        for (uint32_t k = 0; k < m_warp_used.size(); ++k)
            if (m_warp_used[k]) m_units->schedulers[m_warps[k].scheduler]->remove(k);
    for (auto& c : m_ctas) c.in_use = false;
    std::fill(m_warp_used.begin(), m_warp_used.end(), false);
    m_resident = 0;
    m_live_warps = 0;
    m_sweep = Sweep{};
    m_parked = 0;
    m_reserve.clear();
    if (m_signals.warps || m_signals.blocks) record_residency(chip_cycle());
}

} // namespace gpusim
