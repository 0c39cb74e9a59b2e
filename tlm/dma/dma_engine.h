// Host DMA (copy) engine: moves data between host memory and device memory as a TLM initiator,
// in bursts. Its host socket goes through the PCIe link, which paces the bursts; a staged copy
// (from or to pageable memory) also pays the host's memcpy into the bounce buffer for each burst.
// Copies within device memory and fills are paced by device memory's bandwidth (a copy reads and
// writes every byte). Descriptors queue in order.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "pcie/pcie_config.h"
#include "protocol/copy_engine_access.h"

namespace gpusim {


struct DmaDescriptor {
    enum class Kind : uint8_t { HostToDevice = 1, DeviceToHost = 2, DeviceToDevice = 3, Fill = 4 };
    Kind kind = Kind::HostToDevice;
    uint64_t src = 0;
    uint64_t dst = 0;
    uint64_t size = 0;
    uint8_t fill = 0;
    bool staged = false;      // the host side is a bounce buffer filled or drained by the host CPU
    // A 2D copy (cudaMemcpy2D, a slice of cudaMemcpy3D, cudaMemset2D): `rows` rows of `size`
    // bytes, their starts `src_pitch` and `dst_pitch` apart.
    uint32_t rows = 1;
    uint64_t src_pitch = 0, dst_pitch = 0;
};

class DmaEngine : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<DmaEngine> host;     // toward host memory
    tlm_utils::simple_initiator_socket<DmaEngine> device;   // toward device memory

    // device_gb_s: device memory's bandwidth (GB/s) for device-to-device copies and fills; 0 for none.
    DmaEngine(const sc_core::sc_module_name& name, const PcieConfig& cfg, double device_gb_s = 0);
    ~DmaEngine() override;

    void submit(const DmaDescriptor& d);
    bool busy() const { return m_busy || !m_queue.empty(); }
    bool error() const { return m_error; }
    uint64_t error_address() const { return m_error_address; }
    void clear_error() { m_error = false; }
    // Notified after every descriptor.
    const sc_core::sc_event& done_event() const { return m_done; }
    uint64_t completed() const { return m_completed; }
    uint64_t bytes_moved() const { return m_bytes; }

private:
    PcieConfig m_cfg;
    double m_device_gb_s;
    std::deque<DmaDescriptor> m_queue;
    sc_core::sc_event m_kick;
    sc_core::sc_event m_done;
    bool m_busy = false;
    bool m_error = false;
    uint64_t m_error_address = 0;
    uint64_t m_bytes = 0;
    uint64_t m_completed = 0;

    // One payload for every transfer (a payload allocates its extension slots when made), marked
    // as a copy engine's.
    tlm::tlm_generic_payload m_payload;
    CopyEngineAccess m_marker;
    tlm::tlm_dmi m_dmi[2];            // device memory the engine reaches directly (a copy's two sides)
    int m_dmi_next = 0;               // the slot the next grant replaces

    void run();
    void execute(const DmaDescriptor& d);
    void execute_rows(const DmaDescriptor& d);
    // The bursts of one row of `d` (its src and dst already the row's), each burst's time added to
    // `delay`; with `wait_each`, the engine waits out the delay after every burst.
    void row_bursts(const DmaDescriptor& d, std::vector<uint8_t>& buf, sc_core::sc_time& delay, bool wait_each);
    bool burst(const DmaDescriptor& d, uint64_t done, uint32_t n, std::vector<uint8_t>& buf, sc_core::sc_time& delay);
    // Where device memory's [addr, addr+len) is in this process, or null where the engine must
    // go through the socket (no direct access there, or the range leaves the granted region).
    uint8_t* device_bytes(uint64_t addr, uint32_t len);
    void invalidate_device(sc_dt::uint64 start, sc_dt::uint64 end);
    bool transfer(tlm_utils::simple_initiator_socket<DmaEngine>& s, tlm::tlm_command cmd, uint64_t addr,
                  uint8_t* data, uint32_t len, sc_core::sc_time& delay);
};

} // namespace gpusim
