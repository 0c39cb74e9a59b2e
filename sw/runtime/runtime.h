// The C++ runtime API over the GPU model: device and pinned host memory, copies through the copy
// engines, streams and events on the command processor's channels, module loading and kernel
// launches, all by programming the GPU's registers over TLM. docs/runtime.md describes it.
// SystemC elaborates once per process, so a process holds at most one Runtime.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "check/allocation_map.h"
#include "gpu/gpu_config.h"
#include "gpu/kernel_profile.h"
#include "isa/launch.h"
#include "memory/huge_pages.h"
#include "trace/vcd_recorder.h"
#include "ptx/ast.h"
#include "runtime/errors.h"
#include "runtime/device_heap.h"
#include "runtime/managed_heap.h"

namespace gpusim {

class Platform;

using DevicePtr = uint64_t;
using StreamId = uint32_t;   // 0 is the legacy default stream
using EventId = uint32_t;

// A kernel argument as raw little-endian bytes, with the type name it was given as (for messages).
struct KernelArg {
    std::vector<uint8_t> bytes;
    std::string type;

    template <class T>
    static KernelArg of(T v, const std::string& type) {
        KernelArg a;
        a.bytes.resize(sizeof(T));
        std::memcpy(a.bytes.data(), &v, sizeof(T));
        a.type = type;
        return a;
    }
};

struct KernelInfo {
    std::string name;
    uint32_t handle = 0;
    std::shared_ptr<const KernelImage> image;
    std::vector<ptx::Variable> params;
};

struct ModuleHandle {
    std::string path;
    std::map<std::string, KernelInfo> kernels;
    std::map<std::string, std::pair<DevicePtr, uint64_t>> symbols;   // .global/.const: address, size
};

struct LaunchStats {
    uint64_t cycles = 0;
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    uint64_t pm_events[8] = {};      // pmevent counters 0-7, counted once per warp
    double host_seconds = 0;
};

// A copy descriptor's rows (DMA_ROWS and the pitches of gpu/registers.h): one row unless a 2D copy.
struct CopyRows {
    uint64_t count = 1, src_pitch = 0, dst_pitch = 0;
    // Whether the registers can carry them (32 bits each); else the rows go one by one.
    bool fit() const;
};

class Runtime {
public:
    // With `vcd.path`, the unit signals of the timing model go into a waveform (docs/profiling.md).
    explicit Runtime(const GpuConfig& cfg, const VcdOptions& vcd = VcdOptions());
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    const GpuConfig& config() const { return m_cfg; }

    // Device memory. `api` names the call for fault and memcheck reports ("cudaMalloc #3").
    DevicePtr malloc(uint64_t bytes, const char* api = "cudaMalloc");
    // Gives the allocation at p a name for reports (a manifest buffer's).
    void name_allocation(DevicePtr p, const std::string& name);
    void free(DevicePtr p);
    // cudaFreeAsync: the allocation goes once the stream has done the work queued before (it
    // does not wait for other streams, as CUDA's stream-ordered free does not).
    void free_after(DevicePtr p, StreamId s);
    uint64_t allocation_size(DevicePtr p) const;       // of the allocation that starts at p, or 0
    bool is_device(DevicePtr p, uint64_t bytes) const;  // whether the range is mapped device memory
    uint64_t bytes_allocated() const;

    // The heap that device-side malloc uses (cudaLimitMallocHeapSize).
    uint64_t heap_size() const;
    bool heap_in_use() const;
    void set_heap_size(uint64_t bytes);

    // Page-locked host memory: the copy engines reach it directly, and so do kernels, at the
    // host's own addresses (mapped, zero-copy memory). register_host pins memory the program
    // allocated itself. `flags` are kept for cudaHostGetFlags.
    void* malloc_host(uint64_t bytes, uint32_t flags = 0);
    void free_host(void* p);
    void register_host(void* p, uint64_t bytes, uint32_t flags = 0);
    void unregister_host(void* p);
    bool is_pinned(const void* p, uint64_t bytes) const;
    // The flags the pinned range holding p was allocated or registered with; throws when p is not
    // pinned.
    uint32_t host_flags(const void* p) const;

    // Managed memory (cudaMallocManaged, __managed__ variables): one address for host and device,
    // pages that migrate on first touch (docs/cudart.md) or when prefetched in stream order.
    // free() releases it too.
    DevicePtr malloc_managed(uint64_t bytes, const std::string& origin = "");
    ManagedHeap::Block* managed_block(DevicePtr p);
    void prefetch(DevicePtr p, uint64_t bytes, bool to_device, StreamId s);
    // Catches up with what the program's host code did to managed pages since the last call: the
    // SMs' direct access to the pages the host took back is revoked, and each migration takes the
    // PCIe link (a copy on the runtime's own stream). Every API call begins with it.
    void service_managed();

