// The verilated shared-memory bank arbiter (smem_bank_arbiter.sv) behind a plain C++ call: one
// warp access in, its passes out, the RTL clocked edge by edge. SharedMemory uses it where
// smem.impl is "rtl" (docs/rtl.md), as its SmemArbiter; the header names no Verilator type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "smem/shared_memory.h"

namespace gpusim {

// The generation's bank geometry, as the RTL's cfg_* inputs take it.
struct BankArbiterGeometry {
    bool banks32 = true;            // 32 banks, else 16
    bool wide_bank = false;         // 8-byte banks, else 4
    bool half_warp = false;         // at most 16 lanes served together
    bool single_broadcast = false;  // cc 1.x: one broadcast word per pass
    bool split_wide = false;        // cc 1.x: accesses wider than a bank split per bank word
};

// The geometry of a shared-memory config (which the RTL covers: smem.impl's checks at load).
BankArbiterGeometry bank_geometry(const SharedMemoryConfig& cfg);

class BankArbiterRtl : public SmemArbiter {
public:
    // `vcd`: a file to write the RTL's signals to (empty: none).
    explicit BankArbiterRtl(const BankArbiterGeometry& g, const std::string& vcd = "");
    ~BankArbiterRtl() override;
    BankArbiterRtl(const BankArbiterRtl&) = delete;
    BankArbiterRtl& operator=(const BankArbiterRtl&) = delete;

    // Serves one access (`size_log2`: log2 of the bytes per lane) and returns the clocks from the
    // request's edge to its last pass; `passes` (where given) receives the lanes of each pass.
    // `start` is the SM cycle of the access; with `cycles_per_clock`, it places the clocks in
    // the waveform (accesses never overlap there).
    uint32_t run(const uint32_t* addr, uint32_t mask, uint32_t size_log2, std::vector<uint32_t>* passes,
                 uint64_t start = 0, uint32_t cycles_per_clock = 1);
    uint32_t passes(const uint32_t* addr, LaneMask mask, uint32_t size_log2, uint64_t cycle, uint32_t cycles_per_clock) override {
        return run(addr, mask, size_log2, nullptr, cycle, cycles_per_clock);
    }
    uint64_t clocks() const override { return m_clocks; }

private:
    struct Model;
    std::unique_ptr<Model> m_model;
    uint64_t m_clocks = 0;
};

} // namespace gpusim
