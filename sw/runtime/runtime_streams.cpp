// Streams, events, copies and waiting: the runtime's side of the command processor's channels.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "gpu/registers.h"
#include "runtime/platform.h"
#include "protocol/memory_map.h"
#include "runtime/runtime.h"

namespace gpusim {

namespace {
// The largest bounce buffer kept for the next pageable upload (a larger one goes back to the host).
constexpr uint64_t kSpareBounceBytes = uint64_t(256) << 20;
constexpr uint32_t kStaged = 1u << 16;

Error error_of(uint32_t code) {
    switch (code) {
    case reg::kFaultLaunchRejected: return Error::InvalidConfiguration;
    case reg::kFaultMemory: return Error::IllegalAddress;
    case reg::kFaultMisaligned: return Error::MisalignedAddress;
    case reg::kFaultAssert: return Error::Assert;
    case reg::kFaultTrap: return Error::LaunchFailure;
    case reg::kFaultDma: return Error::InvalidValue;
    case reg::kFaultTimeout: return Error::LaunchTimeout;
    default: return Error::LaunchFailure;
    }
}
} // namespace

Runtime::Stream& Runtime::stream(StreamId s) {
    auto it = m_streams.find(s);
    if (it == m_streams.end()) throw RuntimeError(fmt::format("stream {} does not exist", s), Error::InvalidResourceHandle);
    return it->second;
}

Runtime::Event& Runtime::event(EventId e) {
    auto it = m_events.find(e);
    if (it == m_events.end()) throw RuntimeError(fmt::format("event {} does not exist", e), Error::InvalidResourceHandle);
    return it->second;
}

void Runtime::select(uint32_t channel) { m_platform->cpu.write32(reg::kChannel, channel); }

// Records that the stream's channel took one more command.
void Runtime::submitted(StreamId s) {
    Stream& st = stream(s);
    st.last = ++m_submitted[st.channel];
}

uint32_t Runtime::completed(uint32_t channel) {
    select(channel);
    return m_platform->cpu.read32(reg::kChanCompleted);
}

// Whether the channel has completed `count` commands (the counters wrap at 32 bits).
bool Runtime::reached(uint32_t channel, uint32_t count) { return int32_t(completed(channel) - count) >= 0; }

// Runs the simulation until `done` holds: the platform's waiter pauses it at the first command
// completion after which it does, so simulated time stops where the host would wake up. Host
// functions that come due on the way run at their simulated time.
void Runtime::wait_until(const std::function<bool()>& done) {
    const std::function<bool()> stop = [&] { return done() || host_function_due(); };
    for (;;) {
        run_due_host_functions();
        if (done()) break;
        if (!sc_core::sc_pending_activity())
            throw RuntimeError("the GPU has no work left that could satisfy this wait (a stream waits for an event "
                               "that is never recorded)", Error::Unknown);
        run_simulation(stop);
    }
    m_platform->flush_device_output();
    retire();
    check_fault();
}

void Runtime::run_simulation(const std::function<bool()>& stop) {
    m_platform->waiter.arm(stop);
    sc_core::sc_start();
    m_platform->waiter.disarm();
}

bool Runtime::advance() {
    run_due_host_functions();
    const bool moved = sc_core::sc_pending_activity();
    if (moved) {
        static const std::function<bool()> any = [] { return true; };
        run_simulation(any);
        run_due_host_functions();
    }
    m_platform->flush_device_output();
    retire();
    check_fault();
    return moved;
}

void Runtime::check_fault() {
    HostPort& cpu = m_platform->cpu;
    const uint32_t code = cpu.read32(reg::kFaultCode);
    if (code == reg::kFaultNone) return;
    m_platform->flush_device_output();
    std::string msg = m_platform->gpu.front_end().fault_message();
    cpu.write32(reg::kControl, 1);
    drop_host_functions(error_of(code));
    throw RuntimeError(msg, error_of(code));
}

void Runtime::retire() {
    // Each list is split once into what stays and what goes: a 2D copy of 16,384 rows leaves as
    // many bounce buffers, and erasing them one at a time from the front moved the rest each time.
    const auto pending = [&](const auto& e) { return !reached(e.channel, e.after); };
    auto freed = std::stable_partition(m_pending_frees.begin(), m_pending_frees.end(), pending);
    for (auto it = freed; it != m_pending_frees.end(); ++it) unmap_allocation(it->p);   // again is harmless
    m_pending_frees.erase(freed, m_pending_frees.end());
    auto done = std::stable_partition(m_retiring.begin(), m_retiring.end(), pending);
    for (auto it = done; it != m_retiring.end(); ++it) {
        m_platform->host_memory.remove_window(it->buffer.data());
        // The largest bounce buffer stays for the next upload: its pages are already touched.
        if (it->buffer.capacity() > m_spare_bounce.capacity() && it->buffer.capacity() <= kSpareBounceBytes)
            m_spare_bounce = std::move(it->buffer);
    }
    m_retiring.erase(done, m_retiring.end());
}

void Runtime::queue_copy(uint32_t kind, uint64_t src, uint64_t dst, uint64_t bytes, StreamId s, bool staged, uint8_t fill,
                         const CopyRows& rows) {
    Stream& st = stream(s);
    select(st.channel);
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kDmaSrcLo, src);
    cpu.write64(reg::kDmaDstLo, dst);
    cpu.write64(reg::kDmaSizeLo, bytes);
    if (rows.count > 1) {
        cpu.write32(reg::kDmaRows, uint32_t(rows.count));
        cpu.write32(reg::kDmaSrcPitch, uint32_t(rows.src_pitch));
        cpu.write32(reg::kDmaDstPitch, uint32_t(rows.dst_pitch));
    }
    cpu.write32(reg::kDmaCmd, kind | (uint32_t(fill) << 8) | (staged ? kStaged : 0));
    submitted(s);
}