    // What an address is (cudaPointerGetAttributes).
    enum class MemoryKind { Unregistered, Host, Device, Managed };
    MemoryKind memory_kind(const void* p) const;

    // Copies and fills, queued on a stream. Pinned host memory is read or written by the copy
    // engine when the transfer happens. A pageable upload is staged into a bounce buffer at the
    // call, unless the caller waits for it; a pageable download waits for its completion (as
    // CUDA's driver does). Either, when the caller waits, reads or writes the program's buffer in
    // place (docs/host_link.md#copies).
    // `caller_waits`: the caller waits for this copy's completion before it returns to the program
    // (a synchronous cudaMemcpy), so a pageable source needs no bounce buffer.
    void copy_to_device(DevicePtr dst, const void* src, uint64_t bytes, StreamId s, bool caller_waits = false);
    void copy_to_host(void* dst, DevicePtr src, uint64_t bytes, StreamId s);
    // 2D copies and fills (cudaMemcpy2D, a slice of cudaMemcpy3D, cudaMemset2D): `height` rows of
    // `width` bytes, each side's rows `pitch` bytes apart, queued as one descriptor that a copy
    // engine takes row by row (pcie.row_ns). A host side is pinned or pageable as for the copies
    // above: a pageable upload is packed into one bounce buffer unless the caller waits; a
    // pageable download waits for its completion. A source pitch of 0 repeats one row.
    void copy_rows_to_device(DevicePtr dst, uint64_t dpitch, const void* src, uint64_t spitch, uint64_t width,
                             uint64_t height, StreamId s, bool caller_waits = false);
    void copy_rows_to_host(void* dst, uint64_t dpitch, DevicePtr src, uint64_t spitch, uint64_t width, uint64_t height,
                           StreamId s);
    void copy_rows_device(DevicePtr dst, uint64_t dpitch, DevicePtr src, uint64_t spitch, uint64_t width,
                          uint64_t height, StreamId s);
    void fill_rows(DevicePtr dst, uint64_t pitch, uint8_t value, uint64_t width, uint64_t height, StreamId s);
    void copy_device(DevicePtr dst, DevicePtr src, uint64_t bytes, StreamId s);
    void fill(DevicePtr dst, uint8_t value, uint64_t bytes, StreamId s);
    // The same on the default stream, waiting for completion.
    void memcpy_to_device(DevicePtr dst, const void* src, uint64_t bytes);
    void memcpy_to_host(void* dst, DevicePtr src, uint64_t bytes);
    // Device memory as it is now, read past the memory system (no copy, no simulated time, no
    // statistics), as a debugger sees it; for digests of a finished run.
    void peek(void* dst, DevicePtr src, uint64_t bytes);
    void memcpy_device(DevicePtr dst, DevicePtr src, uint64_t bytes);
    void memset(DevicePtr dst, uint8_t value, uint64_t bytes);

    // Streams: each maps onto a channel of the command processor.
    // `priority` counts up from 0, the lowest, to config().stream_priorities - 1 (CUDA's numbers are
    // the negative of these).
    StreamId create_stream(bool non_blocking = false, uint32_t priority = 0);
    bool stream_non_blocking(StreamId s) { return stream(s).non_blocking; }
    uint32_t stream_priority(StreamId s) { return stream(s).priority; }
    void destroy_stream(StreamId s);
    bool stream_done(StreamId s);
    void synchronize(StreamId s);
    void synchronize();                                 // the whole device

    // Events: semaphores in pinned host memory, released by the channel with the simulated time.
    // Host functions (cudaLaunchHostFunc, cudaStreamAddCallback): `fn` runs when the stream
    // reaches it, at that simulated time, and the stream waits until it returns. When a fault
    // drops the work before it, `fn` gets the fault's error if `on_error`, else it never runs.
    using HostFunction = std::function<void(Error status)>;
    void launch_host_function(StreamId s, HostFunction fn, bool on_error);
    // Runs a host function; by default on the calling thread (the replacement libcudart runs them
    // on a thread of its own). The runner must return once the function has returned.
    using HostFunctionRunner = std::function<void(const std::function<void()>&)>;
    void set_host_function_runner(HostFunctionRunner runner) { m_host_runner = std::move(runner); }
    bool host_functions_pending() const { return !m_host_functions.empty(); }
    // Moves the simulation on to the next command completion (running host functions that come
    // due): what a query that finds its work unfinished does, so that a polling loop ends after
    // about as much host time as the simulation takes. False when nothing could move.
    bool advance();

