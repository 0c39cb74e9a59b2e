// What an executing warp instruction can reach besides its own warp: the kernel image (immediate
// pool), the CTA's shared memory, the launch parameters, device memory and the SM's clocks.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "isa/memory_view.h"
#include "isa/device_services.h"
#include "isa/warp.h"

namespace gpusim {

class AllocationMap;
class RaceCheck;
class StoreBuffer;

// What stopped a kernel: a memory access fault, a failed device-side assert, a trap instruction,
// or any other run-time error (a bad call target, a stack overflow ...).
enum class FaultKind : uint8_t { Exec, Memory, Misaligned, Assert, Trap, Timeout };

// A run-time error of one thread other than a memory access (a bad call target, a stack overflow,
// a jump-table index out of range); the SM reports it with the kernel, block, thread and instruction.
struct ExecFault {
    ExecFault(int l, std::string msg, FaultKind k = FaultKind::Exec, std::string w = {})
        : lane(l), message(std::move(msg)), kind(k), where(std::move(w)) {}
    int lane;
    std::string message;
    FaultKind kind = FaultKind::Exec;
    std::string where;              // Assert: "file:line: function", as CUDA prints it
    LaneMask lanes = 0;             // Assert: every lane that failed it (each prints CUDA's line)
};

constexpr int kPmCounters = 8;      // pmevent counters a program may trigger (8-15 are reserved)

// Thrown by an instruction, before it changes anything, that must wait for its SM's turn while
// the SMs run apart on host threads (ExecContext::apart): it reaches the host's memory over the
// link. The SM stops in front of it (SmCore::paused) and runs it in turn.
struct PauseRequest {};

struct ExecContext {
    const KernelImage* kernel = nullptr;
    MemoryView* gmem = nullptr;
    uint8_t* shared = nullptr;
    uint32_t shared_size = 0;
    const uint8_t* params = nullptr;
    uint32_t param_size = 0;
    uint64_t clock = 0;              // SM cycle counter (timing mode: exact at each issue)
    // Functional mode: %clock is issue_slots / slots_per_cycle, so it advances with every warp
    // instruction the SM issues (0 in timing mode).
    uint64_t issue_slots = 0;
    uint32_t slots_per_cycle = 0;
    uint64_t time_ns = 0;            // simulated time, for %globaltimer
    uint32_t smid = 0;
    uint64_t* pm_events = nullptr;   // the SM's kPmCounters pmevent counters
    DeviceServices* services = nullptr;   // device heap and printf output; null in bare unit tests
    uint32_t try_wait_suspend = 0;        // sm.try_wait_suspend: cycles a failing mbarrier.try_wait suspends its warp
    bool sfu_ideal = false;               // sfu.approx: "ideal" rather than the captured hardware results
    // The checks (rtl_models/check): what the program allocated, for fault reports and, when
    // `memcheck` (sim.memcheck), for exact bounds; the race detector when sim.racecheck is on.
    const AllocationMap* allocations = nullptr;
    bool memcheck = false;
    RaceCheck* racecheck = nullptr;
    // The relaxed memory model's store buffer (sim.memory_model=relaxed); null under "sc".
    StoreBuffer* stores = nullptr;
    // Functional mode on host threads (SmCluster): the SMs run apart, so an instruction that orders
    // with other SMs (Inst kOrdered, or one that throws PauseRequest) stops the SM before it.
    bool apart = false;
    // Timing mode's turns while other SMs run apart (SmCluster's overlapped rounds): an integer
    // reduction nobody reads runs as the host's atomic here too, since a reduction apart may
    // update the same word meanwhile.
    bool reductions_atomic = false;

