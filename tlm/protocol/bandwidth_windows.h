// Bandwidth of a set of parallel ports (device memory's channels, the L2's slices), accounted per
// window of time. Requests come from SMs that each run ahead of SystemC time by up to a quantum
// (temporal decoupling), so they do not arrive in time order: a transfer takes its bytes from the
// window of its cycle, or from the first later window with room, and waits until that window
// starts. Bandwidth is exact to a window; queueing is approximate to a window.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusim {

class BandwidthWindows {
public:
    // `ports` ports of `bytes_per_cycle` each; `quantum_cycles`: how far apart in time requests
    // may arrive (the windows remembered cover four quanta, and at least 4096 windows).
    BandwidthWindows(uint32_t ports, double bytes_per_cycle, uint32_t window_cycles, uint64_t quantum_cycles);

    // Cycles a transfer of `bytes` reaching `port` at cycle `at` waits for room; takes the room.
    uint32_t queue(uint32_t port, uint32_t bytes, uint64_t at);
    double bytes_per_cycle() const { return m_bytes_per_cycle; }
    uint64_t queue_cycles() const { return m_queue_cycles; }   // waits, summed
    double busy_cycles() const { return m_busy_cycles; }       // transfer time, summed over ports

private:
    struct Window {
        uint64_t id = UINT64_MAX;
        double bytes = 0;
    };
    uint32_t m_window;
    double m_bytes_per_cycle;
    size_t m_ring;                        // windows remembered per port
    std::vector<Window> m_windows;        // a ring of recent windows per port
    uint64_t m_queue_cycles = 0;
    double m_busy_cycles = 0;
};

} // namespace gpusim
