// Timing mode on several host threads: the rounds of a quantum overlap (sm_cluster.h).
//
// The round scheme (run_timed_quantum) runs every SM apart, waits for the last, then takes the
// turns one by one while the other threads idle. But SM k's turn in round r needs only its own
// part apart in round r and the turn before it (the turns go round r's SMs in order, then round
// r + 1's), and its part apart in round r + 1 needs only its own turn in round r: in a program
// without data races an SM apart touches nothing another SM's turn does, except through
// reductions apart, which a turn's ordered instruction might read (such kernels keep the round
// scheme: KernelImage::reductions_meet_ordered). So here the turns run in the same order, on
// whichever thread is free, while the other SMs run apart; the L2, device memory and the block
// distributor see exactly what the round scheme shows them.
#include <deque>
#include <mutex>
#include <thread>

#include "gpu/sm_cluster.h"

namespace gpusim {

// What the threads share, under `lock`.
struct SmCluster::Overlap {
    std::mutex lock;
    std::deque<size_t> ready;     // SMs whose next part apart may start, in the turns' order
    std::vector<char> apart_done; // per SM: its part apart of its current round has run
    std::vector<size_t> round;    // this round's SMs, in SM order
    std::vector<size_t> next;     // the next round's, as their turns in this round end
    size_t cursor = 0;            // round[cursor] takes the next turn
    uint64_t share = 0;           // top_up's share for this round's turns
    bool chain_taken = false;     // a thread is taking turns
    bool over = false;            // no part apart starts any more
    bool stop = false;            // a fault stopped the turns at the cursor
    uint32_t running = 0;         // parts apart running
    std::exception_ptr turn_error;

    bool turn_ready() const { return !over && cursor < round.size() && apart_done[round[cursor]]; }
};

// Faults: the round scheme reports the first SM in SM order whose part apart in the round
// faulted, else the first turn that faulted. Here the turns stop at the first fault in their
// order (an SM's part apart counted just before its turn); then every part apart of that round
// runs, and the same choice is made. What else the threads simulated by then may differ.
bool SmCluster::run_overlapped_quantum(CtaDispatcher& d) {
    Overlap o;
    o.apart_done.assign(m_sms.size(), 0);
    o.round.reserve(m_sms.size());
    o.next.reserve(m_sms.size());
    for (size_t k = 0; k < m_sms.size(); ++k)
        if (runnable_in_quantum(k)) o.round.push_back(k);
    if (o.round.empty()) return false;
    o.ready.assign(o.round.begin(), o.round.end());
    m_pool.run(threads(), [&](size_t) { overlap_work(o, d); });
    if (!o.stop) return false;
    // The first faulting part apart of the round, in SM order, else the turn.
    const std::vector<size_t> rest(o.round.begin() + std::ptrdiff_t(o.cursor), o.round.end());
    if (stopped(rest, d)) return true;
    m_turns[o.round[o.cursor]].error = o.turn_error;
    return stopped({o.round[o.cursor]}, d);
}

// One thread's share: the turns when the next is ready and no other thread takes them, else the
// oldest part apart that may start, until none is left.
void SmCluster::overlap_work(Overlap& o, CtaDispatcher& d) {
    std::unique_lock<std::mutex> g(o.lock);
    for (;;) {
        if (!o.chain_taken && o.turn_ready()) {
            o.chain_taken = true;
            g.unlock();
            overlap_turns(o, d);
            g.lock();
            o.chain_taken = false;
        } else if (!o.over && !o.ready.empty()) {
            const size_t k = o.ready.front();
            o.ready.pop_front();
            ++o.running;
            g.unlock();
            step_apart(k);
            g.lock();
            --o.running;
            o.apart_done[k] = 1;
        } else if (o.over && o.running == 0 && !o.chain_taken) {
            return;
        } else {
            g.unlock();
            std::this_thread::yield();
            g.lock();
        }
    }
}

// Takes turns while the next one's part apart has run. Only the thread holding the chain touches
// the distributor, the L2 and device memory.
void SmCluster::overlap_turns(Overlap& o, CtaDispatcher& d) {
    for (;;) {
        size_t k;
        {
            std::lock_guard<std::mutex> g(o.lock);
            if (!o.turn_ready()) return;
            k = o.round[o.cursor];
            if (o.cursor == 0) o.share = even_share(d);
        }
        Turn& t = m_turns[k];
        if (!t.error) {
            // Nothing may leave a pool thread: what stops the turn (or the block hand-out after
            // it) is kept for the caller.
            try {
                m_sms[k]->core().take_turn(t.start_cycle + m_quantum);
                top_up(k, o.share, d);
            } catch (...) {
                o.turn_error = std::current_exception();
            }
        }
        if (t.error || o.turn_error) {
            finish_round_after_fault(o);
            return;
        }
        std::lock_guard<std::mutex> g(o.lock);
        o.apart_done[k] = 0;
        if (runnable_in_quantum(k)) {
            o.next.push_back(k);
            o.ready.push_back(k);
        }
        if (++o.cursor == o.round.size()) {
            o.round.swap(o.next);
            o.next.clear();
            o.cursor = 0;
            o.over = o.round.empty();
        }
    }
}

// After a fault at the cursor: no part apart starts any more; once those running have ended, the
// parts apart of the round that had not run yet run here.
void SmCluster::finish_round_after_fault(Overlap& o) {
    {
        std::unique_lock<std::mutex> g(o.lock);
        o.over = o.stop = true;
        while (o.running > 0) {
            g.unlock();
            std::this_thread::yield();
            g.lock();
        }
    }
    for (size_t i = o.cursor; i < o.round.size(); ++i)
        if (!o.apart_done[o.round[i]]) step_apart(o.round[i]);
}

} // namespace gpusim
