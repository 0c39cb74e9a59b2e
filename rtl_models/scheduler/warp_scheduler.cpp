#include "scheduler/warp_scheduler.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace gpusim {
namespace {

// Loose round-robin: the warp after the one that issued last comes first.
class LooseRoundRobin : public SchedulingPolicy {
public:
    void add(uint32_t warp, uint64_t) override {
        m_warps.insert(std::upper_bound(m_warps.begin(), m_warps.end(), warp), warp);
        update();
    }
    void remove(uint32_t warp) override {
        m_warps.erase(std::find(m_warps.begin(), m_warps.end(), warp));
        update();
    }
    void issued(uint32_t warp) override {
        m_last = warp;
        update();
    }

private:
    std::vector<uint32_t> m_warps;
    uint32_t m_last = UINT32_MAX;

    void update() {
        size_t start = std::upper_bound(m_warps.begin(), m_warps.end(), m_last) - m_warps.begin();
        m_order = {m_warps.data(), m_warps.size(), m_warps.empty() ? 0 : start % m_warps.size()};
    }
};

// Greedy-then-oldest: keep issuing from the same warp until it stalls, then the oldest ready one.
class GreedyThenOldest : public SchedulingPolicy {
public:
    void add(uint32_t warp, uint64_t age) override {
        const auto at = std::upper_bound(m_ages.begin(), m_ages.end(), age) - m_ages.begin();
        m_ages.insert(m_ages.begin() + at, age);
        m_warps.insert(m_warps.begin() + at, warp);
        m_order = {m_warps.data(), m_warps.size(), 0, m_order.first};
    }
    void remove(uint32_t warp) override {
        const auto at = std::find(m_warps.begin(), m_warps.end(), warp) - m_warps.begin();
        m_ages.erase(m_ages.begin() + at);
        m_warps.erase(m_warps.begin() + at);
        m_order = {m_warps.data(), m_warps.size(), 0, m_order.first == warp ? CandidateOrder::kNone : m_order.first};
    }
    // The greedy warp comes first.
    void issued(uint32_t warp) override { m_order.first = warp; }

private:
    std::vector<uint64_t> m_ages;       // arrival order of the warps (unique), oldest first
    std::vector<uint32_t> m_warps;      // the warps in that order
};

// Two-level: round-robin among a small active set; a warp that waits on a long-latency result
// leaves it for the back of the pending queue, and the head of the queue takes its place. A warp
// at a barrier leaves both until its release.
class TwoLevel : public SchedulingPolicy {
public:
    explicit TwoLevel(uint32_t active) : m_size(std::max(active, 1u)) {}
    void add(uint32_t warp, uint64_t) override {
        m_queue.push_back(warp);
        fill();
    }
    void remove(uint32_t warp) override {
        leave_active(warp);
        erase(m_queue, warp);
        erase(m_waiting, warp);
        fill();
    }
    void issued(uint32_t warp) override {
        auto it = std::find(m_active.begin(), m_active.end(), warp);
        if (it != m_active.end()) m_next = size_t(it - m_active.begin()) + 1;
        update();
    }
    void long_stall(uint32_t warp) override {
        if (!leave_active(warp)) return;
        m_queue.push_back(warp);
        fill();
    }
    // A warp at a barrier leaves both lists: were it to come back into the active set from the
    // queue before its release, a set of waiting warps could keep out the ones they wait for.
    void barrier_wait(uint32_t warp) override {
        if (!leave_active(warp) && !erase(m_queue, warp)) return;
        m_waiting.push_back(warp);
        fill();
    }
    void resume(uint32_t warp) override {
        if (!erase(m_waiting, warp)) return;
        m_queue.push_back(warp);
        fill();
    }
    bool has_waiting() const override { return !m_waiting.empty(); }

private:
    size_t m_size;
    std::vector<uint32_t> m_active, m_queue, m_waiting;
    size_t m_next = 0;

