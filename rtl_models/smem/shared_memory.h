// Shared memory banks: how many passes a warp's shared access needs under the bank rules of the
// configured generation. The data itself lives with the CTA; this unit prices the access.
//
// Threads are served in groups (a half-warp on cc 1.x; otherwise as many threads as one pass can
// feed with the access width, e.g. 16 for 64-bit on Fermi). Within a group a bank serves one row
// (banks x bank width bytes) per pass, and every thread reading inside that row is served with it
// (broadcast). cc 1.x serves one broadcast word per pass and splits wide accesses into words.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "isa/unit_module.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct SharedMemoryConfig {
    uint32_t banks = 32;
    uint32_t interleave_bytes = 4;   // bytes mapped to one bank before the next
    uint32_t bank_width_bytes = 4;   // bytes a bank delivers per pass
    uint32_t max_group_threads = 32; // threads served together at most (16: half-warp on cc 1.x)
    bool single_broadcast = false;   // cc 1.x: one broadcast word per pass
    bool split_wide = false;         // cc 1.x: accesses wider than a bank become one request per bank word
    uint32_t latency = 50;           // cycles, conflict-free load
    uint32_t pass_cycles = 2;        // cycles each further pass adds
    std::string impl = "systemc";    // "rtl": the verilated bank arbiter finds the passes (docs/rtl.md)
    std::string rtl_vcd;             // with impl "rtl": SM 0's arbiter signals to this VCD file
};

// The keys smem.* (smem_keys.cpp).
void declare_keys(ConfigSection<SharedMemoryConfig>& s);

// A bank arbiter the unit hands its accesses to instead of its own rules: the verilated RTL twin
// (rtl_models/rtl/bank_arbiter_rtl.h) where smem.impl is "rtl". Addresses are 32-bit, lanes
// aligned to the access, `size_log2` the log2 of its bytes per lane (at most 4).
class SmemArbiter {
public:
    virtual ~SmemArbiter() = default;
    // The passes the access takes; `cycle` and `cycles_per_clock` place it in a waveform.
    virtual uint32_t passes(const uint32_t* addr, LaneMask mask, uint32_t size_log2, uint64_t cycle, uint32_t cycles_per_clock) = 0;
    // Clocks it has run.
    virtual uint64_t clocks() const = 0;
};

class SharedMemory : public UnitModule {
public:
    // With an `arbiter` (the verilated bank arbiter where cfg.impl is "rtl"), it finds every
    // access's passes; the SM that composes the units makes it (sm/timing_units.h).
    SharedMemory(const sc_core::sc_module_name& name, const SharedMemoryConfig& cfg, std::unique_ptr<SmemArbiter> arbiter = nullptr);
    ~SharedMemory() override;

    // Passes a warp access of `width` bytes per thread at `addr[lane]` needs; counts the access.
    // An atomic needs at least one pass per lane on its busiest address (the lanes' operations on
    // one word are serialized, where a load would broadcast it).
    // `cycle` (the SM's) places the RTL's clocks in its waveform.
    uint32_t access(const uint64_t* addr, LaneMask mask, uint32_t width, bool atomic = false, uint64_t cycle = 0);
    // Passes without counting (for tests and analysis).
    uint32_t passes(const uint64_t* addr, LaneMask mask, uint32_t width) const;
    // The passes in the order the RTL twin issues them (rtl_models/rtl/smem_bank_arbiter.sv): the
    // pieces of a split access, then the lane groups, and within a group each bank serving the row
    // of its lowest-numbered waiting lane. Each pass is the lanes it completes (those whose last
    // bytes of the piece it serves); as many as passes() counts.
    std::vector<LaneMask> schedule(const uint64_t* addr, LaneMask mask, uint32_t width) const;
    // Passes the access would need without conflicts.
    uint32_t ideal_passes(LaneMask mask, uint32_t width) const;
    uint32_t latency(uint32_t passes) const { return m_cfg.latency + (passes - 1) * m_cfg.pass_cycles; }

    void report(nlohmann::json& out) const override;

private:
    SharedMemoryConfig m_cfg;
    std::unique_ptr<SmemArbiter> m_rtl;   // impl "rtl" only
    uint64_t m_accesses = 0;
    uint64_t m_passes = 0;
    uint64_t m_conflict_passes = 0;
    uint64_t m_conflicted_accesses = 0;
    uint64_t m_atomic_passes = 0;     // passes atomics added for lanes on one address
    bool m_shifts = false;            // banks, interleave and row size are powers of two
    int m_unit_shift = 0, m_row_shift = 0;

    // The bank and row of an address; shifts where the geometry is a power of two (every config).
    void locate(uint64_t a, uint64_t& bank, uint64_t& row) const {
        if (m_shifts) {
            bank = (a >> m_unit_shift) & (m_cfg.banks - 1);
            row = a >> m_row_shift;
        } else {
            bank = (a / m_cfg.interleave_bytes) % m_cfg.banks;
            row = a / (uint64_t(m_cfg.banks) * m_cfg.bank_width_bytes);
        }
    }
    uint32_t group_threads(uint32_t width) const;
    uint32_t group_passes(const uint64_t* addr, LaneMask group, uint32_t width) const;
    uint32_t rtl_passes(const uint64_t* addr, LaneMask mask, uint32_t width, uint64_t cycle);
    uint32_t single_broadcast_passes(const uint64_t* addr, LaneMask group) const;
    void schedule_group(const uint64_t* addr, LaneMask group, uint32_t width, std::vector<LaneMask>& out) const;
};

} // namespace gpusim
