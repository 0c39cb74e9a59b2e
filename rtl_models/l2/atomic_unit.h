// The atomic unit beside the L2 (one for the chip, as the L2 is): each address serves one atomic
// operation per l2.atomic_cycles, so operations on one address (from the lanes of a warp, or from
// different warps and SMs) are serialized, while different addresses proceed in parallel without
// limit. With l2.slices, the same accounting is kept per slice instead of per address: a
// request's `ops` are then the passes its sector needs (the most lanes on one of its words).
//
// Requests come from SMs up to a quantum apart in time, so, as device memory bandwidth, an
// address's throughput is accounted per window of sim.dram_window_cycles (rounded up to whole
// operations): a request's operations take the free slots of the window of their cycle and of the
// following ones.
#pragma once

#include <cstdint>
#include <vector>

#include "l2/l2_config.h"

namespace gpusim {

class AtomicUnit {
public:
    explicit AtomicUnit(const L2Config& cfg);

    // Cycles beyond one operation's that `ops` operations on `addr` arriving at cycle `at` take to
    // complete: the waiting for earlier ones on the address, and their own one after another.
    // No later request arrives before cycle `earliest` (SystemC time: every SM is at or past it).
    uint64_t serve(uint64_t addr, uint32_t ops, uint64_t at, uint64_t earliest);

    uint64_t operations() const { return m_operations; }
    uint64_t wait_cycles() const { return m_wait_cycles; }
    size_t windows_kept() const { return m_count; }   // (address, window) pairs remembered

private:
    // Operations taken per address and window, in an open-addressing table (the lookup is on every
    // atomic): a table over half full is rebuilt without the windows no request can reach any more,
    // and doubled if that is not enough.
    struct Slot {
        uint64_t addr = 0;
        uint64_t window = kEmpty;
        uint64_t skip = 0;               // when full: a later window that may have room
        uint32_t used = 0;
    };
    static constexpr uint64_t kEmpty = UINT64_MAX;
    static constexpr size_t kMinSlots = size_t(1) << 12;
    uint32_t m_cycles;                    // per operation on one address (0: not serialized)
    SliceMap m_slices;                    // l2.slices: serialized per slice (0 slices: per address)
    uint32_t m_window;
    uint32_t m_per_window;                // operations one address serves per window
    std::vector<Slot> m_slots;
    size_t m_count = 0;
    uint64_t m_operations = 0, m_wait_cycles = 0;

    Slot& slot(uint64_t addr, uint64_t window);
    // The first window from `window` on with room on `addr`, following (and shortening) the skips
    // of full windows, so a request on a busy address does not walk its whole queue.
    Slot& first_open(uint64_t addr, uint64_t window);
    // Drops the windows before `oldest_window`; leaves room for a request of `ops` operations.
    void rebuild(uint64_t oldest_window, uint32_t ops);
};

} // namespace gpusim
