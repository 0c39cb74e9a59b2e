#include "gpu/compute_engine.h"

#include <algorithm>

#include "check/race_check.h"
#include "gpu/launch_limits.h"
#include "isa/reports.h"

#include <fmt/format.h>

namespace gpusim {

namespace {
reg::FaultCode code_of(FaultKind k) {
    switch (k) {
    case FaultKind::Memory: return reg::kFaultMemory;
    case FaultKind::Misaligned: return reg::kFaultMisaligned;
    case FaultKind::Assert: return reg::kFaultAssert;
    case FaultKind::Trap: return reg::kFaultTrap;
    case FaultKind::Timeout: return reg::kFaultTimeout;
    case FaultKind::Exec: break;
    }
    return reg::kFaultExec;
}

// The unit whose report a fault is.
const char* report_type(FaultKind k) {
    switch (k) {
    case FaultKind::Memory:
    case FaultKind::Misaligned: return reports::kLdst;
    case FaultKind::Timeout: return reports::kWatchdog;
    case FaultKind::Assert:
    case FaultKind::Trap:
    case FaultKind::Exec: break;
    }
    return reports::kSm;
}
} // namespace

ComputeEngine::ComputeEngine(const sc_core::sc_module_name& name, const GpuConfig& cfg, ProgramStore& programs,
                             std::vector<Sm*>& sms, RaceCheck* racecheck)
    : sc_module(name), m_cfg(cfg), m_programs(programs), m_sms(sms), m_racecheck(racecheck) {
    m_cluster = std::make_unique<SmCluster>(m_sms, cfg.host_threads(), cfg.quantum_cycles, cfg.sm.warp_schedulers,
                                            sc_core::sc_time(cfg.cycle_ns(), sc_core::SC_NS), cfg.sm.timing.enabled);
    if (cfg.sampling == "on" && cfg.sm.timing.enabled)
        m_sampler = std::make_unique<KernelSampler>(cfg.sampling_detailed, cfg.sampling_tolerance, cfg.sampling_exact_loads);
    SC_HAS_PROCESS(ComputeEngine);
    SC_THREAD(thread);
}

void ComputeEngine::start(const LaunchRequest& r) {
    m_request = r;
    m_busy = true;
    m_start_ev.notify(sc_core::SC_ZERO_TIME);
}

std::string ComputeEngine::validate() const {
    const LaunchRequest& r = m_request;
    auto k = m_programs.get(r.kernel);
    if (!k) return fmt::format("invalid kernel handle {}", r.kernel);
    if (LaunchProblem p = check_launch_limits(m_cfg, k, r.grid, r.block, r.dynamic_shared); p.kind != LaunchProblem::Kind::None)
        return p.why;
    if (r.params.size() != k->param_bytes)
        return fmt::format("parameter block of {} bytes, kernel '{}' takes {}", r.params.size(), k->name, k->param_bytes);
    return "";
}

sc_core::sc_time ComputeEngine::cycles_time(uint64_t cycles) const {
    return sc_core::sc_time(m_cfg.cycle_ns(), sc_core::SC_NS) * double(cycles);
}

// Starts every SM on the grid and waits for all of them; the result counts what they did.
void ComputeEngine::run_grid() {
    m_result = LaunchResult{};
    m_result.start = sc_core::sc_time_stamp();
    std::vector<SmStats> before;
    for (Sm* sm : m_sms) before.push_back(sm->core().stats());
    m_ctas_before = 0;
    for (const SmStats& s : before) m_ctas_before += s.ctas_completed;
    const KernelProfile counters_before = m_report ? KernelProfile::counters_of(m_report()) : KernelProfile{};
    const uint32_t occupancy = std::max(SmCore::occupancy_limit(m_cfg.sm, m_launch), 1u);
    const bool detailed = !m_sampler || m_sampler->detailed(m_launch, occupancy);
    if (m_sampler) set_detailed(detailed);
    if (m_cfg.launch_cycles) sc_core::wait(cycles_time(m_cfg.launch_cycles));
    m_launch.first_cta_cycle = uint64_t(sc_core::sc_time_stamp() / cycles_time(1) + 0.5);
    m_launch.cta_interval = m_cfg.cta_dispatch_cycles;
    m_dispatcher.start(m_launch.grid.count());
    if (m_racecheck) m_racecheck->begin_launch(m_launch);
    m_grid_signal.set_now(m_launch.grid_id);
    // The race detector follows one interleaving of the SMs, and the timeline and the waveform
    // record their events in one order: each keeps the SMs on one thread.
    const bool traced = !m_sms.empty() && m_sms.front()->core().trace() != nullptr;
    const bool waveform = std::any_of(m_sms.begin(), m_sms.end(), [](Sm* sm) { return sm->core().records_signals(); });
    // The relaxed memory model draws its reorderings in a fixed order, from sim.memory_seed: it too
    // keeps them on one thread, so that a run is reproducible.
    m_cluster->run(m_launch, m_dispatcher, m_racecheck != nullptr || traced || waveform || m_cfg.sm.stores.enabled);
    m_result.end = sc_core::sc_time_stamp();
    m_grid_signal.set_now(0);
    m_result.cycles = uint64_t((m_result.end - m_result.start) / cycles_time(1) + 0.5);
    for (size_t k = 0; k < m_sms.size(); ++k) {
        const SmStats now = m_sms[k]->core().stats();
        m_result.warp_instructions += now.warp_instructions - before[k].warp_instructions;
        m_result.thread_instructions += now.thread_instructions - before[k].thread_instructions;
        for (int e = 0; e < kPmCounters; ++e) m_result.pm_events[e] += now.pm_events[e] - before[k].pm_events[e];
    }
    reports::deliver();
    if (m_dispatcher.aborted()) {
        m_fault = m_dispatcher.fault();
        m_code = code_of(m_dispatcher.fault_kind());
        reports::post(sc_core::SC_ERROR, report_type(m_dispatcher.fault_kind()), m_fault);
    }
    if (m_sampler && !m_dispatcher.aborted()) sample(detailed, occupancy, counters_before);
    else if (m_report) record_profile(KernelProfile::between(counters_before, KernelProfile::counters_of(m_report())));
    if (m_progress) m_progress->clear();   // the host code may print next
    if (m_trace) {
        const Dim3& g = m_launch.grid;
        const Dim3& b = m_launch.block;
        m_trace->span(TraceRecorder::kCompute, 0, m_launch.kernel->name, "kernel", m_result.start.to_seconds() * 1e9,
                      m_result.end.to_seconds() * 1e9,
                      {{"grid", {g.x, g.y, g.z}}, {"block", {b.x, b.y, b.z}}, {"cycles", m_result.cycles},
                       {"warp_instructions", m_result.warp_instructions}, {"faulted", m_dispatcher.aborted()}});
    }
}

ComputeEngine::Progress ComputeEngine::progress() const {
    Progress p;
    p.launches = m_grid_id;
    if (!m_busy || !m_launch.kernel) return p;
    p.kernel = m_launch.kernel->name;
    p.blocks = m_launch.grid.count();
    for (Sm* sm : m_sms) p.blocks_done += sm->core().stats().ctas_completed;
    p.blocks_done -= std::min(p.blocks_done, m_ctas_before);
    return p;
}

std::string ComputeEngine::kernel_name(uint32_t handle) const {
    auto k = m_programs.get(handle);
    return k ? k->name : fmt::format("kernel {}", handle);
}

void ComputeEngine::record_profile(KernelProfile p) {
    p.kernel = m_launch.kernel->name;
    p.launches = 1;
    p.grid = m_launch.grid;
    p.block = m_launch.block;
    p.start_ns = m_result.start.to_seconds() * 1e9;
    p.end_ns = m_result.end.to_seconds() * 1e9;
    p.faulted = m_dispatcher.aborted();
    p.cycles = m_result.cycles;
    p.warp_instructions = m_result.warp_instructions;
    p.thread_instructions = m_result.thread_instructions;
    p.dram_peak_gb_s = m_cfg.dram.bandwidth_gb_s;
    p.cycle_ns = m_cfg.cycle_ns();
    p.count_idle_slots();
    m_profiles.push_back(std::move(p));
}

void ComputeEngine::set_detailed(bool detailed) {
    const uint32_t line = m_cfg.l2.cache.bytes ? m_cfg.l2.cache.line_bytes : 0;
    for (Sm* sm : m_sms) sm->core().set_detailed(detailed, line);
    m_cluster->set_mode(detailed, line > 0, !detailed);
}

void ComputeEngine::sample(bool detailed, uint32_t occupancy, const KernelProfile& before) {
    KernelSampler::Outcome o;
    o.warp_instructions = m_result.warp_instructions;
    o.thread_instructions = m_result.thread_instructions;
    o.cycles = m_result.cycles;
    if (detailed) {
        if (m_report) {
            record_profile(KernelProfile::between(before, KernelProfile::counters_of(m_report())));
            o.profile = m_profiles.back();
        }
        m_sampler->add_detailed(m_launch, occupancy, o);
        return;
    }
    KernelSampler::Projection p = m_sampler->add_projected(m_launch, occupancy, o);
    // The launch's quanta left simulated time where it was (after the grid's fixed cost): it moves
    // on by the projected cycles now.
    const sc_core::sc_time end = m_result.start + cycles_time(p.cycles);
    if (end > sc_core::sc_time_stamp()) sc_core::wait(end - sc_core::sc_time_stamp());
    m_result.end = sc_core::sc_time_stamp();
    m_result.cycles = uint64_t((m_result.end - m_result.start) / cycles_time(1) + 0.5);
    if (!m_report) return;
    KernelProfile k = p.profile ? std::move(*p.profile) : KernelProfile{};
    k.projected = true;
    record_profile(std::move(k));
}

void ComputeEngine::thread() {
    for (;;) {
        while (!m_busy) wait(m_start_ev);
        m_code = reg::kFaultNone;
        m_fault.clear();
        if (std::string err = validate(); !err.empty()) {
            m_fault = "launch rejected: " + err;
            m_code = reg::kFaultLaunchRejected;
            reports::post(sc_core::SC_ERROR, reports::kComputeEngine, m_fault);
        } else {
            m_launch = LaunchInfo{};
            m_launch.kernel = m_programs.get(m_request.kernel);
            m_launch.grid = m_request.grid;
            m_launch.block = m_request.block;
            m_launch.dynamic_shared = m_request.dynamic_shared;
            m_launch.grid_id = ++m_grid_id;
            m_launch.num_sms = uint32_t(m_sms.size());
            m_launch.params = m_request.params;
            m_launch.envreg = m_request.envreg;
            run_grid();
        }
        m_busy = false;
        m_done.notify(sc_core::SC_ZERO_TIME);
    }
}

} // namespace gpusim
