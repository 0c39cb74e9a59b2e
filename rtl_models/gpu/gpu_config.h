// The typed GPU configuration: loaded from one JSON file per generation (rtl_models/configs/),
// validated once, every key known; `--set key=value` overrides any parameter.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../tlm/pcie/pcie_config.h"
#include "sm/sm_config.h"

namespace gpusim {

struct GpuConfig {
    std::string name;
    std::string description;
    std::string compute_capability;
    uint32_t num_sms = 15;
    double core_clock_mhz = 1401.0;
    uint32_t max_threads_per_block = 1024;
    uint32_t max_shared_per_block = 49152;
    uint32_t max_grid_x = 65535;
    uint64_t memory_bytes = 1536ull << 20;
    double memory_latency_ns = 0;
    double memory_clock_mhz = 1848.0;   // as cudaDevAttrMemoryClockRate reports it
    uint32_t memory_bus_bits = 384;
    SmConfig sm;
    uint32_t channels = 16;          // hardware work queues of the command processor
    uint64_t malloc_heap_bytes = 8ull << 20;   // device-side malloc heap (cudaLimitMallocHeapSize)
    PcieConfig pcie;
    uint32_t quantum_cycles = 10000;
    nlohmann::json effective;        // the resolved config, written next to the stats

    double cycle_ns() const { return 1000.0 / core_clock_mhz; }
};

// Finds a config by name in the bundled configs directory, or loads a path to a JSON file.
// `overrides` are ("sm.warp_schedulers", "4") pairs. Throws std::runtime_error listing every problem.
GpuConfig load_config(const std::string& name_or_path, const std::vector<std::pair<std::string, std::string>>& overrides = {});

// "key=value" strings (the --set arguments) as override pairs; throws std::runtime_error for a
// string without a key or an '='.
std::vector<std::pair<std::string, std::string>> parse_overrides(const std::vector<std::string>& sets);

// Directory holding the bundled configs (set at build time, overridable by GPUSIM_CONFIG_DIR).
std::string config_dir();

} // namespace gpusim
