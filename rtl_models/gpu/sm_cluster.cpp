#include "gpu/sm_cluster.h"

#include <algorithm>
#include <thread>

#include "isa/reports.h"

namespace gpusim {

SmCluster::SmCluster(std::vector<Sm*>& sms, uint32_t threads, uint64_t quantum_cycles, uint32_t schedulers, sc_core::sc_time cycle,
                     bool timing)
    : m_sms(sms), m_pool(std::max(threads, 1u)), m_quantum(std::max<uint64_t>(quantum_cycles, 1)),
      m_schedulers(std::max(schedulers, 1u)), m_cycle(cycle), m_timing(timing) {}

// What the grid has left, shared out evenly over the SMs (at least one block).
uint64_t SmCluster::even_share(const CtaDispatcher& d) const {
    return std::max<uint64_t>((d.remaining() + m_sms.size() - 1) / m_sms.size(), 1);
}

// Sets aside up to `want` more blocks for SM k, less near the grid's end, where what is left is
// shared out evenly over the SMs.
void SmCluster::set_aside(size_t k, uint64_t want, CtaDispatcher& d) {
    SmCore& core = m_sms[k]->core();
    want = std::min(want, even_share(d));
    uint64_t cta;
    while (core.reserved() < want && d.next(cta)) core.reserve_cta(cta);
}

void SmCluster::begin_quantum() {
    for (size_t k = 0; k < m_sms.size(); ++k) {
        Turn& t = m_turns[k];
        const SmCore& core = m_sms[k]->core();
        t.started = core.ctas_started();
        t.slots_left = m_quantum * m_schedulers;
        t.start_cycle = core.cycles();
        t.error = nullptr;
    }
}

// Runs f for SM k, keeping what stops it for the SM-order check after the round.
template <class F>
void SmCluster::guarded(size_t k, F&& f) {
    try {
        f(m_sms[k]->core(), m_turns[k]);
    } catch (...) {
        m_turns[k].error = std::current_exception();
    }
}

// The first of `sms` (in SM order) that stopped: a kernel fault stops the launch, anything else
// goes on up. Whether the launch stops.
bool SmCluster::stopped(const std::vector<size_t>& sms, CtaDispatcher& d) const {
    for (size_t k : sms) {
        if (!m_turns[k].error) continue;
        try {
            std::rethrow_exception(m_turns[k].error);
        } catch (const KernelFault& f) {
            d.abort(f.what(), f.kind());
        }
        return true;
    }
    return false;
}

void SmCluster::run(const LaunchInfo& launch, CtaDispatcher& d, bool one_thread) {
    const HostThreads::Spread spread(m_pool, !one_thread);
    m_turns = std::vector<Turn>(m_sms.size());
    // The relaxed memory model: a store reaching memory leaves its old value in the chip's log,
    // for the other SMs' late invalidations.
    for (Sm* sm : m_sms) {
        StoreBuffer* b = sm->core().store_buffer();
        if (!b) continue;
        if (!m_stale) {
            const StoreBufferConfig& c = b->config();
            m_stale = std::make_unique<StaleLog>(uint32_t(m_sms.size()), c.stale_entries, c.load_max_delay, c.seed);
        }
        b->connect(m_stale.get());
    }
    settle_memory();
    lend_registers(launch);
    const uint64_t start_cycle = uint64_t(sc_core::sc_time_stamp() / m_cycle + 0.5);
    for (Sm* sm : m_sms) {
        sm->cluster_begin(&launch);
        sm->cluster_quantum(start_cycle);
    }
    // The first blocks go round-robin, one per SM at a time, as the chip's distributor hands them
    // out; each SM starts them (and those set aside after) on its own host thread, in step().
    for (bool more = true; more;) {
        more = false;
        for (Sm* sm : m_sms) {
            uint64_t cta;
            if (sm->core().reserved() < sm->core().cta_limit() && d.next(cta)) {
                sm->core().reserve_cta(cta);
                more = true;
            }
        }
    }
    // Timing mode hands the rest out as blocks complete, in the SMs' turns.
    for (size_t k = 0; k < m_sms.size(); ++k) {
        if (!m_timing) set_aside(k, kFirstLoads * m_sms[k]->core().cta_limit(), d);
        m_sms[k]->core().set_wants_blocks(d.remaining() > 0);
    }
    // Timing mode's rounds overlap on several threads, unless an ordered instruction might read
    // what a reduction apart left (loader/ordering.h).
    const bool overlap = m_timing && !one_thread && threads() > 1 && !launch.kernel->reductions_meet_ordered;
    for (Sm* sm : m_sms) sm->core().set_turns_overlap(overlap);
    uint64_t elapsed = 0;
    for (;;) {
        begin_quantum();
        const bool stop = !m_timing ? run_quantum(d, one_thread)
                          : overlap ? run_overlapped_quantum(d)
                                    : run_timed_quantum(d, one_thread);
        if (m_warm)
            for (Sm* sm : m_sms) sm->core().warm_l2();
        uint64_t advance = 0;
        for (size_t k = 0; k < m_sms.size(); ++k) advance = std::max(advance, m_sms[k]->core().cycles() - m_turns[k].start_cycle);
        if (!m_projected) sc_core::wait(m_cycle * double(advance));
        reports::deliver();   // what the SMs posted on worker threads
        elapsed += advance;
        for (Sm* sm : m_sms) sm->trace_after_step();
        if (m_progress) m_progress->tick();
        if (stop || d.aborted()) break;
        // At the quantum's boundary each SM, in order, sets aside as many blocks as it started in
        // the quantum (at least a full load).
        bool busy = false;
        for (size_t k = 0; k < m_sms.size(); ++k) {
            SmCore& core = m_sms[k]->core();
            m_sms[k]->cluster_quantum(start_cycle + elapsed);
            const uint64_t started = core.ctas_started() - m_turns[k].started;
            if (!m_timing) set_aside(k, std::max<uint64_t>(core.cta_limit(), started), d);
            busy |= core.has_work();
        }
        if (!busy) break;
    }
    settle_memory();
    for (Sm* sm : m_sms) {
        sm->core().set_turns_overlap(false);
        sm->cluster_end();
    }
}

// Each SM's warp registers, from one arena: a few huge pages for the chip, kept for later launches.
void SmCluster::lend_registers(const LaunchInfo& launch) {
    std::vector<size_t> words(m_sms.size());
    size_t total = 0;
    for (size_t k = 0; k < m_sms.size(); ++k) total += words[k] = RegisterArena::share_words(m_sms[k]->core().register_words(launch));
    const size_t had = m_registers.capacity_words();
    uint64_t* share = m_registers.reserve(total);
    if (m_registers.capacity_words() != had) m_pool.run(RegisterArena::pieces(total), [this](size_t p) { m_registers.touch(p); });
    // ASan builds: everything but the warps' rows (which each SM exposes) stays poisoned.
    RegisterArena::hide(share, m_registers.capacity_words());
    for (size_t k = 0; k < m_sms.size(); ++k) {
        m_sms[k]->core().lend_registers(share);
        share += words[k];
    }
}

// A launch's boundary orders everything (the relaxed memory model): every buffered store reaches
// memory, and then every SM sees memory as it is.
void SmCluster::settle_memory() {
    if (!m_stale) return;
    for (Sm* sm : m_sms)
        if (StoreBuffer* b = sm->core().store_buffer()) b->drain_all();
    if (m_stale) m_stale->clear();
}

// Phase 1 of a round. On several host threads an SM's share goes in pieces, taken piece-major
// (every SM's first piece, then every SM's second, ...), so that the threads run out of work
// together instead of one finishing the last SM alone; the pieces of one SM run in order, and
// add up to what one step would do (SmCore::step). Each SM checks its watchdog at the end.
void SmCluster::run_apart(const std::vector<size_t>& runnable, bool one_thread) {
    const size_t n = runnable.size();
    const uint32_t pieces = one_thread || threads() == 1 || n < 2 ? 1 : kPieces;
    for (size_t k : runnable) {
        Turn& t = m_turns[k];
        t.piece = (t.slots_left + pieces - 1) / pieces;
        t.stopped_short = false;
        t.pieces_done.store(0, std::memory_order_relaxed);
    }
    const auto piece = [&](size_t i) {
        const uint32_t p = uint32_t(i / n);
        const size_t k = runnable[i % n];
        Turn& t = m_turns[k];
        // The SM's previous piece may still be running on another thread.
        while (t.pieces_done.load(std::memory_order_acquire) != p) std::this_thread::yield();
        if (!t.error)
            guarded(k, [&](SmCore& core, Turn& turn) {
                // A piece that stops short (every warp left parked or waiting, or no block left)
                // ends the SM's share, as one step would have stopped there.
                if (!turn.stopped_short) {
                    const uint64_t budget = std::min(turn.piece, turn.slots_left);
                    const uint64_t issued = core.step(budget, true);
                    turn.slots_left -= issued;
                    turn.stopped_short = issued < budget;
                }
                if (p + 1 == pieces) core.check_watchdog();
            });
        t.pieces_done.store(p + 1, std::memory_order_release);
    };
    if (one_thread) {
        for (size_t i = 0; i < n; ++i) piece(i);
    } else {
        m_pool.run_homed(n * pieces, [&](size_t i) { return runnable[i % n]; }, piece);
    }
}

// The rounds of one quantum; true when something stopped the launch.
bool SmCluster::run_quantum(CtaDispatcher& d, bool one_thread) {
    std::vector<size_t> runnable;
    for (;;) {
        runnable.clear();
        for (size_t k = 0; k < m_sms.size(); ++k)
            if (m_turns[k].slots_left > 0 && m_sms[k]->core().has_work()) runnable.push_back(k);
        if (runnable.empty()) return false;
        // 1. Each SM on its own.
        run_apart(runnable, one_thread);
        if (stopped(runnable, d)) return true;
        // 2. In SM order, each SM's turn: its parked warps go on; one out of blocks sets more aside.
        for (size_t k : runnable) {
            SmCore& core = m_sms[k]->core();
            Turn& t = m_turns[k];
            if (core.parked()) {
                guarded(k, [](SmCore& c, Turn& turn) { turn.slots_left -= std::min(turn.slots_left, c.run_parked()); });
                if (stopped({k}, d)) return true;
            }
            if (!core.has_work() && t.slots_left > 0)
                set_aside(k, std::max<uint64_t>(core.cta_limit(), core.ctas_started() - t.started), d);
        }
        end_memory_round();
    }
}

// The relaxed memory model: at each round's end, in SM order, every SM's store buffer lets out
// the stores due by the chip's time, the latest any SM has reached (SMs without work too: their
// stores still reach memory).
void SmCluster::end_memory_round() {
    if (!m_stale) return;   // the default model: nothing buffered, no work per round
    uint64_t now = 0;
    for (Sm* sm : m_sms) now = std::max(now, sm->core().chip_cycle());
    for (Sm* sm : m_sms) sm->core().end_memory_round(now);
}

void SmCluster::top_up(size_t k, uint64_t share, CtaDispatcher& d) {
    SmCore& core = m_sms[k]->core();
    uint64_t want = std::min<uint64_t>(core.cta_limit(), share);
    uint64_t cta;
    for (; want > 0 && core.reserved() == 0 && core.can_accept_cta() && d.next(cta); --want) core.add_cta(cta);
    while (core.reserved() < want && d.next(cta)) core.reserve_cta(cta);
    core.set_wants_blocks(d.remaining() > 0);
}

bool SmCluster::runnable_in_quantum(size_t k) const {
    const SmCore& core = m_sms[k]->core();
    return core.has_work() && core.cycles() < m_turns[k].start_cycle + m_quantum;
}

void SmCluster::step_apart(size_t k) {
    guarded(k, [&](SmCore&, Turn& t) { m_sms[k]->step_apart(t.start_cycle + m_quantum); });
}

// The rounds of one quantum in timing mode; true when something stopped the launch.
bool SmCluster::run_timed_quantum(CtaDispatcher& d, bool one_thread) {
    std::vector<size_t> runnable;
    for (;;) {
        runnable.clear();
        for (size_t k = 0; k < m_sms.size(); ++k)
            if (runnable_in_quantum(k)) runnable.push_back(k);
        if (runnable.empty()) return false;
        // 1. Each SM on its own, to the quantum's end at most.
        if (one_thread) {
            for (size_t k : runnable) step_apart(k);
        } else {
            m_pool.run_homed(runnable.size(), [&](size_t i) { return runnable[i]; }, [&](size_t i) { step_apart(runnable[i]); });
        }
        if (stopped(runnable, d)) return true;
        // 2. In SM order, each SM's turn: its requests reach the L2, a waiting warp issues, and
        // blocks from the grid fill the room that completed ones left, and a full load more is
        // set aside to start as blocks complete (near the grid's end, an even share of what the
        // grid had left when the turns began).
        const uint64_t share = even_share(d);
        for (size_t k : runnable) {
            guarded(k, [&](SmCore& core, Turn& t) { core.take_turn(t.start_cycle + m_quantum); });
            if (stopped({k}, d)) return true;
            top_up(k, share, d);
        }
        end_memory_round();
    }
}

} // namespace gpusim
