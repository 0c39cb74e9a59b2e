#include "gpu/host_threads.h"

namespace gpusim {

HostThreads::HostThreads(uint32_t threads) {
    for (uint32_t k = 1; k < threads; ++k) m_workers.emplace_back([this] { work(); });
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

void HostThreads::run(size_t n, const std::function<void(size_t)>& job) {
    if (m_workers.empty() || n <= 1) {
        for (size_t k = 0; k < n; ++k) job(k);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_lock);
        m_job = &job;
        m_count = n;
        m_next.store(0);
        m_busy.store(uint32_t(m_workers.size()));
        m_generation.fetch_add(1);
    }
    m_start.notify_all();
    take_jobs();
    if (!spin_until([this] { return m_busy.load() == 0; })) {
        std::unique_lock<std::mutex> lock(m_lock);
        m_done.wait(lock, [this] { return m_busy.load() == 0; });
    }
    m_job = nullptr;
}

void HostThreads::take_jobs() {
    for (size_t k; (k = m_next.fetch_add(1, std::memory_order_relaxed)) < m_count;) (*m_job)(k);
}

void HostThreads::work() {
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
        take_jobs();
        if (m_busy.fetch_sub(1) == 1) {
            std::lock_guard<std::mutex> lock(m_lock);
            m_done.notify_one();
        }
    }
}

} // namespace gpusim
