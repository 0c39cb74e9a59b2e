#include "cudart/host_thread.h"

namespace gpusim::cudart {

namespace {
thread_local bool t_inside = false;
}

HostThread::HostThread(std::function<Drive()> drive, std::chrono::milliseconds quiet)
    : m_drive(std::move(drive)), m_quiet(quiet) {
    touch();
    std::thread t([this] { loop(); });
    m_id = t.get_id();
    // Never joined: the library's state lives until the process ends, and so does this thread.
    t.detach();
}

int64_t HostThread::now() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool HostThread::inside() { return t_inside; }

void HostThread::execute(const std::function<void()>& fn) {
    t_inside = true;
    fn();
    t_inside = false;
}

void HostThread::run(const std::function<void()>& fn) {
    if (std::this_thread::get_id() == m_id) return execute(fn);
    std::unique_lock<std::mutex> lock(m_mutex);
    m_finished.wait(lock, [&] { return m_task == nullptr; });
    m_task = &fn;
    m_wake.notify_all();
    m_finished.wait(lock, [&] { return m_task != &fn; });
}

void HostThread::nudge() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_nudged = true;
    m_wake.notify_all();
}

void HostThread::loop() {
    const int64_t quiet_us = int64_t(m_quiet.count()) * 1000;
    std::unique_lock<std::mutex> lock(m_mutex);
    Drive last = Drive::Idle;
    for (;;) {
        if (m_task) {
            const std::function<void()>* task = m_task;
            lock.unlock();
            execute(*task);
            lock.lock();
            m_task = nullptr;
            m_finished.notify_all();
            continue;
        }
        const bool wanted = last != Drive::Idle || m_nudged;
        const int64_t idle = now() - m_last_call.load(std::memory_order_relaxed);
        if (wanted && idle >= quiet_us && last != Drive::Stuck) {
            m_nudged = false;
            lock.unlock();
            last = m_drive();
            lock.lock();
            continue;
        }
        if (!wanted) {
            m_wake.wait(lock, [&] { return m_task || m_nudged; });
            continue;
        }
        // Stuck, or the program spoke recently: look again after a quiet period.
        m_wake.wait_for(lock, std::chrono::microseconds(idle >= quiet_us ? quiet_us : quiet_us - idle));
        if (last == Drive::Stuck) last = Drive::Progress;
    }
}

} // namespace gpusim::cudart