void Runtime::copy_to_device(DevicePtr dst, const void* src, uint64_t bytes, StreamId s, bool caller_waits) {
    check_fault();
    if (bytes == 0) return;
    check_range(dst, bytes, "copy to device");
    if (is_pinned(src, bytes)) return queue_copy(kH2D, reinterpret_cast<uint64_t>(src), dst, bytes, s, false);
    // Pageable, with the caller waiting: the engine reads the buffer in place (its timing is still
    // the staged copy's), as the program cannot touch the buffer before the copy is done.
    if (caller_waits && in_place_possible(src, bytes)) return copy_in_place(kH2D, reinterpret_cast<uint64_t>(src), dst, src, bytes, s);
    // Pageable: the bytes are taken now into a bounce buffer the engine reads later.
    stream(s);   // a stream that does not exist fails here, before the bounce buffer's window opens
    HostBytes bounce = bytes <= m_spare_bounce.capacity() ? std::move(m_spare_bounce) : HostBytes();
    m_spare_bounce = HostBytes();
    bounce.resize(bytes);
    std::memcpy(bounce.data(), src, bytes);
    m_platform->host_memory.add_window(bounce.data(), bytes, true);   // the engines' alone
    queue_copy(kH2D, reinterpret_cast<uint64_t>(bounce.data()), dst, bytes, s, true);
    m_retiring.push_back({stream(s).channel, stream(s).last, std::move(bounce)});
}

void Runtime::copy_to_host(void* dst, DevicePtr src, uint64_t bytes, StreamId s) {
    check_fault();
    if (bytes == 0) return;
    check_range(src, bytes, "copy to host");
    if (is_pinned(dst, bytes)) return queue_copy(kD2H, src, reinterpret_cast<uint64_t>(dst), bytes, s, false);
    // A pageable download always waits for its completion, so the engine writes the buffer in
    // place where it can.
    if (in_place_possible(dst, bytes)) return copy_in_place(kD2H, src, reinterpret_cast<uint64_t>(dst), dst, bytes, s);
    HostBytes bounce(bytes);
    copy_in_place(kD2H, src, reinterpret_cast<uint64_t>(bounce.data()), bounce.data(), bytes, s);
    std::memcpy(dst, bounce.data(), bytes);
}

// Not where the buffer shares bytes with a window of its own, and not in managed memory, whose
// host view the engine must not touch (its pages migrate at the program's own accesses).
bool Runtime::in_place_possible(const void* host, uint64_t bytes) const {
    const uint64_t a = reinterpret_cast<uint64_t>(host);
    if (memory_map::in_managed_window(a) || memory_map::in_managed_window(a + bytes - 1)) return false;
    return !m_platform->host_memory.overlaps(a, bytes);
}

// A staged copy whose host side is `host` itself, open to the copy engines until the copy is done.
void Runtime::copy_in_place(uint32_t kind, uint64_t src, uint64_t dst, const void* host, uint64_t bytes, StreamId s,
                            const CopyRows& rows) {
    stream(s);   // a stream that does not exist fails here, before the window opens
    const uint64_t width = rows.count > 1 ? bytes : 0;
    const uint64_t span = rows.count > 1 ? (rows.count - 1) * (kind == kH2D ? rows.src_pitch : rows.dst_pitch) + width : bytes;
    in_window(host, span, [&] {
        queue_copy(kind, src, dst, bytes, s, true, 0, rows);
        const Stream st = stream(s);
        wait_until([&] { return reached(st.channel, st.last); });
    });
}

// The host buffer open to the copy engines alone while `work` queues copies of it and waits for them.
void Runtime::in_window(const void* host, uint64_t bytes, const std::function<void()>& work) {
    m_platform->host_memory.add_window(host, bytes, true);
    try {
        work();
    } catch (...) {
        m_platform->host_memory.remove_window(host);
        throw;
    }
    m_platform->host_memory.remove_window(host);
}

void Runtime::copy_device(DevicePtr dst, DevicePtr src, uint64_t bytes, StreamId s) {
    check_fault();
    if (bytes == 0) return;
    check_range(src, bytes, "device copy source");
    check_range(dst, bytes, "device copy destination");
    queue_copy(kD2D, src, dst, bytes, s, false);
}

