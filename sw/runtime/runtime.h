// The C++ runtime API over the GPU model: device memory management, copies through the copy
// engine, module loading and kernel launches, all by programming the GPU's registers over TLM.
// SystemC elaborates once per process, so a process holds at most one Runtime.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../rtl_models/gpu/gpu_config.h"
#include "../../rtl_models/sm/launch.h"
#include "ptx/ast.h"

namespace gpusim {

class Platform;

// Any failure of a runtime call: bad arguments, a rejected launch, a faulting kernel.
class RuntimeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

using DevicePtr = uint64_t;

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

class Runtime {
public:
    explicit Runtime(const GpuConfig& cfg);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    const GpuConfig& config() const { return m_cfg; }

    DevicePtr malloc(uint64_t bytes);
    void free(DevicePtr p);
    // Size of the allocation that starts at p, or 0.
    uint64_t allocation_size(DevicePtr p) const;

    void memcpy_to_device(DevicePtr dst, const void* src, uint64_t bytes);
    void memcpy_to_host(void* dst, DevicePtr src, uint64_t bytes);
    void memcpy_device(DevicePtr dst, DevicePtr src, uint64_t bytes);
    void memset(DevicePtr dst, uint8_t value, uint64_t bytes);

    // Parses, checks and decodes a PTX module, allocates its variables and places its kernels in
    // the GPU's program store. Throws ptx::PtxError for bad or unsupported PTX.
    const ModuleHandle& load_module(const std::string& path);

    // Launches and waits for completion. Throws RuntimeError on bad arguments or a kernel fault.
    LaunchStats launch(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                       const std::vector<KernelArg>& args);

    // Simulated time since the start, in nanoseconds.
    double now_ns() const;

    // Statistics of every unit of the GPU, hierarchical by module name.
    nlohmann::json unit_stats() const;

private:
    GpuConfig m_cfg;
    std::unique_ptr<Platform> m_platform;
    std::map<DevicePtr, uint64_t> m_allocations;        // base -> mapped bytes
    DevicePtr m_heap_next;
    DevicePtr m_module_next;
    DevicePtr m_const_next;
    std::vector<std::unique_ptr<ModuleHandle>> m_modules;
    static constexpr uint64_t kStagingBase = 0x1000'0000;   // host-memory bounce area

    DevicePtr map_region(DevicePtr base, uint64_t bytes);
    void run_dma(uint32_t kind, uint64_t src, uint64_t dst, uint64_t bytes, uint8_t fill = 0);
    void wait_idle();
    void check_range(DevicePtr p, uint64_t bytes, const char* what) const;
};

} // namespace gpusim
