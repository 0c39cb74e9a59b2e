#include "gpu/host_threads.h"

#include <algorithm>

#include "isa/reports.h"

namespace gpusim {

HostThreads::HostThreads(uint32_t threads) : m_lists(std::max(threads, 1u)) {
    for (uint32_t k = 1; k < threads; ++k) m_workers.emplace_back([this, k] { work(k); });
}

HostThreads::~HostThreads() {
    {
        std::lock_guard<std::mutex> lock(m_lock);
        m_stop = true;
        m_generation.fetch_add(1);
    }
    m_start.notify_all();
    for (std::thread& t : m_workers) t.join();
}

template <class Done>
bool HostThreads::spin_until(Done&& done) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (uint32_t k = 0;; ++k) {
        if (done()) return true;
        // The clock is read now and then: a spin of a few hundred loads costs less than a read.
        if ((k & 255) == 255 && std::chrono::steady_clock::now() > until) return false;
        std::this_thread::yield();
    }
}

void HostThreads::spread() {
    const int cpu = sched_getcpu();
    m_cpus.resize(m_workers.size());
    m_spread.assign(m_workers.size(), false);
    if (cpu < 0 || cpu >= CPU_SETSIZE) return;
    for (size_t k = 0; k < m_workers.size(); ++k) {
        const pthread_t t = m_workers[k].native_handle();
        if (pthread_getaffinity_np(t, sizeof(cpu_set_t), &m_cpus[k]) != 0) continue;
        cpu_set_t away = m_cpus[k];
        CPU_CLR(cpu, &away);
        // With fewer CPUs than threads, the workers would crowd the CPUs left to them.
        if (CPU_COUNT(&away) < int(m_workers.size())) continue;
        m_spread[k] = pthread_setaffinity_np(t, sizeof(cpu_set_t), &away) == 0;
    }
}

void HostThreads::settle() {
    for (size_t k = 0; k < m_spread.size(); ++k) {
        if (!m_spread[k]) continue;
        const pthread_t t = m_workers[k].native_handle();
        // The CPUs it had may be gone (a cpuset changed meanwhile): then it gets the caller's.
        if (pthread_setaffinity_np(t, sizeof(cpu_set_t), &m_cpus[k]) == 0) continue;
        cpu_set_t callers;
        if (pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), &callers) == 0)
            pthread_setaffinity_np(t, sizeof(cpu_set_t), &callers);
    }
    m_spread.clear();
}

// With no workers, or one job, everything runs here, in order; whether it did.
bool HostThreads::run_here(size_t n, const std::function<void(size_t)>& job) {
    if (!m_workers.empty() && n > 1) return false;
    for (size_t k = 0; k < n; ++k) job(k);
    return true;
}

void HostThreads::run(size_t n, const std::function<void(size_t)>& job) {
    if (run_here(n, job)) return;
    m_lists[0].jobs.clear();
    m_lists[0].count = n;
    start(job, 1);
}

void HostThreads::run_homed(size_t n, const std::function<size_t(size_t)>& home, const std::function<void(size_t)>& job) {
    if (run_here(n, job)) return;
    for (List& l : m_lists) l.jobs.clear();
    for (size_t k = 0; k < n; ++k) m_lists[home(k) % m_lists.size()].jobs.push_back(k);
    for (List& l : m_lists) l.count = l.jobs.size();
    start(job, m_lists.size());
}

// Runs the jobs of the first `lists` lists on every thread; returns when all have returned.
void HostThreads::start(const std::function<void(size_t)>& job, size_t lists) {
    {
        std::lock_guard<std::mutex> lock(m_lock);
        m_job = &job;
        m_used_lists = lists;
        for (size_t k = 0; k < lists; ++k) m_lists[k].next.store(0);
        m_busy.store(uint32_t(m_workers.size()));
        m_generation.fetch_add(1);
    }
    m_start.notify_all();
    take_jobs(0);
    if (!spin_until([this] { return m_busy.load() == 0; })) {
        std::unique_lock<std::mutex> lock(m_lock);
        m_done.wait(lock, [this] { return m_busy.load() == 0; });
    }
    m_job = nullptr;
}

void HostThreads::take_list(List& list) {
    for (size_t k; (k = list.next.fetch_add(1, std::memory_order_relaxed)) < list.count;)
        (*m_job)(list.jobs.empty() ? k : list.jobs[k]);
}

// Thread `id` takes its own list's jobs, then what is left of the others'.
void HostThreads::take_jobs(size_t id) {
    for (size_t k = 0; k < m_used_lists; ++k) take_list(m_lists[(id + k) % m_used_lists]);
}

void HostThreads::work(size_t id) {
    reports::mark_worker_thread();
    uint64_t seen = 0;
    for (;;) {
        if (!spin_until([&] { return m_generation.load() != seen; })) {
            std::unique_lock<std::mutex> lock(m_lock);
            m_start.wait(lock, [&] { return m_generation.load() != seen; });
        }
        {
            // The run's job and count were set under the lock, before the generation moved on.
            std::lock_guard<std::mutex> lock(m_lock);
            if (m_stop) return;
            seen = m_generation.load();
        }
        take_jobs(id);
        if (m_busy.fetch_sub(1) == 1) {
            std::lock_guard<std::mutex> lock(m_lock);
            m_done.notify_one();
        }
    }
}

} // namespace gpusim
