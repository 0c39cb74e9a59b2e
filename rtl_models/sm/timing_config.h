// The timing parameters of one SM, filled from the GPU config file (docs/config.md lists every
// key with its unit and source). Plain data: the units read their own part.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sm/op_class.h"

namespace gpusim {

enum class PipeKind : uint8_t { Alu, Sfu, Fp64, Ldst, Video, Ctrl, Count };
constexpr int kPipeKinds = int(PipeKind::Count);
const char* pipe_name(PipeKind p);

struct PipeConfig {
    uint32_t lanes = 32;            // operations the pipe accepts per cycle (one instance)
    bool per_scheduler = false;     // one instance per warp scheduler (Fermi's 16-lane halves) or one shared
    bool exclusive = false;         // no other scheduler issues in the cycle this pipe accepts a warp (Fermi fp64)
};

struct OpTiming {
    PipeKind pipe = PipeKind::Alu;
    uint32_t interval_milli = 1000; // initiation interval per lane, in thousandths of a cycle
    uint32_t latency = 1;           // cycles from issue until a dependent instruction may issue
};

struct SchedulerConfig {
    std::string policy = "gto";      // lrr, gto, two_level
    uint32_t dispatch = 1;           // warp instructions one scheduler issues per cycle
    bool serial_dispatch = false;    // the scheduler waits while a pipe takes a warp's operands (cc 1.x)
    uint32_t active_warps = 8;       // two_level: size of the active set
    uint32_t long_latency_cycles = 200;   // two_level: a memory access slower than this leaves the active set
};

struct SharedMemoryConfig {
    uint32_t banks = 32;
    uint32_t interleave_bytes = 4;   // bytes mapped to one bank before the next
    uint32_t bank_width_bytes = 4;   // bytes a bank delivers per pass
    uint32_t max_group_threads = 32; // threads served together at most (16: half-warp on cc 1.x)
    bool single_broadcast = false;   // cc 1.x: one broadcast word per pass
    bool split_wide = false;         // cc 1.x: accesses wider than a bank become one request per bank word
    uint32_t latency = 50;           // cycles, conflict-free load
    uint32_t pass_cycles = 2;        // cycles each further pass adds
    std::string impl = "systemc";    // "rtl": the verilated bank arbiter finds the passes (docs/rtl.md)
    std::string rtl_vcd;             // with impl "rtl": SM 0's arbiter signals to this VCD file
};

struct CacheConfig {
    uint32_t bytes = 0;              // 0: no cache
    uint32_t line_bytes = 128;
    uint32_t ways = 4;
    uint32_t latency = 0;            // hit latency, cycles
    uint32_t mshrs = 0;              // line misses in flight at once (0: not limited; the L1 only)
};

struct ConstantCacheConfig {
    CacheConfig cache;
    uint32_t group_threads = 32;     // threads whose addresses are served together (16 on cc 1.x)
    uint32_t pass_cycles = 2;        // cycles each further distinct address adds
};

struct TextureCacheConfig {
    CacheConfig cache;
    uint32_t pass_cycles = 2;        // cycles each further distinct line of a warp instruction adds
};

struct MemoryTimingConfig {
    std::string coalescing = "cc20";   // cc10, cc12, cc20, cc35 (docs/config.md)
    CacheConfig l1;                    // per SM, global loads (when cached) and local memory
    bool l1_caches_global = true;
    CacheConfig l2;                    // per chip
    uint32_t l2_atomic_cycles = 0;     // per atomic operation on one address (0: not serialized)
    uint32_t dram_latency = 400;       // cycles beyond the L2 (or beyond the SM when there is no L2)
    uint32_t dram_channels = 6;        // memory controllers, each with its share of the bandwidth
    double dram_bandwidth_gb_s = 177.4;
    uint32_t dram_interleave_bytes = 256;   // consecutive bytes on one channel
    double dram_bytes_per_cycle = 21.1;     // per channel, per core cycle (derived at load)
    uint32_t dram_window_cycles = 64;       // bandwidth is accounted per window of this many cycles
    uint32_t transaction_cycles = 2;   // LD/ST pipe cycles each extra transaction of a warp adds
    double cycle_ns = 1.0;             // the chip cycle, for the TLM delays (derived at load)
    uint64_t quantum_cycles = 10000;   // sim.quantum_cycles: how far apart in time requests may arrive
};

struct TimingConfig {
    bool enabled = false;              // sim.mode == "timing"
    bool skip_idle = true;             // sim.skip_idle_cycles: sleep schedulers that cannot issue
    SchedulerConfig scheduler;
    std::array<PipeConfig, kPipeKinds> pipes{};
    std::array<OpTiming, kOpClasses> ops{};
    SharedMemoryConfig smem;
    ConstantCacheConfig ccache;
    TextureCacheConfig tex;
    MemoryTimingConfig memory;
    uint32_t barrier_latency = 20;     // cycles from the last arrival until the waiting warps may issue
};

} // namespace gpusim
