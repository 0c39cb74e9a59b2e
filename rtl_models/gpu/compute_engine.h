// The compute engine: runs one kernel launch at a time over the SM array. It checks the
// configuration against the chip's limits, hands the CTAs to the SMs and reports the result
// (cycles, instructions, or the fault).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "gpu/cta_dispatcher.h"
#include "gpu/gpu_config.h"
#include "gpu/kernel_profile.h"
#include "gpu/kernel_sampler.h"
#include "gpu/progress_meter.h"
#include "gpu/sm_cluster.h"
#include "trace/trace_recorder.h"
#include "gpu/program_store.h"
#include "gpu/registers.h"
#include "sm/sm.h"

namespace gpusim {

class RaceCheck;

// A launch as the host wrote it into the registers.
struct LaunchRequest {
    uint32_t kernel = 0;
    Dim3 grid, block;
    uint32_t dynamic_shared = 0;
    std::vector<uint8_t> params;     // the parameter block, pushed inline with the command
    EnvRegs envreg{};
};

struct LaunchResult {
    uint64_t cycles = 0;
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    uint64_t pm_events[kPmCounters] = {};
    sc_core::sc_time start, end;
};

class ComputeEngine : public sc_core::sc_module {
public:
    // `racecheck` (may be null) is told of each launch before its first block runs.
    ComputeEngine(const sc_core::sc_module_name& name, const GpuConfig& cfg, ProgramStore& programs, std::vector<Sm*>& sms,
                  RaceCheck* racecheck = nullptr);

    void start(const LaunchRequest& r);
    bool busy() const { return m_busy; }
    const sc_core::sc_event& done_event() const { return m_done; }

    // The last launch: its result, or why it failed (reg::kFaultNone when it did not).
    const LaunchResult& result() const { return m_result; }
    reg::FaultCode fault_code() const { return m_code; }
    const std::string& fault() const { return m_fault; }

    // Profiling: each launch from now on keeps a KernelProfile, the difference of `report` (the
    // GPU's statistics) after and before it. Off by default: two reports per launch cost time.
    void profile_with(std::function<nlohmann::json()> report) { m_report = std::move(report); }
    const std::vector<KernelProfile>& profiles() const { return m_profiles; }
    // The timeline (may be null): each launch becomes a span on the kernels track.
    void set_trace(TraceRecorder* t) { m_trace = t; }
    // Declares the waveform signal "compute_engine.grid": the running launch's grid id, 0 when idle.
    void record_signals(VcdRecorder& vcd) {
        m_grid_signal = vcd.declare(std::string(basename()) + ".grid", VcdRecorder::Kind::Level, 32);
    }
    // For the progress line: launches started, the running one's kernel, its blocks and how many
    // have finished.
    struct Progress {
        uint32_t launches = 0;
        std::string kernel;
        uint64_t blocks = 0, blocks_done = 0;
    };
    Progress progress() const;
    void set_progress(ProgressMeter* p) {
        m_progress = p;
        if (m_cluster) m_cluster->set_progress(p);
    }
    // Kernel sampling's groups and projection (null where sim.sampling is off).
    const KernelSampler* sampler() const { return m_sampler.get(); }
    // Functional mode's SMs on host threads (null in timing mode).
    const SmCluster* cluster() const { return m_cluster.get(); }
    // The name of a kernel handle, for the timeline of the streams.
    std::string kernel_name(uint32_t handle) const;

private:
    const GpuConfig& m_cfg;
    ProgramStore& m_programs;
    std::vector<Sm*>& m_sms;
    std::unique_ptr<SmCluster> m_cluster;
    RaceCheck* m_racecheck;
    LaunchRequest m_request;
    bool m_busy = false;
    sc_core::sc_event m_start_ev, m_done;
    CtaDispatcher m_dispatcher;
    LaunchInfo m_launch;
    LaunchResult m_result;
    reg::FaultCode m_code = reg::kFaultNone;
    std::string m_fault;
    uint32_t m_grid_id = 0;
    std::function<nlohmann::json()> m_report;
    std::vector<KernelProfile> m_profiles;
    TraceRecorder* m_trace = nullptr;
    VcdSignal m_grid_signal;
    ProgressMeter* m_progress = nullptr;
    uint64_t m_ctas_before = 0;   // blocks the SMs had completed when the running launch began
    std::unique_ptr<KernelSampler> m_sampler;

    std::string validate() const;
    void run_grid();
    sc_core::sc_time cycles_time(uint64_t cycles) const;
    // Keeps the launch's profile: `counters` (what its statistics did, or its projection) with
    // what the launch itself was.
    void record_profile(KernelProfile counters);
    // Kernel sampling: runs the SMs in timing mode or not for the next launch.
    void set_detailed(bool detailed);
    // Kernel sampling, after a launch: a detailed one joins its group; a projected one takes its
    // cycles (simulated time waits for them) and profile from its group.
    void sample(bool detailed, uint32_t occupancy, const KernelProfile& before);
    void thread();
};

} // namespace gpusim
