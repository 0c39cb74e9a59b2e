#include "rtl/bank_arbiter_rtl.h"

#include <stdexcept>

#include "Vsmem_bank_arbiter.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace gpusim {

BankArbiterGeometry bank_geometry(const SharedMemoryConfig& cfg) {
    BankArbiterGeometry g;
    g.banks32 = cfg.banks == 32;
    g.wide_bank = cfg.bank_width_bytes == 8;
    g.half_warp = cfg.max_group_threads == 16;
    g.single_broadcast = cfg.single_broadcast;
    g.split_wide = cfg.split_wide;
    return g;
}

// Each instance has a context of its own, so SMs on different host threads never share one.
struct BankArbiterRtl::Model {
    VerilatedContext context;
    std::unique_ptr<Vsmem_bank_arbiter> top;
    std::unique_ptr<VerilatedVcdC> vcd;
    uint64_t time = 0;   // waveform time: half SM cycles

    void dump() {
        if (vcd) vcd->dump(time);
    }
    // One clock: the falling half, then the rising edge where the RTL's registers take.
    void clock(uint32_t cycles_per_clock) {
        top->clk = 0;
        top->eval();
        dump();
        time += cycles_per_clock;
        top->clk = 1;
        top->eval();
        dump();
        time += cycles_per_clock;
    }
};

BankArbiterRtl::BankArbiterRtl(const BankArbiterGeometry& g, const std::string& vcd) : m_model(std::make_unique<Model>()) {
    Model& m = *m_model;
    m.context.traceEverOn(!vcd.empty());
    m.top = std::make_unique<Vsmem_bank_arbiter>(&m.context, "smem_bank_arbiter");
    if (!vcd.empty()) {
        m.vcd = std::make_unique<VerilatedVcdC>();
        m.top->trace(m.vcd.get(), 99);
        m.vcd->open(vcd.c_str());
        if (!m.vcd->isOpen()) throw std::runtime_error("smem.rtl_vcd: cannot write '" + vcd + "'");
    }
    m.top->cfg_banks32 = g.banks32;
    m.top->cfg_wide_bank = g.wide_bank;
    m.top->cfg_half_warp = g.half_warp;
    m.top->cfg_single_broadcast = g.single_broadcast;
    m.top->cfg_split_wide = g.split_wide;
    m.top->req_valid = 0;
    m.top->rst_n = 0;
    m.clock(1);
    m.top->rst_n = 1;
    m.clock(1);
}

BankArbiterRtl::~BankArbiterRtl() {
    if (m_model->vcd) m_model->vcd->close();
    m_model->top->final();
}

uint32_t BankArbiterRtl::run(const uint32_t* addr, uint32_t mask, uint32_t size_log2, std::vector<uint32_t>* passes,
                             uint64_t start, uint32_t cycles_per_clock) {
    Model& m = *m_model;
    Vsmem_bank_arbiter& top = *m.top;
    if (passes) passes->clear();
    // The arbiter is idle between the SM's requests: one it cannot take means it broke.
    if (!top.req_ready) throw std::logic_error("smem_bank_arbiter: not ready for a request");
    m.time = std::max(m.time, 2 * start);
    top.req_valid = 1;
    top.req_mask = mask;
    top.req_size = size_log2 & 7;
    for (int l = 0; l < 32; ++l) top.req_addr[l] = addr[l];
    m.clock(cycles_per_clock);   // the request's edge
    top.req_valid = 0;
    uint32_t clocks = 0;
    // A request's passes come one per clock; 8 pieces of 32 one-lane passes is beyond any access.
    constexpr uint32_t kMaxClocks = 256;
    do {
        m.clock(cycles_per_clock);
        ++clocks;
        if (top.pass_valid && passes) passes->push_back(top.pass_lanes);
    } while (!top.done && clocks < kMaxClocks);
    if (!top.done) throw std::logic_error("smem_bank_arbiter: no done after 256 clocks");
    // One clock per pass (an empty request takes one): the count it reports is the clocks it took.
    if (top.pass_count != (mask ? clocks : 0))
        throw std::logic_error("smem_bank_arbiter: pass_count disagrees with the clocks the passes took");
    // The SM clocks the arbiter only while it serves; in a waveform, one idle clock more lets the
    // outputs fall back, as they would on a free-running clock.
    if (m.vcd) m.clock(cycles_per_clock);
    m_clocks += clocks + 1;
    return clocks;
}

} // namespace gpusim
