// One lane's access to memory on behalf of an instruction of the LD/ST unit: the space resolved,
// bounds and alignment checked, the race detector, memcheck and the relaxed memory model told,
// and faults named by lane and space. Shared by the unit's instructions (ldst_ops.cpp) and its
// asynchronous copies and barriers (async_ops.cpp).
#pragma once

#include <cstring>

#include "check/allocation_map.h"
#include "check/race_check.h"
#include "isa/exec_context.h"
#include "ldst/store_buffer.h"
#include "protocol/memory_map.h"

namespace gpusim::lane_access {

[[noreturn]] inline void fault(uint64_t addr, uint32_t size, bool write, int lane, const char* space, const char* why) {
    AccessFault f{addr, size, write, why};
    f.lane = lane;
    f.space = space;
    throw f;
}

// Host pointer of an SM-internal access, checked for bounds and alignment.
inline uint8_t* internal(uint8_t* base, uint64_t limit, uint64_t addr, uint32_t size, bool write, int lane, const char* space) {
    if (addr & (size - 1)) fault(addr, size, write, lane, space, kMisalignedAddress);
    if (addr + size > limit || addr + size < addr) fault(addr, size, write, lane, space, "address out of range");
    return base + addr;
}

// --racecheck sees every shared and global access; an atomic is seen once, as its write. `p` is
// where the bytes are (null when only b_transport reaches them) and `value` what a store writes.
template <bool Atomic>
inline void race(ExecContext& c, Warp& w, int lane, uint64_t addr, uint32_t size, bool write, bool shared, const uint8_t* p,
          const void* value) {
    if (Atomic && !write) return;
    RaceCheck::Access a;
    a.thread = w.warp_in_cta * kWarpSize + uint32_t(lane);
    a.pc = w.pc - 1;
    a.kind = Atomic ? RaceCheck::Kind::Atomic : write ? RaceCheck::Kind::Write : RaceCheck::Kind::Read;
    a.unchanged = write && p && value && std::memcmp(p, value, size) == 0;
    if (shared) c.racecheck->shared_access(c.smid, w.cta_slot, a, addr, size);
    else c.racecheck->global_access(c.smid, w.cta_slot, a, addr, size);
}

// Resolves the space of one lane's access and returns a host pointer, or nullptr for a global
// access that must go through b_transport. The space is a template argument so each instruction's
// lane loop compiles to the one path it needs.
template <MemSpace S, bool Atomic = false>
inline uint8_t* locate(ExecContext& c, Warp& w, int lane, uint64_t addr, uint32_t size, bool write,
                       const void* value = nullptr) {
    if constexpr (S == MemSpace::Shared) {
        uint8_t* p = internal(c.shared, c.shared_size, addr, size, write, lane, "shared");
        if (c.racecheck) race<Atomic>(c, w, lane, addr, size, write, true, p, value);
        return p;
    } else if constexpr (S == MemSpace::Local) {
        return internal(w.local.data() + size_t(lane) * w.local_bytes, w.local_bytes, addr, size, write, lane, "local");
    } else if constexpr (S == MemSpace::Param) {
        if (write) fault(addr, size, write, lane, "param", "kernel parameters are read-only");
        return internal(const_cast<uint8_t*>(c.params), c.param_size, addr, size, write, lane, "param");
    } else {
        if constexpr (S == MemSpace::Generic) {
            if (memory_map::in_shared_window(addr))
                return locate<MemSpace::Shared, Atomic>(c, w, lane, addr - memory_map::kSharedWindowBase, size, write, value);
            if (memory_map::in_local_window(addr))
                return locate<MemSpace::Local>(c, w, lane, addr - memory_map::kLocalWindowBase, size, write);
        }
        try {
            if constexpr (S == MemSpace::Const) {
                return c.gmem->direct(addr, size, write);
            } else {
                if (c.memcheck) c.allocations->check(addr, size, write);
                uint8_t* p = c.gmem->direct(addr, size, write);
                if (c.racecheck) race<Atomic>(c, w, lane, addr, size, write, false, p, value);
                return p;
            }
        } catch (AccessFault& f) {
            f.lane = lane;
            f.space = mem_space_name(S);
            throw;
        }
    }
}

// Under the relaxed memory model (ExecContext::stores), whether a lane's access is to global
// memory, which the store buffer holds stores of.
template <MemSpace S>
inline bool buffered_space(uint64_t addr) {
    if constexpr (S == MemSpace::Global) return true;
    else if constexpr (S == MemSpace::Generic) return !memory_map::in_shared_window(addr) && !memory_map::in_local_window(addr);
    else return false;
}

// The SM's cycle as the relaxed memory model counts it (functional mode: issue slots per cycle).
inline uint64_t sm_now(const ExecContext& c) { return c.slots_per_cycle ? c.issue_slots / c.slots_per_cycle : c.clock; }

template <class T, MemSpace S, bool Atomic = false>
inline T load_elem(ExecContext& c, Warp& w, int lane, uint64_t addr) {
    // The SM reads its own buffered stores: they drain first.
    if (c.stores && buffered_space<S>(addr)) c.stores->before_access(addr, sizeof(T));
    T v;
    if (uint8_t* p = locate<S, Atomic>(c, w, lane, addr, sizeof(T), false)) {
        std::memcpy(&v, p, sizeof(T));
    } else {
        try {
            c.gmem->slow(false, addr, reinterpret_cast<uint8_t*>(&v), sizeof(T));
        } catch (AccessFault& f) {
            f.lane = lane;
            throw;
        }
    }
    // Under the relaxed model a plain load may still see what another SM's store replaced.
    if (!Atomic && c.stores && buffered_space<S>(addr)) c.stores->stale_read(addr, &v, sizeof(T), sm_now(c));
    return v;
}

template <class T, MemSpace S, bool Atomic = false>
inline void store_elem(ExecContext& c, Warp& w, int lane, uint64_t addr, T v) {
    if (uint8_t* p = locate<S, Atomic>(c, w, lane, addr, sizeof(T), true, &v)) {
        // A plain or relaxed global store leaves the SM through its store buffer (one the SM
        // reaches directly: a store that only b_transport reaches is made at once).
        if (!Atomic && c.stores && buffered_space<S>(addr))
            return c.stores->store(addr, &v, sizeof(T), sm_now(c));
        std::memcpy(p, &v, sizeof(T));
    } else {
        try {
            c.gmem->slow(true, addr, reinterpret_cast<uint8_t*>(&v), sizeof(T));
        } catch (AccessFault& f) {
            f.lane = lane;
            throw;
        }
    }
}

inline uint64_t address(ExecContext& c, Warp& w, const Inst& in, int lane) {
    return effective_address(in.a == kNoRow ? 0 : c.src(w, in.a)[lane], in);
}

// While the SMs run apart on host threads, an access of the host's memory (over the link, where
// what moves is accounted in order) waits for the SM's turn: it stops before any lane moves.
template <MemSpace S>
inline void wait_turn_for_host_memory(const ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if constexpr (S == MemSpace::Global || S == MemSpace::Generic) {
        if (!c.apart) return;
        bool host = false;
        if (in.a == kNoRow) {
            host = m && memory_map::is_host_address(effective_address(0, in));
        } else {
            const uint64_t* a = c.src(w, in.a);
            for_lanes(m, [&](int l) { host |= memory_map::is_host_address(effective_address(a[l], in)); });
        }
        if (host) throw PauseRequest{};
    }
}

} // namespace gpusim::lane_access
