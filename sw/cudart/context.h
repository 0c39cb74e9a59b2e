// The replacement libcudart's process-wide state: the model (created on first use from the
// GPUSIM_* environment), the fatbinaries, kernels and variables the program registered, the
// launch configurations pushed by <<<...>>>, stream and event handles, and the error state.
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cudart/cuda_abi.h"
#include "cudart/graph.h"
#include "cudart/host_thread.h"
#include "runtime/runtime.h"
#include "runtime/stats_window.h"

namespace gpusim::cudart {

// A device address as the program holds it: a pointer.
inline DevicePtr dev(const void* p) { return reinterpret_cast<DevicePtr>(p); }

struct CallConfig {
    dim3 grid, block;
    size_t shared = 0;
    cudaStream_t stream = nullptr;
};

class Context {
public:
    static Context& get();

    // The model, created on first use. GPUSIM_CONFIG names the config (default fermi-gf100),
    // GPUSIM_SET holds "key=value" overrides separated by commas or spaces, GPUSIM_MODE is
    // functional or timing, GPUSIM_STATS a file the statistics go to when the program exits.
    Runtime& rt();
    bool started() const { return m_rt != nullptr; }

    void** register_fatbin(const void* wrapper);
    void register_function(void** module, const void* host_fun, const char* device_name);
    void register_var(void** module, const void* host_var, const char* device_name);
    void register_managed_var(void** module, void** host_var_pointer, const char* device_name);
    // Loads a fatbinary's module now (and points its __managed__ variables' host pointers at them).
    void init_module(void** module);
    // The kernel a host-side stub stands for; loads the registered modules first.
    const KernelInfo& kernel(const void* host_fun);
    // The PTX architecture a registered kernel was compiled for (75 for compute_75).
    int ptx_arch(const void* host_fun);
    // A registered __device__/__constant__ variable's device address and size.
    std::pair<DevicePtr, uint64_t> symbol(const void* host_var);

    StreamId stream(cudaStream_t s);
    static cudaStream_t stream_handle(StreamId id);
    EventId event(cudaEvent_t e) const;
    static cudaEvent_t event_handle(EventId id);

    // Pushed by <<<>>>, popped by the stub: per host thread, as threads launch independently.
    static std::vector<CallConfig>& configs();

    // Every API call holds this lock: programs call the runtime from several threads, and the
    // model is one simulation.
    std::recursive_mutex& lock() { return m_lock; }
    // Host functions run on the library's host thread (started on first use).
    HostThread& host_thread();
    // Notes an API call (the host thread drives the simulation only while the program is quiet).
    void touch() {
        if (m_host_thread) m_host_thread->touch();
    }

    // Error state: the last error of the calling thread (cudaGetLastError; CUDA keeps it per
    // thread), and a sticky one after a kernel fault that every call returns until
    // cudaDeviceReset.
    static cudaError_t& last_error();
    cudaError_t sticky = 0;
    // Stream capture. capture_node is how every call that queues work on a stream asks whether it
    // is being captured: it returns the new node to fill in (and the call queues nothing), or
    // nullptr. Queued work on the legacy stream while a global-mode capture runs invalidates it
    // (cudaErrorStreamCaptureImplicit), as does synchronizing with a capturing stream.
    Captures captures;
    GraphNode* capture_node(cudaStream_t s, int type);
    void check_not_capturing(cudaStream_t s);
    // Graphs and executable graphs the program holds, so that handles can be checked.
    std::map<const Graph*, std::unique_ptr<Graph>> graphs;
    std::map<const GraphExec*, std::unique_ptr<GraphExec>> graph_execs;
    Graph& graph(cudaGraph_t g);
    GraphExec& graph_exec(cudaGraphExec_t g);

    // cudaProfilerStart/Stop: once a program calls them, the statistics count only the work
    // between them.
    StatsWindows profiler;
    int device_flags = 0;
    int cache_config = 0;            // cudaFuncCachePreferNone
    size_t printf_fifo = 1 << 20;
    size_t stack_bytes = 1024;

    // Prints "gpusim: <name> is not supported by the model" the first time `name` is called.
    void report_unsupported(const char* name);
    void write_stats() const;
    // The performance summaries (GPUSIM_SUMMARY), at exit.
    void write_summary() const;
    // Completes the GPUSIM_TRACE timeline and closes the GPUSIM_VCD waveform, at exit.
    void finish_trace();
    void reset();

private:
    struct Fatbin {
        const void* wrapper = nullptr;
        std::string ptx;
        std::string name;
        const ModuleHandle* module = nullptr;
        int ptx_arch = 0;
    };
    struct Entity {
        void** module;
        std::string name;
    };
    std::recursive_mutex m_lock;
    std::unique_ptr<HostThread> m_host_thread;
    bool m_exiting = false;
    std::unique_ptr<Runtime> m_rt;
    GpuConfig m_cfg;
    std::string m_stats_file;
    std::string m_summary;   // GPUSIM_SUMMARY: "1" for stderr, else a file
    std::vector<std::unique_ptr<Fatbin>> m_fatbins;
    std::map<const void*, Entity> m_functions, m_variables;
    std::map<void**, Entity> m_managed_vars;   // host pointer -> variable
    std::set<std::string> m_unsupported;

    Fatbin& fatbin(void** module);
    const ModuleHandle& module(void** handle);
    HostThread::Drive drive();
    static void stop_at_exit();
};

} // namespace gpusim::cudart
