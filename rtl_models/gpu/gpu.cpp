#include "gpu/gpu.h"

#include <chrono>

#include <fmt/format.h>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "isa/reports.h"
#include "protocol/memory_map.h"

namespace gpusim {

Gpu::Gpu(const sc_core::sc_module_name& name, const GpuConfig& cfg)
    : sc_module(name), regs("regs"), host_mem("host_mem"), irq("irq"), m_cfg(cfg) {
    derive_values(m_cfg);
    const sc_core::sc_time cycle(m_cfg.cycle_ns(), sc_core::SC_NS);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(cycle * double(m_cfg.quantum_cycles));
    reports::set_error_actions();

    m_xbar = std::make_unique<Router>("xbar");
    m_dram = std::make_unique<MemoryTarget>("dram", true, sc_core::sc_time(m_cfg.memory_latency_ns, sc_core::SC_NS));
    m_managed = std::make_unique<ManagedPages>(m_cfg.managed_page_bytes);
    m_dram->set_managed(m_managed.get());
    m_link = std::make_unique<PcieLink>("pcie", m_cfg.pcie);
    for (uint32_t k = 0; k < m_cfg.pcie.copy_engines; ++k)
        m_copy.push_back(std::make_unique<DmaEngine>(sc_core::sc_gen_unique_name("copy_engine"), m_cfg.pcie,
                                                     m_cfg.dram.bandwidth_gb_s));
    if (m_cfg.sm.timing.enabled) {
        m_l2 = std::make_unique<L2Cache>("l2", m_cfg.l2);
        m_dram_ctrl = std::make_unique<DramController>("dram_ctrl", m_cfg.dram);
        m_l2->out.bind(m_dram_ctrl->socket);
        m_l2->sysmem.bind(m_link->gpu_side);
        m_l2->set_managed(m_managed.get());
    }
    m_device_runtime = std::make_unique<DeviceRuntime>(*m_dram, m_cfg.malloc_heap_bytes);
    if (m_cfg.sm.checks.racecheck) m_racecheck = std::make_unique<RaceCheck>(&m_allocations, m_cfg.sm.checks.racecheck_shadow_mib << 20);
    for (uint32_t k = 0; k < m_cfg.num_sms; ++k) {
        m_sms.push_back(new Sm(sc_core::sc_gen_unique_name("sm"), m_cfg.sm, k, m_l2 ? &m_l2->in : nullptr));
        m_sms.back()->core().set_services(m_device_runtime.get());
        m_sms.back()->core().set_checks(&m_allocations, m_cfg.sm.checks.memcheck, m_racecheck.get());
    }
    m_front = std::make_unique<FrontEnd>("front_end", *m_dram, m_cfg.pcie.copy_engines);
    m_compute = std::make_unique<ComputeEngine>("compute_engine", m_cfg, m_programs, m_sms, m_racecheck.get());
    std::vector<DmaEngine*> engines;
    for (auto& e : m_copy) engines.push_back(e.get());
    m_cp = std::make_unique<CommandProcessor>("command_processor", m_cfg, engines, *m_compute,
                                              [this](uint32_t bits) { m_front->raise(bits); });
    m_front->attach(*m_cp);

    // Device memory, and the host's memory over the PCIe link for every other address (mapped host
    // memory: kernels and copy engines reach it at the host's own addresses).
    m_xbar->out.bind(m_dram->socket);
    m_xbar->out.bind(m_link->gpu_side);
    const uint64_t managed_end = memory_map::kManagedBase + memory_map::kManagedWindowSize;
    m_xbar->add_range(0, memory_map::kDeviceLimit - 1, 0);
    m_xbar->add_range(memory_map::kDeviceLimit, memory_map::kManagedBase - 1, 1);
    m_xbar->add_range(memory_map::kManagedBase, managed_end - 1, 0);
    m_xbar->add_range(managed_end, ~uint64_t(0), 1);
    for (Sm* sm : m_sms) sm->mem.bind(m_xbar->in);
    for (auto& e : m_copy) {
        e->device.bind(m_xbar->in);
        e->host.bind(m_link->gpu_side);
    }
    m_cp->host.bind(m_link->gpu_side);
    m_link->host_side.bind(host_mem);
    regs.bind(m_front->regs);
    m_front->irq.bind(irq);
}

nlohmann::json Gpu::report() const {
    nlohmann::json out;
    for (Sm* sm : m_sms) sm->core().report(out[sm->basename()]);
    if (m_l2) m_l2->report(out["l2"]);
    if (m_dram_ctrl) m_dram_ctrl->report(out["dram_ctrl"]);
    m_link->report(out["pcie"]);
    m_cp->report(out["command_processor"]);
    m_managed->report(out["managed"]);
    if (m_racecheck) out["racecheck"] = {{"hazards", m_racecheck->hazards()}};
    return out;
}

void Gpu::enable_trace(const std::string& path, uint64_t interval_cycles) {
    // The cycle as SystemC keeps it (rounded to its time resolution), so that the timeline's
    // times and cycles agree with the simulation's.
    const double cycle_ns = sc_core::sc_time(m_cfg.cycle_ns(), sc_core::SC_NS).to_seconds() * 1e9;
    m_trace = std::make_unique<TraceRecorder>(path, cycle_ns, interval_cycles);
    TraceRecorder* t = m_trace.get();
    t->name_group(TraceRecorder::kHost, "host", 0);
    t->name_track(TraceRecorder::kHost, 0, "API calls");
    t->name_group(TraceRecorder::kStreams, "streams (command processor channels)", 1);
    t->name_group(TraceRecorder::kCopyEngines, "copy engines", 2);
    t->name_group(TraceRecorder::kCompute, "compute engine", 3);
    t->name_track(TraceRecorder::kCompute, 0, "kernels");
    t->name_group(TraceRecorder::kChip, "memory system", 4);
    m_compute->set_trace(t);
    m_cp->set_trace(t);
    if (m_l2) m_l2->set_trace(t);
    if (m_dram_ctrl) m_dram_ctrl->set_trace(t);
    for (Sm* sm : m_sms) {
        t->name_group(TraceRecorder::kSmBase + int(sm->core().smid()), fmt::format("SM {}", sm->core().smid()),
                      10 + int(sm->core().smid()));
        sm->core().set_trace(t);
    }
}

void Gpu::record_signals(VcdRecorder& vcd) {
    m_compute->record_signals(vcd);
    m_cp->record_signals(vcd);
    for (Sm* sm : m_sms) sm->core().record_signals(vcd, std::string(sm->basename()) + ".");
    if (m_l2) m_l2->record_signals(vcd);
    if (m_dram_ctrl) m_dram_ctrl->record_signals(vcd);
}

void Gpu::enable_progress() {
    const auto start = std::chrono::steady_clock::now();
    m_progress = std::make_unique<ProgressMeter>(stderr, [this, start] {
        const ComputeEngine::Progress p = m_compute->progress();
        uint64_t insts = 0;
        for (Sm* sm : m_sms) insts += sm->core().stats().warp_instructions;
        const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const uint64_t cycles = uint64_t(sc_core::sc_time_stamp() / sc_core::sc_time(m_cfg.cycle_ns(), sc_core::SC_NS));
        const std::string launch = p.kernel.empty() ? fmt::format("{} kernels done", p.launches)
                                                    : fmt::format("kernel {} '{}': block {} of {}", p.launches, p.kernel,
                                                                  p.blocks_done, p.blocks);
        return fmt::format("{}, {} cycles, {:.2f} M warp instructions/s", launch, cycles, host > 0 ? double(insts) / host / 1e6 : 0.0);
    });
    m_compute->set_progress(m_progress.get());
}

Gpu::~Gpu() {
    for (Sm* sm : m_sms) delete sm;
}

} // namespace gpusim
