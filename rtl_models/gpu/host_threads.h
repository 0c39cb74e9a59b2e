// A pool of host threads for the SMs of a functional-mode launch (SmCluster): run(n, job) calls
// job(0) .. job(n-1), spread over the pool's threads and the caller's, and returns when all have
// returned. Jobs take indices in turn from a shared counter, so a slow SM does not hold up a thread
// with others waiting behind it. Jobs must not throw.
//
// A launch calls run() for every round of every quantum, rounds that may take only tens of
// microseconds; so a thread that has run out of jobs spins for a while (kSpin), yielding, before
// it sleeps, and the next round starts without waking it through the kernel.
//
// run_homed() gives each job a home thread: a thread runs its own jobs first, in order, and then
// helps with the others'. An SM whose share of every round goes to the same thread keeps its
// warps and registers in that core's caches; when the SMs of a round went to whichever thread
// was free, the work of the short functional launches took a third longer on 2 threads than on 1.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <sched.h>

namespace gpusim {

class HostThreads {
public:
    // `threads` in all, the caller's included (1: everything runs in the caller).
    explicit HostThreads(uint32_t threads);
    ~HostThreads();
    HostThreads(const HostThreads&) = delete;
    HostThreads& operator=(const HostThreads&) = delete;

    uint32_t size() const { return uint32_t(m_workers.size()) + 1; }
    void run(size_t n, const std::function<void(size_t)>& job);
    // While it lives (a launch), the workers keep off the CPU the caller runs on, where the host
    // lets them run elsewhere. Linux sometimes leaves a woken worker on the caller's CPU, and the
    // two then take turns a millisecond at a time, longer than a short launch's rounds (on our
    // 2-core VM, 2 runs of 6 lost their second thread that way). The workers may use every other
    // CPU they had (on a 2-CPU host that is one: for the launch the worker is as good as pinned to
    // it, even if the caller moves), and get them all back at the end. With fewer CPUs than
    // threads it does nothing.
    class Spread {
    public:
        Spread(HostThreads& pool, bool on) : m_pool(on ? &pool : nullptr) {
            if (m_pool) m_pool->spread();
        }
        ~Spread() {
            if (m_pool) m_pool->settle();
        }
        Spread(const Spread&) = delete;
        Spread& operator=(const Spread&) = delete;

    private:
        HostThreads* m_pool;
    };
    // Like run(), with job i's home thread home(i) % size() (0 is the caller's).
    void run_homed(size_t n, const std::function<size_t(size_t)>& home, const std::function<void(size_t)>& job);

private:
    static constexpr std::chrono::microseconds kSpin{2000};
    std::vector<std::thread> m_workers;
    std::mutex m_lock;
    std::condition_variable m_start, m_done;
    const std::function<void(size_t)>* m_job = nullptr;
    // The jobs of each thread (run_homed), or of all in the first list (run), and how far the
    // threads have taken each list.
    struct alignas(64) List {
        std::vector<size_t> jobs;
        size_t count = 0;            // jobs 0 .. count-1 when `jobs` is empty
        std::atomic<size_t> next{0};
    };
    std::vector<List> m_lists;
    size_t m_used_lists = 1;
    std::atomic<uint64_t> m_generation{0};   // which run() the workers were called for
    std::atomic<uint32_t> m_busy{0};          // workers still in the current run()
    bool m_stop = false;
    std::vector<cpu_set_t> m_cpus;            // each worker's CPUs before spread()
    std::vector<bool> m_spread;               // whether spread() changed them

    bool run_here(size_t n, const std::function<void(size_t)>& job);
    void start(const std::function<void(size_t)>& job, size_t lists);
    void spread();
    void settle();
    void work(size_t id);
    void take_jobs(size_t id);
    void take_list(List& list);
    // Spins (yielding) until `done` holds or kSpin has passed; whether it holds.
    template <class Done>
    static bool spin_until(Done&& done);
};

} // namespace gpusim
