#include "cudart/context.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <systemc>

#include "cudart/fatbinary.h"
#include "runtime/console_reports.h"
#include "runtime/profile_summary.h"

namespace gpusim::cudart {

namespace {
std::string env(const char* name, const char* fallback = "") {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

std::vector<std::string> split_sets(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',' || c == ' ' || c == ';') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

void write_reports_at_exit() {
    Context::get().write_stats();
    Context::get().write_summary();
    Context::get().finish_trace();
}

// How long the program must leave the library alone before the host thread moves the simulation
// towards pending host functions by itself (GPUSIM_HOST_QUIET_MS, default 20).
std::chrono::milliseconds quiet_period() {
    const std::string v = env("GPUSIM_HOST_QUIET_MS");
    return std::chrono::milliseconds(v.empty() ? 20 : std::max(0L, std::strtol(v.c_str(), nullptr, 10)));
}
} // namespace

cudaError_t& Context::last_error() {
    static thread_local cudaError_t e = 0;
    return e;
}

std::vector<CallConfig>& Context::configs() {
    static thread_local std::vector<CallConfig> c;
    return c;
}

cudaError_t not_permitted_in_host_function() {
    static std::once_flag told;
    std::call_once(told, [] {
        std::fprintf(stderr, "gpusim: a CUDA call inside a host function (stream callback) returns "
                             "cudaErrorNotPermitted: CUDA forbids API calls there\n");
    });
    return Context::last_error() = cudaError_t(Error::NotPermitted);
}

HostThread& Context::host_thread() {
    if (!m_host_thread) {
        m_host_thread = std::make_unique<HostThread>([this] { return drive(); }, quiet_period());
        std::atexit(stop_at_exit);
    }
    return *m_host_thread;
}

// The host thread's turn: while host functions wait and the program is quiet, move the
// simulation to the next completion. A kernel fault found on the way becomes sticky, as if a
// call had returned it, and the pending callbacks hear of it.
HostThread::Drive Context::drive() {
    std::unique_lock<std::recursive_mutex> lock(m_lock, std::try_to_lock);
    if (!lock) return HostThread::Drive::Stuck;
    if (m_exiting || !m_rt || sticky || !m_rt->host_functions_pending()) return HostThread::Drive::Idle;
    try {
        m_rt->service_managed();
        if (!m_rt->advance()) return HostThread::Drive::Stuck;
    } catch (const RuntimeError& e) {
        std::fprintf(stderr, "gpusim: %s\n", e.what());
        if (e.sticky()) sticky = cudaError_t(e.code());
    }
    return m_rt->host_functions_pending() ? HostThread::Drive::Progress : HostThread::Drive::Idle;
}

// The program is ending: the host thread must not touch the simulation while it is torn down.
void Context::stop_at_exit() {
    Context& c = get();
    std::lock_guard<std::recursive_mutex> lock(c.m_lock);
    c.m_exiting = true;
}

Context& Context::get() {
    // Never destroyed: the program's own exit-time CUDA calls (and SystemC's teardown order)
    // must find it alive.
    static Context* c = new Context;
    return *c;
}

Runtime& Context::rt() {
    if (m_rt) return *m_rt;
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);   // keep the program's stdout its own
    use_console_reports();
    std::vector<std::string> sets = split_sets(env("GPUSIM_SET"));
    if (std::string mode = env("GPUSIM_MODE"); !mode.empty()) sets.push_back("sim.mode=" + mode);
    if (std::string threads = env("GPUSIM_THREADS"); !threads.empty()) sets.insert(sets.begin(), "sim.threads=" + threads);
    // GPUSIM_MEMCHECK=1 and GPUSIM_RACECHECK=1: the checks of gpusim run --memcheck and --racecheck.
    if (env("GPUSIM_MEMCHECK") == "1") sets.insert(sets.begin(), "sim.memcheck=true");
    if (env("GPUSIM_RACECHECK") == "1") sets.insert(sets.begin(), "sim.racecheck=true");
    try {
        m_cfg = load_config(env("GPUSIM_CONFIG", "fermi-gf100"), parse_overrides(sets));
    } catch (const std::exception& e) {
        throw RuntimeError(fmt::format("GPUSIM_CONFIG/GPUSIM_SET: {}", e.what()), Error::InitializationError);
    }
    // GPUSIM_VCD=FILE.vcd: a waveform of the unit signals (timing mode), GPUSIM_VCD_SIGNALS which.
    VcdOptions vcd;
    vcd.path = env("GPUSIM_VCD");
    if (std::string signals = env("GPUSIM_VCD_SIGNALS"); !signals.empty()) vcd.signals = signals;
    try {
        m_rt = std::make_unique<Runtime>(m_cfg, vcd);
    } catch (const RuntimeError&) {
        throw;
    } catch (const std::exception& e) {
        throw RuntimeError(fmt::format("GPUSIM_VCD: {}", e.what()), Error::InitializationError);
    }
    m_rt->set_host_function_runner([this](const std::function<void()>& fn) { host_thread().run(fn); });
    m_rt->enable_progress_if_wanted();
    m_stats_file = env("GPUSIM_STATS");
    m_summary = env("GPUSIM_SUMMARY");
    const std::string trace = env("GPUSIM_TRACE");
    if (!m_stats_file.empty() || !m_summary.empty()) m_rt->enable_profiling();
    if (!trace.empty()) {
        // GPUSIM_TRACE_INTERVAL: the counters' sampling interval in cycles.
        uint64_t interval = 1000;
        try {
            if (std::string i = env("GPUSIM_TRACE_INTERVAL"); !i.empty()) interval = std::stoull(i);
        } catch (const std::exception&) {
            m_rt.reset();
            throw RuntimeError("GPUSIM_TRACE_INTERVAL: expected a number of cycles", Error::InitializationError);
        }
        try {
            m_rt->enable_trace(trace, interval);
        } catch (const std::exception& e) {
            m_rt.reset();   // the next call tries again, and fails the same way
            throw RuntimeError(fmt::format("GPUSIM_TRACE: {}", e.what()), Error::InitializationError);
        }
    }
    if (!m_stats_file.empty() || !m_summary.empty() || !trace.empty() || !vcd.path.empty()) std::atexit(write_reports_at_exit);
    return *m_rt;
}

void** Context::register_fatbin(const void* wrapper) {
    auto f = std::make_unique<Fatbin>();
    f->wrapper = wrapper;
    f->name = fmt::format("fatbinary {}", m_fatbins.size());
    m_fatbins.push_back(std::move(f));
    // The handle the program passes back is the address of our record's slot.
    return reinterpret_cast<void**>(m_fatbins.back().get());
}

Context::Fatbin& Context::fatbin(void** module) {
    for (auto& f : m_fatbins)
        if (reinterpret_cast<void**>(f.get()) == module) return *f;
    throw RuntimeError("unknown fatbinary handle", Error::InvalidKernelImage);
}

// Registrations come from nvcc's start-up code; one with nothing to register is ignored.
void Context::register_function(void** module, const void* host_fun, const char* device_name) {
    if (module && host_fun && device_name) m_functions[host_fun] = Entity{module, device_name};
}

void Context::register_var(void** module, const void* host_var, const char* device_name) {
    if (module && host_var && device_name) m_variables[host_var] = Entity{module, device_name};
}

void Context::register_managed_var(void** module, void** host_var_pointer, const char* device_name) {
    if (module && host_var_pointer && device_name) m_managed_vars[host_var_pointer] = Entity{module, device_name};
}

void Context::init_module(void** handle) { module(handle); }

// Loads a fatbinary's PTX on first use: the newest PTX entry it holds.
const ModuleHandle& Context::module(void** handle) {
    Fatbin& f = fatbin(handle);
    if (f.module) return *f.module;
    std::vector<fatbin::PtxEntry> entries;
    try {
        entries = fatbin::ptx_entries(f.wrapper);
    } catch (const fatbin::FatbinError& e) {
        throw RuntimeError(e.what(), Error::InvalidKernelImage);
    }
    if (entries.empty())
        throw RuntimeError("the program's fatbinary holds no PTX: build it with -gencode arch=compute_75,code=compute_75",
                           Error::NoKernelImageForDevice);
    const fatbin::PtxEntry* best = &entries[0];
    for (const auto& e : entries)
        if (e.arch > best->arch) best = &e;
    f.name = fmt::format("{} (PTX for compute_{})", f.name, best->arch);
    f.ptx_arch = best->arch;
    f.module = &rt().load_module_text(best->text, f.name);
    for (auto& [pointer, var] : m_managed_vars) {
        if (var.module != handle) continue;
        auto s = f.module->symbols.find(var.name);
        if (s == f.module->symbols.end())
            throw RuntimeError(fmt::format("__managed__ variable '{}' is not in the program's PTX", var.name), Error::InvalidSymbol);
        *pointer = reinterpret_cast<void*>(s->second.first);
    }
    return *f.module;
}

const KernelInfo& Context::kernel(const void* host_fun) {
    auto it = m_functions.find(host_fun);
    if (it == m_functions.end()) throw RuntimeError("the function is not a registered kernel", Error::InvalidDeviceFunction);
    const ModuleHandle& m = module(it->second.module);
    auto k = m.kernels.find(it->second.name);
    if (k == m.kernels.end())
        throw RuntimeError(fmt::format("kernel '{}' is not in the program's PTX", it->second.name), Error::InvalidDeviceFunction);
    return k->second;
}

int Context::ptx_arch(const void* host_fun) {
    kernel(host_fun);
    return fatbin(m_functions.at(host_fun).module).ptx_arch;
}

std::pair<DevicePtr, uint64_t> Context::symbol(const void* host_var) {
    auto it = m_variables.find(host_var);
    if (it == m_variables.end()) throw RuntimeError("the symbol is not a registered device variable", Error::InvalidSymbol);
    const ModuleHandle& m = module(it->second.module);
    auto s = m.symbols.find(it->second.name);
    if (s == m.symbols.end())
        throw RuntimeError(fmt::format("variable '{}' is not in the program's PTX", it->second.name), Error::InvalidSymbol);
    return s->second;
}

// Handles: 0 (and CUDA's cudaStreamLegacy 0x1 and cudaStreamPerThread 0x2) are the default
// stream; others carry the id above the low byte so they never collide with those.
StreamId Context::stream(cudaStream_t s) {
    const auto v = reinterpret_cast<uintptr_t>(s);
    return v <= 2 ? 0 : StreamId(v >> 8);
}

cudaStream_t Context::stream_handle(StreamId id) { return reinterpret_cast<cudaStream_t>(uintptr_t(id) << 8); }

EventId Context::event(cudaEvent_t e) const { return EventId(reinterpret_cast<uintptr_t>(e) >> 8); }

cudaEvent_t Context::event_handle(EventId id) { return reinterpret_cast<cudaEvent_t>(uintptr_t(id) << 8); }

GraphNode* Context::capture_node(cudaStream_t s, int type) {
    check_not_capturing(s);
    const StreamId id = stream(s);
    return captures.of(id) ? &captures.add(id, type) : nullptr;
}

void Context::check_not_capturing(cudaStream_t s) {
    if (stream(s) != 0 || !captures.any_global()) return;
    captures.invalidate_global();
    throw RuntimeError("work on the legacy default stream while a stream captures in global mode", Error::StreamCaptureImplicit);
}

Graph& Context::graph(cudaGraph_t g) {
    auto it = graphs.find(reinterpret_cast<const Graph*>(g));
    if (it == graphs.end()) throw RuntimeError("not a graph handle", Error::InvalidValue);
    return *it->second;
}

GraphExec& Context::graph_exec(cudaGraphExec_t g) {
    auto it = graph_execs.find(reinterpret_cast<const GraphExec*>(g));
    if (it == graph_execs.end()) throw RuntimeError("not an executable graph handle", Error::InvalidValue);
    return *it->second;
}

void Context::report_unsupported(const char* name) {
    if (m_unsupported.insert(name).second) std::fprintf(stderr, "gpusim: %s is not supported by the model\n", name);
}

void Context::write_stats() const {
    if (!m_rt || m_stats_file.empty()) return;
    nlohmann::json doc;
    doc["config"] = m_cfg.effective;
    const double now = m_rt->now_ns();
    if (profiler.used()) {
        doc["profiler_windows"] = profiler.windows();
        doc["run_simulated_ns"] = now;
        doc["simulated_ns"] = profiler.simulated_ns(now);
        doc["gpu"] = profiler.stats(m_rt->unit_stats(), now);
    } else {
        doc["simulated_ns"] = now;
        doc["gpu"] = m_rt->unit_stats();
    }
    // Totals over the launches, as gpusim run writes them for a manifest.
    uint64_t cycles = 0, warp_instructions = 0, thread_instructions = 0;
    nlohmann::json& kernels = doc["kernels"] = nlohmann::json::array();
    for (const KernelProfile& k : m_rt->kernel_profiles()) {
        kernels.push_back(k.metrics());
        cycles += k.cycles, warp_instructions += k.warp_instructions, thread_instructions += k.thread_instructions;
    }
    doc["totals"] = {{"cycles", cycles}, {"warp_instructions", warp_instructions}, {"thread_instructions", thread_instructions},
                     {"launches", kernels.size()}};
    if (nlohmann::json s = m_rt->sampling_report(); !s.is_null()) doc["sampling"] = std::move(s);
    std::ofstream out(m_stats_file);
    if (!out) {
        std::fprintf(stderr, "gpusim: cannot write the statistics file %s\n", m_stats_file.c_str());
        return;
    }
    out << doc.dump(2) << "\n";
}

void Context::finish_trace() {
    if (!m_rt) return;
    m_rt->finish_trace();
    m_rt->finish_waveform();
}

// GPUSIM_SUMMARY=1 prints the kernels' performance summaries on stderr (the program's stdout stays
// its own); any other value names a file for them.
void Context::write_summary() const {
    if (!m_rt || m_summary.empty()) return;
    const std::string text = profile_summaries(m_rt->kernel_profiles());
    if (m_summary == "1") {
        std::fprintf(stderr, "%s", text.c_str());
        return;
    }
    std::ofstream out(m_summary);
    if (!out) std::fprintf(stderr, "gpusim: cannot write the summary file %s\n", m_summary.c_str());
    out << text;
}

// cudaDeviceReset: memory, streams and events go; registered modules stay loaded (the program's
// kernels remain launchable, as with CUDA's lazy module reload).
void Context::reset() {
    if (m_rt) m_rt->reset();
    configs().clear();
    sticky = 0;   // the last error stays for cudaGetLastError, as CUDA 13 keeps it (seen on an H200)
}

} // namespace gpusim::cudart
