// The mbarrier object as the model keeps it in shared memory, and one lane's read-modify-write of
// it: shared by the mbarrier instructions (async_ops.cpp) and the copies that complete on one
// (bulk_ops.cpp).
#pragma once

#include <cstring>
#include <string>

#include "ldst/lane_access.h"

namespace gpusim::mbarrier {

// The word: the pending arrivals of the current phase (bits 0-19), the expected arrivals of each
// phase (20-39), the transaction count (40-60, two's complement) and the phase's parity (63).
struct Word {
    uint32_t pending = 0, expected = 0;
    int32_t tx = 0;
    uint32_t phase = 0;

    static Word of(uint64_t word) {
        Word b;
        b.pending = uint32_t(word & 0xFFFFF);
        b.expected = uint32_t((word >> 20) & 0xFFFFF);
        b.tx = int32_t(uint32_t(word >> 40) << 11) >> 11;
        b.phase = uint32_t(word >> 63);
        return b;
    }
    uint64_t word() const {
        return uint64_t(pending) | uint64_t(expected) << 20 | (uint64_t(uint32_t(tx)) & 0x1FFFFF) << 40 | uint64_t(phase) << 63;
    }
    // A phase completes when its arrivals and its transactions are all in: the next begins.
    bool complete_if_done() {
        if (pending != 0 || tx != 0) return false;
        phase ^= 1;
        pending = expected;
        return true;
    }
};

constexpr uint32_t kMaxCount = (1u << 20) - 1;   // arrival counts and transaction counts (PTX ISA)

// The word at `addr` for lane `l`. An mbarrier lives in shared memory; a generic address elsewhere
// is an error the PTX ISA leaves undefined, which the model reports.
template <MemSpace S>
uint8_t* at(ExecContext& c, Warp& w, int l, uint64_t addr, bool write) {
    if (S == MemSpace::Generic && !memory_map::in_shared_window(addr))
        lane_access::fault(addr, 8, write, l, "generic", "an mbarrier object must be in shared memory");
    return lane_access::locate<S, true>(c, w, l, addr, 8, write);
}

// One read-modify-write of lane l's word: f(word, before) changes it and says whether it completed
// a phase, which orders the block's accesses before it with those after it for the race
// detector, as a barrier does.
template <MemSpace S, class F>
void update(ExecContext& c, Warp& w, int l, uint64_t addr, F f) {
    uint8_t* p = at<S>(c, w, l, addr, true);
    uint64_t before;
    std::memcpy(&before, p, 8);
    Word b = Word::of(before);
    const bool completed = f(b, before);
    const uint64_t after = b.word();
    std::memcpy(p, &after, 8);
    if (completed && c.racecheck) c.racecheck->barrier(c.smid, w.cta_slot);
}

// complete_tx of `bytes` on the word at `addr`: lowers the phase's transaction count.
template <MemSpace S>
void complete_tx(ExecContext& c, Warp& w, int l, uint64_t addr, uint32_t bytes) {
    update<S>(c, w, l, addr, [&](Word& b, uint64_t) {
        b.tx -= int32_t(bytes);
        return b.complete_if_done();
    });
}

} // namespace gpusim::mbarrier
