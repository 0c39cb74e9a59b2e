// The library's own host thread, standing in for the driver thread that runs CUDA's stream
// callbacks. It runs every host function (cudaLaunchHostFunc, cudaStreamAddCallback), so a
// callback never runs on a thread of the program's. And when host functions are pending while the
// program leaves the library alone (it may be waiting on a barrier for its callback), it moves
// the simulation on by itself, as the real GPU would go on without the host.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gpusim::cudart {

class HostThread {
public:
    // What a drive found: no host function pending (sleep until nudged), progress made (drive
    // again), or host functions pending that cannot move now (try again after a quiet period).
    enum class Drive { Idle, Progress, Stuck };
    // `drive` moves the simulation on if it can (it takes the library's lock without waiting for
    // it); it is called once the program has made no API call for `quiet`.
    HostThread(std::function<Drive()> drive, std::chrono::milliseconds quiet);
    HostThread(const HostThread&) = delete;
    HostThread& operator=(const HostThread&) = delete;

    // Runs fn on the host thread and returns when it has returned.
    void run(const std::function<void()>& fn);
    // Whether the calling thread is running a host function right now (CUDA calls are not
    // permitted there).
    static bool inside();
    // An API call: the program is still talking to the library.
    void touch() { m_last_call.store(now(), std::memory_order_relaxed); }
    // Wakes the thread to look for pending host functions to drive towards.
    void nudge();

private:
    std::function<Drive()> m_drive;
    std::chrono::milliseconds m_quiet;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_finished;
    const std::function<void()>* m_task = nullptr;
    bool m_nudged = false;
    std::atomic<int64_t> m_last_call{0};
    std::thread::id m_id;

    static int64_t now();
    void loop();
    void execute(const std::function<void()>& fn);
};

} // namespace gpusim::cudart