    // The round-robin turn stays with the warp after the one that left.
    bool leave_active(uint32_t warp) {
        auto it = std::find(m_active.begin(), m_active.end(), warp);
        if (it == m_active.end()) return false;
        if (size_t(it - m_active.begin()) < m_next) --m_next;
        m_active.erase(it);
        return true;
    }
    static bool erase(std::vector<uint32_t>& v, uint32_t w) {
        auto it = std::find(v.begin(), v.end(), w);
        if (it == v.end()) return false;
        v.erase(it);
        return true;
    }
    void fill() {
        while (m_active.size() < m_size && !m_queue.empty()) {
            m_active.push_back(m_queue.front());
            m_queue.erase(m_queue.begin());
        }
        update();
    }
    void update() { m_order = {m_active.data(), m_active.size(), m_active.empty() ? 0 : m_next % m_active.size()}; }
};

} // namespace

std::unique_ptr<SchedulingPolicy> make_policy(const SchedulerConfig& cfg) {
    if (cfg.policy == "lrr") return std::make_unique<LooseRoundRobin>();
    if (cfg.policy == "gto") return std::make_unique<GreedyThenOldest>();
    if (cfg.policy == "two_level") return std::make_unique<TwoLevel>(cfg.active_warps);
    throw std::runtime_error(fmt::format("unknown scheduler policy '{}' (expected lrr, gto or two_level)", cfg.policy));
}

WarpScheduler::WarpScheduler(const sc_core::sc_module_name& name, const SchedulerConfig& cfg)
    : UnitModule(name), m_cfg(cfg), m_policy(make_policy(cfg)) {}

void WarpScheduler::issued(uint32_t warp, uint64_t cycle, uint64_t dispatch_cycles) {
    m_policy->issued(warp);
    ++m_issued;
    m_last_issue = cycle;
    if (m_cfg.serial_dispatch) m_busy_until = std::max(m_busy_until, cycle + dispatch_cycles);
}

namespace {
struct StallText {
    const char* key;
    const char* what;
};
// Indexed by WarpScheduler::Stall.
constexpr StallText kStallText[] = {
    {"stall_no_warp", "issue slots with no warp assigned to the scheduler (none resident)"},
    {"stall_no_eligible", "issue slots whose warps were all finishing (none had an instruction to offer)"},
    {"stall_dependency", "issue slots whose best candidate waited for an operand (not refined)"},
    {"stall_memory_dependency", "issue slots whose best candidate waited for a load, shared access or atomic result"},
    {"stall_exec_dependency", "issue slots whose best candidate waited for an ALU, SFU, fp64 or control result"},
    {"stall_cache_miss", "issue slots whose best candidate waited for a constant or texture access that missed"},
    {"stall_memory_structural", "issue slots lost to a full LD/ST pipe, or to a load that waited for an L1 MSHR"},
    {"stall_pipe_busy", "issue slots whose best candidate's execution pipe was still taken"},
    {"stall_dispatch", "issue slots in which the scheduler was still feeding a pipe (serial dispatch)"},
    {"stall_barrier", "issue slots whose warps all waited at a barrier"},
    {"stall_branch", "issue slots whose best candidate waited for its taken branch's target"},
};
static_assert(sizeof(kStallText) / sizeof(kStallText[0]) == size_t(WarpScheduler::Stall::Count));
} // namespace

const char* WarpScheduler::stall_name(Stall why) { return kStallText[int(why)].key; }

void WarpScheduler::report(nlohmann::json& out) const {
    stat(out, "issued", double(m_issued), "warp instructions", "warp instructions this scheduler issued");
    constant(out, "dispatch_width", double(m_cfg.dispatch), "slots per cycle", "warp instructions it may issue per cycle");
    for (int k = 0; k < int(Stall::Count); ++k)
        if (Stall(k) != Stall::Dependency) stat(out, kStallText[k].key, double(m_stalls[k]), "issue slots", kStallText[k].what);
}

} // namespace gpusim
