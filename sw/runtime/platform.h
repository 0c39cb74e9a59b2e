// The system the runtime drives: host memory, the GPU, and a host-side initiator that programs the
// GPU's registers over TLM, wired the way a user's own SystemC platform would wire them.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "../../rtl_models/gpu/gpu.h"
#include "../../tlm/memory/memory_target.h"

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

class Platform : public sc_core::sc_module {
public:
    MemoryTarget host_memory;
    Gpu gpu;
    HostPort cpu;
    sc_core::sc_signal<bool> irq;

    Platform(const sc_core::sc_module_name& name, const GpuConfig& cfg);
};

} // namespace gpusim