    const uint64_t* src(Warp& w, Row r) const {
        return r >= 0 ? w.regs + size_t(r) * kWarpSize : kernel->imm_row(r);
    }
};

// Population count: the POPCNT instruction where the build targets it, else the bit trick (the
// compiler's builtin would call a library routine).
inline uint32_t lane_count(LaneMask m) {
#ifdef __POPCNT__
    return uint32_t(__builtin_popcount(m));
#else
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}

// The lanes first .. first+size-1: one group of threads a unit serves together (a half-warp ...).
inline LaneMask lane_group(uint32_t first, uint32_t size) {
    return size >= uint32_t(kWarpSize) ? ~0u : ((1u << size) - 1) << first;
}

// A .sync.aligned instruction (mma, wmma, ldmatrix ...) executed by part of a warp: undefined in
// PTX, a fault naming the first missing lane here.
inline void require_whole_warp(LaneMask m, const char* what) {
    if (m != 0xFFFFFFFFu)
        throw ExecFault(__builtin_ctz(~m), std::string(what) + " needs all 32 lanes of the warp (.sync.aligned)");
}

// Visits every lane of `mask`; the full-warp case is a plain loop the compiler can unroll.
template <class F>
inline void for_lanes(LaneMask mask, F&& f) {
    if (mask == 0xFFFFFFFFu) {
        for (int l = 0; l < kWarpSize; ++l) f(l);
        return;
    }
    while (mask) {
        int l = __builtin_ctz(mask);
        mask &= mask - 1;
        f(l);
    }
}

// The lanes of `mask` for which cond(lane) holds. For a full warp the 32 conditions are computed
// as bytes, in a loop the compiler vectorises, and packed eight at a time: a multiply gathers the
// low bit of each byte of a word into its top byte.
template <class F>
inline LaneMask lane_mask(LaneMask mask, F&& cond) {
    LaneMask r = 0;
    if (mask == 0xFFFFFFFFu) {
        uint8_t bits[kWarpSize];
        for (int l = 0; l < kWarpSize; ++l) bits[l] = cond(l) ? 1 : 0;
        for (int k = 0; k < kWarpSize / 8; ++k) {
            uint64_t x;
            __builtin_memcpy(&x, bits + 8 * k, 8);
            r |= LaneMask((x * 0x0102040810204080ull) >> 56) << (8 * k);
        }
        return r;
    }
    for_lanes(mask, [&](int l) { r |= LaneMask(cond(l) ? 1 : 0) << l; });
    return r;
}

// Register slots hold 64 bits; narrower values sit in the low bits, zero-extended.
template <class T>
inline T get(uint64_t v) {
    if constexpr (std::is_same_v<T, float>) {
        uint32_t b = static_cast<uint32_t>(v);
        float f;
        __builtin_memcpy(&f, &b, 4);
        return f;
    } else if constexpr (std::is_same_v<T, double>) {
        double d;
        __builtin_memcpy(&d, &v, 8);
        return d;
    } else {
        return static_cast<T>(v);
    }
}

template <class T>
inline uint64_t put(T x) {
    if constexpr (std::is_same_v<T, float>) {
        uint32_t b;
        __builtin_memcpy(&b, &x, 4);
        return b;
    } else if constexpr (std::is_same_v<T, double>) {
        uint64_t b;
        __builtin_memcpy(&b, &x, 8);
        return b;
    } else if constexpr (std::is_same_v<T, bool>) {
        return x ? 1u : 0u;
    } else {
        return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(x));
    }
}

// A signed result narrower than its destination register is sign-extended to the register's
// width (`reg_bytes`, 0 when unknown); unsigned results are zero-extended.
inline uint64_t extend_to_register(uint64_t v, unsigned type_bytes, bool is_signed, unsigned reg_bytes) {
    if (!is_signed || type_bytes >= 8 || reg_bytes <= type_bytes) return v;
    unsigned bits = type_bytes * 8;
    uint64_t x = v & ((uint64_t(1) << bits) - 1);
    if ((x >> (bits - 1)) & 1) x |= ~((uint64_t(1) << bits) - 1);
    return reg_bytes >= 8 ? x : x & ((uint64_t(1) << (reg_bytes * 8)) - 1);
}

} // namespace gpusim
