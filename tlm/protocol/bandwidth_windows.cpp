#include "protocol/bandwidth_windows.h"

#include <algorithm>

namespace gpusim {

namespace {
size_t ring_size(uint32_t window_cycles, uint64_t quantum_cycles) {
    const uint64_t quantum_windows = quantum_cycles / window_cycles + 1;
    return size_t(std::max<uint64_t>(4096, 4 * quantum_windows));
}
} // namespace

BandwidthWindows::BandwidthWindows(uint32_t ports, double bytes_per_cycle, uint32_t window_cycles, uint64_t quantum_cycles)
    : m_window(std::max(window_cycles, 1u)), m_bytes_per_cycle(bytes_per_cycle), m_ring(ring_size(m_window, quantum_cycles)),
      m_windows(size_t(std::max(ports, 1u)) * m_ring) {}

uint32_t BandwidthWindows::queue(uint32_t port, uint32_t bytes, uint64_t at) {
    const double capacity = m_bytes_per_cycle * m_window;
    uint64_t id = at / m_window;
    for (;; ++id) {
        Window& w = m_windows[size_t(port) * m_ring + id % m_ring];
        if (w.id != id) w = Window{id, 0.0};   // a window not used yet (or long past)
        if (w.bytes + bytes <= capacity || w.bytes == 0) {
            w.bytes += bytes;
            break;
        }
    }
    m_busy_cycles += double(bytes) / m_bytes_per_cycle;
    const uint64_t start = id * m_window;
    const uint32_t wait = start > at ? uint32_t(start - at) : 0;
    m_queue_cycles += wait;
    return wait;
}

} // namespace gpusim
