// The system the runtime drives: host memory, the GPU, and a host-side initiator that programs the
// GPU's registers over TLM, wired the way a user's own SystemC platform would wire them. The
// waiter stops the simulation when the condition the host waits for holds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "gpu/gpu.h"
#include "memory/host_memory.h"

namespace gpusim {

// The host CPU's port onto the GPU's register block.
class HostPort : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<HostPort> socket;

    explicit HostPort(const sc_core::sc_module_name& name) : sc_module(name), socket("socket") {}

    void write32(uint32_t offset, uint32_t value);
    uint32_t read32(uint32_t offset);
    void write64(uint32_t offset_lo, uint64_t value) {
        write32(offset_lo, uint32_t(value));
        write32(offset_lo + 4, uint32_t(value >> 32));
    }
};

// Pauses the simulation (sc_pause) at the first command completion after which `done` holds.
class HostWaiter : public sc_core::sc_module {
public:
    HostWaiter(const sc_core::sc_module_name& name, const sc_core::sc_event& progress);
    void arm(const std::function<bool()>& done) { m_done = &done; }
    void disarm() { m_done = nullptr; }

private:
    const sc_core::sc_event& m_progress;
    const std::function<bool()>* m_done = nullptr;
    void thread();
};

class Platform : public sc_core::sc_module {
public:
    HostMemory host_memory;
    Gpu gpu;
    HostPort cpu;
    HostWaiter waiter;
    sc_core::sc_signal<bool> irq;

    // With `vcd.path`, the GPU's unit signals go into a waveform (timing mode only).
    Platform(const sc_core::sc_module_name& name, const GpuConfig& cfg, const VcdOptions& vcd = VcdOptions());
    // Prints what kernels printed with printf since the last call (CUDA flushes at sync points).
    void flush_device_output();
    // Closes the waveform, if there is one.
    void finish_waveform() {
        if (m_vcd) m_vcd->finish();
    }

private:
    std::unique_ptr<VcdRecorder> m_vcd;   // last: closed before the units it samples go
};

} // namespace gpusim
