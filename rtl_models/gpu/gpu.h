// The whole GPU as one IP block: a TLM target socket for its registers, a TLM initiator socket
// toward host memory (the PCIe link, used by the copy engines and semaphores), and a completion
// interrupt. Inside: the front end, the command processor, the compute engine, the SM array, the
// copy engines, the PCIe link, the interconnect and device memory.
#pragma once

#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "dma/dma_engine.h"
#include "pcie/pcie_link.h"
#include "interconnect/router.h"
#include "memory/memory_target.h"
#include "check/allocation_map.h"
#include "check/race_check.h"
#include "dram/dram_controller.h"
#include "gpu/command_processor.h"
#include "gpu/compute_engine.h"
#include "gpu/device_runtime.h"
#include "gpu/front_end.h"
#include "gpu/gpu_config.h"
#include "l2/l2_cache.h"
#include "gpu/program_store.h"
#include "sm/sm.h"

namespace gpusim {

class Gpu : public sc_core::sc_module {
public:
    tlm::tlm_target_socket<32> regs;          // memory-mapped registers
    tlm::tlm_initiator_socket<32> host_mem;   // DMA toward host/system memory
    sc_core::sc_out<bool> irq;

    Gpu(const sc_core::sc_module_name& name, const GpuConfig& cfg);
    ~Gpu() override;

    const GpuConfig& config() const { return m_cfg; }
    ProgramStore& programs() { return m_programs; }
    MemoryTarget& dram() { return *m_dram; }
    ManagedPages& managed() { return *m_managed; }
    FrontEnd& front_end() { return *m_front; }
    CommandProcessor& command_processor() { return *m_cp; }
    DeviceRuntime& device_runtime() { return *m_device_runtime; }
    const std::vector<Sm*>& sms() const { return m_sms; }
    // What the program allocated (the runtime keeps it up to date), and the race detector when
    // sim.racecheck is on (else null).
    AllocationMap& allocations() { return m_allocations; }
    const RaceCheck* racecheck() const { return m_racecheck.get(); }
    // Statistics of every unit, hierarchical by module name (timing-mode units only in timing mode).
    nlohmann::json report() const;
    // Keeps a profile of every launch from now on (ComputeEngine::profile_with).
    void enable_profiling() { m_compute->profile_with([this] { return report(); }); }
    const std::vector<KernelProfile>& kernel_profiles() const { return m_compute->profiles(); }
    // Kernel sampling's report (gpu/kernel_sampler.h), null where sim.sampling is off.
    nlohmann::json sampling_report() const { return m_compute->sampler() ? m_compute->sampler()->report() : nlohmann::json(); }
    // Records a timeline of the run into `path` from now on (TraceRecorder), counters sampled
    // every `interval_cycles`; finish_trace() closes it (so does the destructor).
    void enable_trace(const std::string& path, uint64_t interval_cycles);
    TraceRecorder* timeline() const { return m_trace.get(); }
    void finish_trace() { if (m_trace) m_trace->finish(); }
    // A progress line on stderr for runs longer than 2 s (ProgressMeter).
    void enable_progress();
    // Timing mode: declares every unit's waveform signals (VcdRecorder), before the simulation starts.
    void record_signals(VcdRecorder& vcd);

private:
    GpuConfig m_cfg;
    std::unique_ptr<TraceRecorder> m_trace;   // outlives the units that write to it
    std::unique_ptr<ProgressMeter> m_progress;
    ProgramStore m_programs;
    AllocationMap m_allocations;
    std::unique_ptr<RaceCheck> m_racecheck;
    std::unique_ptr<Router> m_xbar;
    std::unique_ptr<MemoryTarget> m_dram;
    std::unique_ptr<ManagedPages> m_managed;
    std::unique_ptr<PcieLink> m_link;
    std::vector<std::unique_ptr<DmaEngine>> m_copy;
    std::unique_ptr<L2Cache> m_l2;                  // timing mode: the SMs' LD/ST units -> L2 -> DRAM controller
    std::unique_ptr<DramController> m_dram_ctrl;
    std::unique_ptr<DeviceRuntime> m_device_runtime;
    std::vector<Sm*> m_sms;
    std::unique_ptr<FrontEnd> m_front;
    std::unique_ptr<ComputeEngine> m_compute;
    std::unique_ptr<CommandProcessor> m_cp;
};

} // namespace gpusim
