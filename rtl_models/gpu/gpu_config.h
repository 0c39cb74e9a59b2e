// The typed GPU configuration: loaded from one JSON file per generation (rtl_models/configs/),
// which may derive from another ("base") and state only what differs, validated once against the
// keys the units declare (gpu/config_outline.h), every key known; `--set key=value` overrides any
// parameter. docs/config.md is the reference, as `gpusim config --doc` prints it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dram/dram_controller.h"
#include "l2/l2_config.h"
#include "pcie/pcie_config.h"
#include "sm/sm_config.h"

namespace gpusim {

using Dims2 = std::array<uint32_t, 2>;
using Dims3 = std::array<uint32_t, 3>;

// What CUDA reports about the device that no unit of the model uses: the generation's texture
// and surface limits, alignments, and board facts (cudaDeviceProp, cudaDeviceGetAttribute).
// Sizes are texels or bytes; a layered limit is {width, layers}; 0 means not supported.
struct CudaFacts {
    uint32_t constant_bytes = 65536;
    uint32_t max_pitch_bytes = 2147483647;
    uint32_t texture_alignment = 512, texture_pitch_alignment = 32, surface_alignment = 512;
    uint32_t texture_1d = 0, texture_1d_linear = 0, texture_1d_mipmapped = 0;
    Dims2 texture_1d_layered{}, texture_2d{}, texture_2d_gather{}, texture_2d_mipmapped{};
    Dims3 texture_2d_linear{}, texture_2d_layered{}, texture_3d{}, texture_3d_alt{};
    uint32_t texture_cubemap = 0;
    Dims2 texture_cubemap_layered{};
    uint32_t surface_1d = 0, surface_cubemap = 0;
    Dims2 surface_1d_layered{}, surface_2d{}, surface_cubemap_layered{};
    Dims3 surface_2d_layered{}, surface_3d{};
    uint32_t pci_device_id = 0;
    bool ecc_enabled = false;
};

struct GpuConfig {
    std::string name;
    std::string description;
    std::string compute_capability;
    uint32_t num_sms = 15;
    double core_clock_mhz = 1401.0;
    uint32_t max_threads_per_block = 1024;
    uint32_t max_shared_per_block = 49152;
    Dims3 max_grid{65535, 65535, 65535};   // launch limits per dimension
    Dims3 max_block{1024, 1024, 64};
    CudaFacts cuda;
    uint64_t memory_bytes = 1536ull << 20;
    double memory_latency_ns = 0;
    double memory_clock_mhz = 1848.0;   // as cudaDevAttrMemoryClockRate reports it
    uint32_t memory_bus_bits = 384;
    uint64_t managed_page_bytes = 65536;   // managed memory migrates in pages of this size
    double managed_fault_ns = 0;           // timing mode: a page fault's latency (0 with managed_page_ns 0: not charged)
    double managed_page_ns = 0;            // timing mode: the driver's work per faulted page, serialized
    uint64_t managed_variable_slot_bytes = 0;   // a module's __managed__ variables packed in slots (0: apart)
    // Where cudaMalloc puts allocations (sw/runtime/device_heap.h): chunks shared by small ones
    // (0: pages of their own with guard pages), the alignment within a chunk, and the mapped
    // window around the first chunk.
    uint64_t allocation_chunk_bytes = 0;
    uint64_t allocation_align_bytes = 256;
    uint64_t heap_mapped_before_bytes = 0;
    uint64_t heap_mapped_after_bytes = 0;
    SmConfig sm;
    L2Config l2;                     // timing mode: the chip's L2 and atomic unit
    DramConfig dram;                 // timing mode: the device memory controllers
    uint32_t channels = 16;          // hardware work queues of the command processor
    uint32_t stream_priorities = 2;  // priority levels of the channels (1: none)
    // The grid's own cost beside its blocks' work: its fixed cost, and the chip-wide pace at which
    // its blocks are handed out.
    uint32_t launch_cycles = 0;
    double cta_dispatch_cycles = 0;
    uint64_t malloc_heap_bytes = 8ull << 20;   // device-side malloc heap (cudaLimitMallocHeapSize)
    PcieConfig pcie;
    uint32_t quantum_cycles = 10000;
    uint32_t threads = 0;            // host threads for functional mode's SMs (SmCluster); 0: one per core
    std::string sampling = "off";    // kernel sampling in timing mode (gpu/kernel_sampler.h)
    uint32_t sampling_detailed = 3;  // launches of each group simulated in timing mode
    double sampling_tolerance = 0.05;
    uint32_t sampling_exact_loads = 4;
    nlohmann::json effective;        // the resolved config (base, overrides and defaults applied), written next to the stats
    nlohmann::json sources;          // where each value comes from: {"key or key prefix": "text"}, base's included

    double cycle_ns() const { return 1000.0 / core_clock_mhz; }
    // The host threads a run uses: sim.threads, or the host's cores when 0.
    uint32_t host_threads() const;
};

// Finds a config by name in the bundled configs directory, or loads a path to a JSON file.
// `overrides` are ("sm.warp_schedulers", "4") pairs. Throws std::runtime_error listing every problem.
GpuConfig load_config(const std::string& name_or_path, const std::vector<std::pair<std::string, std::string>>& overrides = {});

// The same for a config's JSON text; `path` names it in errors.
GpuConfig parse_config(const std::string& path, std::string_view text,
                       const std::vector<std::pair<std::string, std::string>>& overrides = {});

// The values the units take from others: the chip cycle, each channel's bandwidth per cycle, the
// L2's accounting window, the least latency of a request beyond the SM. load_config computes them;
// the Gpu computes them again from the config it is given, which a platform may have changed.
void derive_values(GpuConfig& c);

// "key=value" strings (the --set arguments) as override pairs; throws std::runtime_error for a
// string without a key or an '='.
std::vector<std::pair<std::string, std::string>> parse_overrides(const std::vector<std::string>& sets);

// Directory holding the bundled configs (set at build time, overridable by GPUSIM_CONFIG_DIR).
std::string config_dir();

// The names of the bundled configs, by compute capability (tesla-g80 first).
std::vector<std::string> bundled_configs();

} // namespace gpusim
