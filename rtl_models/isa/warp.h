// Architectural state of one warp: lane-contiguous registers, predicate masks, SIMT stack, local memory.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/isa.h"

namespace gpusim {

// One deferred path of the SIMT reconvergence stack.
struct SimtEntry {
    uint32_t pc;
    uint32_t rpc;    // where this path rejoins the path below it
    LaneMask mask;
};

// One activation of a called function. The threads that made the call run it together; the
// warp's other threads wait at the return point, as at a branch's reconvergence point.
struct CallFrame {
    uint32_t return_pc;
    uint32_t rpc;                // the caller's reconvergence point, restored on return
    uint32_t site;               // KernelImage::calls
    uint32_t callee;             // KernelImage::functions
    uint32_t fp;                 // frame base in local memory
    uint32_t stack_depth;        // SIMT stack entries that belong to the callers
    LaneMask lanes;              // threads that made the call
    LaneMask returned = 0;       // threads that executed ret
    int64_t saved_at = -1;       // registers saved in Warp::saved for a recursive call, -1 if none
};

// The fields every step reads come first, in the first cache line (a timing-mode scan reads a
// warp's state, place and readiness, and passes on; the SM's warps do not stay in the host's
// cache between its turns).
struct alignas(64) Warp {
    // Parked: stands at an instruction that waits for its SM's turn (functional mode on host
    // threads, SmCore::step with `apart`).
    enum class State : uint8_t { Ready, AtBarrier, Done, Parked };

    // Top of the SIMT stack lives in these fields; deferred paths are in `stack`.
    uint32_t pc = 0;
    uint32_t rpc = UINT32_MAX;
    LaneMask active = 0;
    State state = State::Ready;
    // Timing mode: operand_ready of the instruction at `operands_pc`, kept until the warp issues
    // again (only its own issues change its scoreboard), and what wrote the entry it waits on last
    // (refines a dependency stall).
    uint8_t operands_source = 0;
    uint32_t operands_pc = UINT32_MAX;
    uint64_t operands_at = 0;
    uint64_t ready_at = 0;           // timing mode: when the next instruction may issue
    uint32_t suspend = 0;            // timing mode: cycles the instruction just executed suspends the warp
    uint64_t* regs = nullptr;        // row-major: regs[row * 32 + lane], in the SM's RegisterArena
    // Timing mode: the scoreboard, laid out by the kernel's ScoreboardMap: the cycle at which each
    // entry (register row, predicate, the warp's outstanding memory accesses) is written.
    std::vector<uint64_t> board;

    std::vector<LaneMask> preds;     // one bit per lane
    std::vector<uint8_t> local;      // per-thread local memory: local[lane * local_bytes + offset]
    uint32_t local_bytes = 0;
    LaneMask exited = 0;
    LaneMask carry = 0;              // CC.CF of each lane, for add.cc/addc and friends
    std::vector<SimtEntry> stack;
    std::vector<CallFrame> frames;   // innermost call last; empty while the kernel body runs
    std::vector<uint64_t> saved;     // register rows of outer activations of recursive functions

    uint32_t cta_slot = 0;           // which resident CTA of the SM owns the warp
    uint32_t warp_in_cta = 0;
    uint32_t barrier_id = 0;         // barrier the warp waits on when AtBarrier
    uint32_t barrier_count = 0;      // thread count named by bar.sync, 0 for all threads
    // What the barrier instruction asks for: wait (sync), only count (arrive), or a reduction over
    // the predicate `barrier_pred` of the lanes `barrier_lanes`, written to `barrier_dest`.
    enum class BarrierOp : uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr } barrier_op = BarrierOp::Sync;
    LaneMask barrier_lanes = 0;
    LaneMask barrier_pred = 0;
    Row barrier_dest = kNoRow;       // bar.red.popc destination row
    int16_t barrier_dest_pred = -1;  // bar.red.and/or destination predicate

    // What wrote each scoreboard entry, as the WarpScheduler::Stall a wait for it counts as
    // (memory, execution, cache miss, memory structural).
    std::vector<uint8_t> board_source;
    uint64_t barrier_since = 0;      // cycle it arrived at its barrier
    uint32_t scheduler = 0;

    uint64_t* row(Row r) { return regs + size_t(r) * kWarpSize; }
};

} // namespace gpusim