void Runtime::fill(DevicePtr dst, uint8_t value, uint64_t bytes, StreamId s) {
    check_fault();
    if (bytes == 0) return;
    check_range(dst, bytes, "memset");
    queue_copy(kFill, 0, dst, bytes, s, false, value);
}

void Runtime::memcpy_to_device(DevicePtr dst, const void* src, uint64_t bytes) {
    copy_to_device(dst, src, bytes, 0, true);
    synchronize(0);
}

void Runtime::memcpy_to_host(void* dst, DevicePtr src, uint64_t bytes) {
    copy_to_host(dst, src, bytes, 0);
    synchronize(0);
}

void Runtime::memcpy_device(DevicePtr dst, DevicePtr src, uint64_t bytes) {
    copy_device(dst, src, bytes, 0);
    synchronize(0);
}

void Runtime::memset(DevicePtr dst, uint8_t value, uint64_t bytes) {
    fill(dst, value, bytes, 0);
    synchronize(0);
}

// Streams beyond the channel count share channels 1..n-1 round-robin (as Fermi's single
// hardware queue makes all streams share one): they then also wait for each other.
StreamId Runtime::create_stream(bool non_blocking, uint32_t priority) {
    const StreamId id = m_next_stream++;
    Stream st;
    st.channel = m_channels > 1 ? 1 + (id - 1) % (m_channels - 1) : 0;
    st.last = m_submitted[st.channel];
    st.non_blocking = non_blocking;
    st.priority = std::min(priority, std::max(m_cfg.stream_priorities, 1u) - 1);
    select(st.channel);
    m_platform->cpu.write32(reg::kChanFlags, (non_blocking ? 1 : 0) | st.priority << 8);
    m_streams[id] = st;
    return id;
}

void Runtime::destroy_stream(StreamId s) {
    if (s == 0) throw RuntimeError("the default stream cannot be destroyed", Error::InvalidResourceHandle);
    stream(s);
    m_streams.erase(s);   // its queued work still completes, as CUDA's does
}

// A query that finds the work unfinished moves the simulation on (see advance()).
bool Runtime::stream_done(StreamId s) {
    const Stream st = stream(s);
    if (!reached(st.channel, st.last)) advance();
    const bool done = reached(st.channel, st.last);
    check_fault();
    return done;
}

void Runtime::synchronize(StreamId s) {
    const Stream st = stream(s);
    wait_until([&] { return reached(st.channel, st.last); });
}

void Runtime::synchronize() {
    wait_until([&] {
        for (uint32_t c = 0; c < m_channels; ++c)
            if (!reached(c, m_submitted[c])) return false;
        return true;
    });
}

EventId Runtime::create_event() {
    const EventId id = m_next_event++;
    Event& ev = m_events[id];
    ev.slot.reset(new uint64_t[2]{0, 0});
    m_platform->host_memory.add_window(ev.slot.get(), 16);
    return id;
}

void Runtime::destroy_event(EventId e) {
    Event& ev = event(e);
    if (ev.recorded && ev.slot[0] < ev.recorded) synchronize_event(e);   // the GPU still writes it
    m_platform->host_memory.remove_window(ev.slot.get());
    m_events.erase(e);
}

void Runtime::semaphore(uint32_t cmd, const void* address, uint64_t payload, StreamId s) {
    Stream& st = stream(s);
    select(st.channel);
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kSemAddrLo, reinterpret_cast<uint64_t>(address));
    cpu.write64(reg::kSemPayloadLo, payload);
    cpu.write32(reg::kSemCmd, cmd);
    submitted(s);
}

void Runtime::record_event(EventId e, StreamId s) {
    check_fault();
    Event& ev = event(e);
    stream(s);
    ev.recorded = m_next_payload++;
    semaphore(1, ev.slot.get(), ev.recorded, s);
}

bool Runtime::event_done(EventId e) {
    Event& ev = event(e);
    if (ev.slot[0] < ev.recorded) advance();
    check_fault();
    return ev.slot[0] >= ev.recorded;
}

void Runtime::synchronize_event(EventId e) {
    Event& ev = event(e);
    wait_until([&] { return ev.slot[0] >= ev.recorded; });
}

double Runtime::event_time_ns(EventId e) {
    Event& ev = event(e);
    if (!ev.recorded) throw RuntimeError(fmt::format("event {} was never recorded", e), Error::InvalidResourceHandle);
    if (ev.slot[0] < ev.recorded) throw RuntimeError(fmt::format("event {} has not completed", e), Error::NotReady);
    return double(ev.slot[1]);
}

void Runtime::stream_wait_event(StreamId s, EventId e) {
    check_fault();
    Event& ev = event(e);
    stream(s);
    if (ev.recorded) semaphore(2, ev.slot.get(), ev.recorded, s);
}

} // namespace gpusim
