// Host functions in stream order (cudaLaunchHostFunc, cudaStreamAddCallback), built from two
// semaphores as a GPU driver builds them: the channel releases one that tells the host the
// function is due, then waits on a second that the host releases once the function returned.
#include <fmt/format.h>

#include "gpu/registers.h"
#include "runtime/platform.h"
#include "runtime/runtime.h"

namespace gpusim {

namespace {
constexpr uint32_t kRelease = 1, kAcquire = 2;
constexpr size_t kDue = 0, kDone = 2;       // words of a slot
constexpr uint64_t kSlotBytes = 32;
} // namespace

void Runtime::launch_host_function(StreamId s, HostFunction fn, bool on_error) {
    check_fault();
    if (!fn) throw RuntimeError("host function: null function", Error::InvalidValue);
    stream(s);
    PendingHostFunction h;
    h.slot.reset(new uint64_t[kSlotBytes / 8]{});
    h.fn = std::move(fn);
    h.on_error = on_error;
    m_platform->host_memory.add_window(h.slot.get(), kSlotBytes);
    semaphore(kRelease, &h.slot[kDue], 1, s);
    semaphore(kAcquire, &h.slot[kDone], 1, s);
    h.channel = stream(s).channel;
    h.after = stream(s).last;
    m_host_functions.push_back(std::move(h));
}

bool Runtime::host_function_due() const {
    for (const PendingHostFunction& h : m_host_functions)
        if (!h.ran && h.slot[kDue] != 0) return true;
    return false;
}

// Runs every due host function in the order they came due, releases its channel, and forgets
// those whose channel has moved past them.
void Runtime::run_due_host_functions() {
    bool rang = false;
    for (size_t k = 0; k < m_host_functions.size(); ++k) {
        PendingHostFunction& h = m_host_functions[k];
        if (h.ran || h.slot[kDue] == 0) continue;
        h.ran = true;
        HostFunction fn = std::move(h.fn);
        if (m_host_runner) m_host_runner([&] { fn(Error::Success); });
        else fn(Error::Success);
        m_host_functions[k].slot[kDone] = 1;   // the vector may not move while fn runs: no API call may enter
        rang = true;
    }
    if (rang) m_platform->cpu.write32(reg::kDoorbell, 1);
    for (size_t k = 0; k < m_host_functions.size();) {
        PendingHostFunction& h = m_host_functions[k];
        if (h.ran && reached(h.channel, h.after)) {
            m_platform->host_memory.remove_window(h.slot.get());
            m_host_functions.erase(m_host_functions.begin() + long(k));
        } else {
            ++k;
        }
    }
}

// A fault dropped every queued command: host functions that had not run never will; callbacks
// (on_error) are told why, as CUDA passes the error to a stream callback.
void Runtime::drop_host_functions(Error status) {
    std::vector<PendingHostFunction> dropped;
    dropped.swap(m_host_functions);
    for (PendingHostFunction& h : dropped) {
        m_platform->host_memory.remove_window(h.slot.get());
        if (h.ran || !h.on_error) continue;
        if (m_host_runner) m_host_runner([&] { h.fn(status); });
        else h.fn(status);
    }
}

} // namespace gpusim
