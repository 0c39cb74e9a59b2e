// The SM's window onto device memory. Accesses hit a small cache of DMI regions granted by the
// memory target; a miss asks the backend (the SM's TLM socket) for DMI, and where none is granted
// the access goes through b_transport. Faults surface as AccessFault.
#pragma once

#include <cstdint>
#include <string_view>
#include <cstring>
#include <stdexcept>

namespace gpusim {

// The reason of a misaligned access, which CUDA reports as its own error.
inline constexpr const char* kMisalignedAddress = "misaligned address";

// A memory access the memory system refused (unmapped or misaligned address).
struct AccessFault {
    uint64_t address;
    uint32_t size;
    bool write;
    const char* reason;
    int lane = -1;            // filled in by the instruction that made the access
    const char* space = "global";

    // CUDA reports a misaligned access as an error of its own, not as an illegal address.
    bool misaligned() const { return std::string_view(reason) == kMisalignedAddress; }
};

class MemoryBackend {
public:
    virtual ~MemoryBackend() = default;
    // Asks for direct access to the region holding `addr`; fills [start, end] and the host pointer of `start`.
    virtual bool get_dmi(uint64_t addr, bool write, uint64_t& start, uint64_t& end, uint8_t*& ptr,
                         bool& writable) = 0;
    // Moves `size` bytes through the socket; returns false when the target reports an error.
    virtual bool transport(bool write, uint64_t addr, uint8_t* data, uint32_t size) = 0;
};

class MemoryView {
public:
    explicit MemoryView(MemoryBackend* backend = nullptr) : m_backend(backend) {}

    void set_backend(MemoryBackend* b) { m_backend = b; invalidate_all(); }
    void invalidate_all() { for (auto& e : m_cache) e = Entry{}; }
    void invalidate(uint64_t start, uint64_t end) {
        for (auto& e : m_cache)
            if (e.ptr && e.start <= end && start <= e.end) e = Entry{};
    }

    // Host pointer for `size` bytes at `addr`, or nullptr when only b_transport can reach it.
    uint8_t* direct(uint64_t addr, uint32_t size, bool write) {
        if (addr & (size - 1)) throw AccessFault{addr, size, write, kMisalignedAddress};
        Entry& e = m_cache[slot(addr)];
        if (e.ptr && addr >= e.start && addr + size - 1 <= e.end && (!write || e.writable))
            return e.ptr + (addr - e.start);
        return refill(addr, size, write);
    }

    // Host pointer of `lo` when all of [lo, hi] lies in one region already granted for direct
    // access (a whole coalesced warp access), else nullptr: the caller then goes byte range by
    // byte range through direct(), which asks for the region.
    uint8_t* region(uint64_t lo, uint64_t hi, bool write) const {
        const Entry& e = m_cache[slot(lo)];
        if (e.ptr && lo >= e.start && hi <= e.end && (!write || e.writable)) return e.ptr + (lo - e.start);
        return nullptr;
    }

    void slow(bool write, uint64_t addr, uint8_t* data, uint32_t size) {
        if (!m_backend || !m_backend->transport(write, addr, data, size))
            throw AccessFault{addr, size, write, "address is not mapped"};
    }

private:
    static constexpr int kEntries = 64;
    static constexpr int kIndexShift = 16;
    static constexpr int kFold = 6;  // log2(kEntries)

    // The 64 KiB block's number folded with its higher bits: buffers placed at a power-of-two
    // stride (the driver's 2 MiB-aligned layout puts 16 MiB buffers 16 MiB apart) would otherwise
    // share one entry, and a warp reading one and writing the other would refill it every access.
    static size_t slot(uint64_t addr) {
        const uint64_t block = addr >> kIndexShift;
        return (block ^ (block >> kFold) ^ (block >> 2 * kFold)) & (kEntries - 1);
    }

    struct Entry {
        uint64_t start = 0;
        uint64_t end = 0;
        uint8_t* ptr = nullptr;
        bool writable = false;
    };

    uint8_t* refill(uint64_t addr, uint32_t size, bool write) {
        if (!m_backend) throw AccessFault{addr, size, write, "no memory attached"};
        uint64_t start, end;
        uint8_t* ptr;
        bool writable = false;
        if (!m_backend->get_dmi(addr, write, start, end, ptr, writable)) return nullptr;
        if (write && !writable) return nullptr;
        if (addr < start || addr + size - 1 > end) return nullptr;
        Entry& e = m_cache[slot(addr)];
        e = Entry{start, end, ptr, writable};
        return ptr + (addr - start);
    }

    MemoryBackend* m_backend;
    Entry m_cache[kEntries];
};

} // namespace gpusim
