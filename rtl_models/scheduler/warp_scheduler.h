// A warp scheduler: the warps assigned to it (Fermi: even warp slots to one scheduler, odd to the
// other) and the policy that orders them each cycle. The SM asks for the candidates in priority
// order and issues the first whose operands and pipe are ready.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/unit_module.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct SchedulerConfig {
    std::string policy = "gto";      // lrr, gto, two_level
    uint32_t dispatch = 1;           // warp instructions one scheduler issues per cycle
    bool serial_dispatch = false;    // the scheduler waits while a pipe takes a warp's operands (cc 1.x)
    uint32_t active_warps = 8;       // two_level: size of the active set
    uint32_t long_latency_cycles = 200;   // two_level: a memory access slower than this leaves the active set
};

// The keys scheduler.* (scheduler_keys.cpp).
void declare_keys(ConfigSection<SchedulerConfig>& s);

// Candidate warps in priority order: `first` when there is one, then warps[(start + k) % count]
// for k = 0, 1, ... The first warp (GTO's greedy one) is also among `warps`, where the consumer
// skips it (repeat()): the list then need not be rebuilt each time the greedy warp changes.
struct CandidateOrder {
    static constexpr uint32_t kNone = UINT32_MAX;
    const uint32_t* warps = nullptr;
    size_t count = 0;
    size_t start = 0;
    uint32_t first = kNone;

    size_t size() const { return count + (first != kNone); }
    // start < count and k < count, so one subtraction replaces the modulo (a division per
    // candidate was the hottest instruction of the timing mode).
    uint32_t operator[](size_t k) const {
        if (first != kNone) {
            if (k == 0) return first;
            --k;
        }
        const size_t i = start + k;
        return warps[i < count ? i : i - count];
    }
    // Whether `warp`, at position k, is the first warp offered again.
    bool repeat(size_t k, uint32_t warp) const { return warp == first && k != 0; }
};

// A scheduling policy, chosen by name in the config (scheduler.policy). Each call that changes
// the priorities brings the candidate order up to date, so reading it (every scan) costs no call.
class SchedulingPolicy {
public:
    virtual ~SchedulingPolicy() = default;
    virtual void add(uint32_t warp, uint64_t age) = 0;
    virtual void remove(uint32_t warp) = 0;
    virtual void issued(uint32_t warp) = 0;
    // The warp waits for a long-latency result (two-level scheduling moves it out of the active set).
    virtual void long_stall(uint32_t warp) { (void)warp; }
    // The warp waits at a barrier until resume(): two-level scheduling keeps it out of the active
    // set meanwhile, which the warps the barrier waits for may need.
    virtual void barrier_wait(uint32_t warp) { (void)warp; }
    virtual void resume(uint32_t warp) { (void)warp; }
    // Whether a warp of the scheduler waits at a barrier outside the candidates.
    virtual bool has_waiting() const { return false; }
    // Candidate warps, highest priority first; valid until the next call that changes the policy.
    const CandidateOrder& order() const { return m_order; }

protected:
    CandidateOrder m_order;
};

std::unique_ptr<SchedulingPolicy> make_policy(const SchedulerConfig& cfg);

class WarpScheduler : public UnitModule {
public:
    WarpScheduler(const sc_core::sc_module_name& name, const SchedulerConfig& cfg);

    void add(uint32_t warp, uint64_t age) { m_policy->add(warp, age); }
    // A policy that brings a pending warp into the candidates in the warp's place (two-level)
    // wakes the scheduler, which may have gone to sleep until an event.
    void remove(uint32_t warp) {
        const size_t before = candidates().size();
        m_policy->remove(warp);
        if (candidates().size() >= before) wake();
    }
    const CandidateOrder& candidates() const { return m_policy->order(); }
    void issued(uint32_t warp, uint64_t cycle, uint64_t dispatch_cycles);
    void long_stall(uint32_t warp) { m_policy->long_stall(warp); }
    void barrier_wait(uint32_t warp) { m_policy->barrier_wait(warp); }
    void resume(uint32_t warp) { m_policy->resume(warp); }
    bool has_waiting() const { return m_policy->has_waiting(); }
    // Whether the scheduler can dispatch at `cycle` (with serial dispatch it waits for the pipe).
    bool ready(uint64_t cycle) const { return m_busy_until <= cycle; }
    bool issued_at(uint64_t cycle) const { return m_last_issue == cycle; }
    uint64_t busy_until() const { return m_busy_until; }
    uint32_t dispatch_width() const { return m_cfg.dispatch; }

    // Why an issue slot went unused: the reason of the best candidate warp (docs/profiling.md).
    // Dependency and PipeBusy are what a scan finds; the SM refines them into the reasons after
    // them (which producer a dependency waits on, which pipe is busy) before counting.
    enum class Stall : uint8_t {
        NoWarp,             // no warp assigned to the scheduler (none resident)
        NoEligible,         // warps assigned, none at an instruction it could offer (finishing)
        Dependency,         // (scan only) an operand is not written yet
        MemoryDependency,   // ... by a load, shared access, atomic (or a fence waits for them)
        ExecDependency,     // ... by an ALU, SFU, fp64, conversion or control instruction
        CacheMiss,          // ... by a constant or texture access that missed its cache
        MemoryStructural,   // the LD/ST pipe is full, or the awaited load waited for an MSHR
        PipeBusy,           // the execution pipe the instruction needs is still taken
        Dispatch,           // the scheduler itself is still feeding a pipe (serial dispatch)
        Barrier,            // every candidate, or a warp kept out of them (two-level), waits at a barrier
        Branch,             // the best candidate waits for its taken branch's target
        Count
    };
    static const char* stall_name(Stall why);
    // Counts `slots` issue slots (cycles times the dispatch width, less what issued) as lost to `why`.
    void stalled(Stall why, uint64_t slots) { m_stalls[int(why)] += slots; }

    // After a scan that found nothing to issue: none of the scheduler's warps can issue before
    // `until` (a lower bound the SM computed), so the SM skips its scans until then. Only a barrier
    // release or a new warp can make that earlier; the SM then wakes it.
    void sleep(uint64_t until, Stall why) { m_wake_at = until; m_sleep_why = why; }
    void wake() { m_wake_at = 0; }
    bool asleep(uint64_t cycle) const { return m_wake_at > cycle; }
    uint64_t wake_at() const { return m_wake_at; }
    Stall sleep_reason() const { return m_sleep_why; }

    void report(nlohmann::json& out) const override;

private:
    SchedulerConfig m_cfg;
    std::unique_ptr<SchedulingPolicy> m_policy;
    uint64_t m_busy_until = 0;
    uint64_t m_last_issue = UINT64_MAX;
    uint64_t m_issued = 0;
    uint64_t m_stalls[int(Stall::Count)] = {};
    uint64_t m_wake_at = 0;
    Stall m_sleep_why = Stall::NoWarp;
};

} // namespace gpusim
