// The host link and copy engines of one GPU generation (the config's "pcie" section).
#pragma once

#include <cstdint>

namespace gpusim {

struct PcieConfig {
    double bandwidth_gb_s = 8.0;     // per direction, GB/s (1e9 bytes per second); the link is full duplex
    double latency_ns = 1000.0;      // setup latency of one copy descriptor
    uint32_t burst_bytes = 4096;     // bytes per TLM transaction of a copy engine
    uint32_t copy_engines = 1;       // engines that move data beside kernels (cudaDeviceProp::asyncEngineCount)
    bool overlap = true;             // whether a copy may run while a kernel runs (deviceOverlap)
    double staging_gb_s = 6.0;       // host memcpy into the pinned bounce buffer, for pageable copies
    double access_latency_ns = 1000.0;  // round trip of a kernel's access to mapped host memory
    double row_ns = 4.1;             // a 2D copy over the link: the least time per row
    double device_row_ns = 0.6;      // a 2D copy or fill within device memory: the least time per row
};

} // namespace gpusim