    EventId create_event();
    void destroy_event(EventId e);
    void record_event(EventId e, StreamId s);
    bool event_done(EventId e);                         // also true for an event never recorded
    void synchronize_event(EventId e);
    double event_time_ns(EventId e);                    // when it completed (it must have)
    void stream_wait_event(StreamId s, EventId e);

    // Parses, checks and decodes a PTX module (a file, or text with a name for messages),
    // allocates its variables and places its kernels in the GPU's program store. Throws
    // ptx::PtxError for bad or unsupported PTX.
    const ModuleHandle& load_module(const std::string& path);
    const ModuleHandle& load_module_text(const std::string& text, const std::string& name);

    // Queues a launch on a stream; throws RuntimeError(InvalidConfiguration or InvalidValue) for
    // a launch the GPU would refuse. A cooperative launch (cudaLaunchCooperativeKernel) must fit
    // on the GPU at once (else CooperativeLaunchTooLarge) and gets a grid workspace for
    // cooperative_groups' grid.sync().
    void launch_async(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                      const std::vector<KernelArg>& args, StreamId s, bool cooperative = false);
    // Blocks of the kernel that one SM holds at once with this block size and dynamic shared
    // memory (the occupancy calculator's answer).
    uint32_t blocks_per_sm(const KernelInfo& kernel, Dim3 block, uint32_t dynamic_shared) const;
    // The registers per thread occupancy counts for the kernel (sm.register_estimate).
    uint32_t registers_per_thread(const KernelInfo& kernel) const;
    // Launches on the default stream and waits for completion.
    LaunchStats launch(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                       const std::vector<KernelArg>& args);

    // The legacy launch path (cudaConfigureCall, cudaSetupArgument, cudaLaunch): the arguments
    // are placed at their byte offsets in the parameter block, then the launch is queued.
    void configure_call(Dim3 grid, Dim3 block, uint32_t dynamic_shared, StreamId s);
    void setup_argument(const void* arg, uint64_t size, uint64_t offset);
    void launch_configured(const KernelInfo& kernel);

    // Frees every allocation, stream and event, and clears any fault (cudaDeviceReset).
    void reset();

    // Simulated time since the start, in nanoseconds.
    double now_ns() const;
    // Distinct hazards --racecheck (sim.racecheck) has reported so far; 0 when it is off.
    uint64_t race_hazards() const;
    // Statistics of every unit of the GPU, hierarchical by module name.
    nlohmann::json unit_stats() const;
    // Keep a KernelProfile of every launch from now on (for --summary and the statistics file).
    void enable_profiling();
    const std::vector<KernelProfile>& kernel_profiles() const;
    // Kernel sampling's groups, detailed share and interval (null where sim.sampling is off).
    nlohmann::json sampling_report() const;
    // A timeline of the run in `path` (Chrome trace-event JSON, docs/profiling.md#timeline), its
    // counters sampled every `interval_cycles`; finish_trace() completes the file.
    void enable_trace(const std::string& path, uint64_t interval_cycles);
    void finish_trace();
    // Closes the waveform file (at exit of a program that never destroys the runtime).
    void finish_waveform();
    // The progress line on stderr (runs over 2 s): on when GPUSIM_PROGRESS=1, or unset and stderr
    // is a terminal; GPUSIM_PROGRESS=0 turns it off.
    void enable_progress_if_wanted();
    // A host-side span on the timeline's API track: from construction to destruction, in
    // simulated time. Costs nothing without a timeline.
    class HostSpan {
    public:
        HostSpan(Runtime& rt, std::string name);
        ~HostSpan();
        HostSpan(const HostSpan&) = delete;
        HostSpan& operator=(const HostSpan&) = delete;

    private:
        Runtime& m_rt;
        std::string m_name;
        double m_start = -1;
    };

private:
    // Unmaps device memory the heap no longer uses (and forgets it as a heap range).
    void unmap_region(DevicePtr base, uint64_t bytes);
    // A block of managed memory mapped for the program and the device (no allocation recorded).
    const ManagedHeap::Block& map_managed(uint64_t bytes);
    // Places a module's __managed__ variables (memory.managed_variable_slot_bytes).
    void place_managed(const ptx::Module& mod, const std::string& path, std::vector<uint64_t>& addr, ModuleHandle& handle);
    struct Stream {
        uint32_t channel = 0;
        uint32_t last = 0;           // channel's submission count after this stream's last command
        bool non_blocking = false;
        uint32_t priority = 0;
    };
    struct Event {
        std::unique_ptr<uint64_t[]> slot;   // {payload, time ns}, visible to the GPU
        uint64_t recorded = 0;              // payload of the last record; 0: never recorded
    };
    struct Retiring {                        // a bounce buffer, freed once its copy completed
        uint32_t channel, after;
        HostBytes buffer;
    };
    // A host function's two semaphores in host memory: the channel releases `due`, the host
    // releases `done` when the function has returned, and the channel's acquire of it passes.
    struct PendingHostFunction {
        std::unique_ptr<uint64_t[]> slot;   // {due, due time ns, done, unused}
        HostFunction fn;
        bool on_error = false;
        bool ran = false;
        uint32_t channel = 0, after = 0;    // the channel's count once the acquire has passed
    };

    GpuConfig m_cfg;
    std::unique_ptr<Platform> m_platform;
    uint32_t m_channels = 1;
    std::map<DevicePtr, uint64_t> m_allocations;        // base -> reserved bytes
    struct Pinned {
        uint64_t bytes = 0;
        bool owned = false;          // allocated by malloc_host (else registered)
        uint32_t flags = 0;
    };
    std::map<uintptr_t, Pinned> m_pinned;               // by base address
    DeviceHeap m_heap;                                  // where cudaMalloc's allocations go
    DevicePtr m_module_next;
    DevicePtr m_const_next;
    std::vector<std::unique_ptr<ModuleHandle>> m_modules;
    std::map<StreamId, Stream> m_streams;
    StreamId m_next_stream = 1;
    std::map<EventId, Event> m_events;
    EventId m_next_event = 1;
    uint64_t m_next_payload = 1;
    std::vector<uint32_t> m_submitted;                  // per channel, as the hardware counts
    std::vector<Retiring> m_retiring;
    HostBytes m_spare_bounce;                // a retired bounce buffer, kept for the next upload
    struct PendingFree {
        uint32_t channel, after;
        DevicePtr p;
    };
    std::vector<PendingFree> m_pending_frees;
    void unmap_allocation(DevicePtr p);
    std::map<std::string, uint64_t> m_api_calls;        // allocation calls per API, for reports
    std::string origin(const char* api) { return fmt::format("{} #{}", api, ++m_api_calls[api]); }
    AllocationMap& allocations();
    std::vector<PendingHostFunction> m_host_functions;
    HostFunctionRunner m_host_runner;
    struct Configured {
        Dim3 grid, block;
        uint32_t shared = 0;
        StreamId stream = 0;
        std::vector<uint8_t> params;
        std::vector<bool> set;       // which parameter bytes were set up
    };
    std::vector<Configured> m_configured;
    DevicePtr m_grid_workspace = 0;                     // cooperative launches' grid.sync() barrier
    std::unique_ptr<ManagedHeap> m_managed;             // created by the first managed allocation
    std::set<DevicePtr> m_module_managed;               // modules' __managed__ variables
    StreamId m_migration_stream = 0;                    // carries the host's page migrations (0: none yet)
    // Queues the link transfers of managed pages [base, base + bytes) moving to the device or back.
    void queue_migration(const ManagedHeap::Block& b, uint64_t base, uint64_t bytes, bool to_device, StreamId s);

    Stream& stream(StreamId s);
    Event& event(EventId e);
    void select(uint32_t channel);
    void submitted(StreamId s);
    uint32_t completed(uint32_t channel);
    bool reached(uint32_t channel, uint32_t count);
    // The copy engine's kinds of descriptor (DMA_CMD bits 7:0).
    enum CopyKind : uint32_t { kH2D = 1, kD2H = 2, kD2D = 3, kFill = 4 };
    void queue_copy(uint32_t kind, uint64_t src, uint64_t dst, uint64_t bytes, StreamId s, bool staged, uint8_t fill = 0,
                    const CopyRows& rows = {});
    bool in_place_possible(const void* host, uint64_t bytes) const;
    void copy_in_place(uint32_t kind, uint64_t src, uint64_t dst, const void* host, uint64_t bytes, StreamId s,
                       const CopyRows& rows = {});
    void check_rows(DevicePtr p, uint64_t pitch, uint64_t width, uint64_t height, const char* what) const;
    void in_window(const void* host, uint64_t bytes, const std::function<void()>& work);
    void semaphore(uint32_t cmd, const void* address, uint64_t payload, StreamId s);
    void wait_until(const std::function<bool()>& done);
    void run_simulation(const std::function<bool()>& stop);
    bool host_function_due() const;
    void run_due_host_functions();
    void drop_host_functions(Error status);
    void check_fault();
    void retire();
    DevicePtr map_region(DevicePtr base, uint64_t bytes);
    void check_range(DevicePtr p, uint64_t bytes, const char* what) const;
    void check_launch(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                      const std::vector<KernelArg>& args) const;
    const ModuleHandle& load_parsed(ptx::Module mod, const std::string& path);
};

} // namespace gpusim
