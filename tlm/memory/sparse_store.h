// Byte storage for a full 64-bit address space, in pages created on first use.
//
// A page's bytes come from slabs of the host's huge-page size: the host's kernel zeroes and backs
// a slab when it is first written, in one fault per 2 MiB instead of one per 4 KiB, and never
// backs what is never written. So a 256 MiB copy into fresh device memory costs
// 128 faults, and an 80 GB chip's allocations cost the host only what a program touches.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "memory/huge_pages.h"

namespace gpusim {

class SparseStore {
public:
    static constexpr uint64_t kPageBits = 16;
    static constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;
    static constexpr uint64_t kSlabBits = 21;   // a huge page of the host
    static constexpr uint64_t kSlabSize = uint64_t(1) << kSlabBits;
    static_assert(kSlabSize == kHugePageBytes, "a slab is a huge page");

    SparseStore() = default;
    ~SparseStore();
    SparseStore(const SparseStore&) = delete;
    SparseStore& operator=(const SparseStore&) = delete;

    // Host pointer of the page holding `addr`, creating it (all zeros) when `create` is set.
    uint8_t* page(uint64_t addr, bool create) {
        auto it = m_pages.find(addr >> kPageBits);
        if (it != m_pages.end()) return it->second.ptr;
        return create ? create_page(addr) : nullptr;
    }

    // Backs the page holding `addr` with memory the caller owns (kPageSize bytes at `host`), as
    // managed memory's pages are the host's own.
    void attach(uint64_t addr, uint8_t* host);
    // Forgets the page; its bytes go back to the host, and a page created there later is zeros.
    void release(uint64_t addr);

    // Copies across page boundaries; reads of pages never created see zeros.
    void read(uint64_t addr, uint8_t* out, uint64_t len);
    void write(uint64_t addr, const uint8_t* in, uint64_t len);

    size_t pages() const { return m_pages.size(); }
    size_t slabs() const { return m_slabs.size(); }

private:
    struct Page {
        uint8_t* ptr = nullptr;
        bool in_slab = false;     // else the caller's (attached)
    };
    struct Slab {
        uint8_t* base = nullptr;
        uint32_t pages = 0;       // pages of the store that live in it
    };
    std::unordered_map<uint64_t, Page> m_pages;   // by address >> kPageBits
    std::unordered_map<uint64_t, Slab> m_slabs;   // by address >> kSlabBits
    // Slabs come from arenas of address space reserved a gigabyte at a time: the host faults huge
    // pages into one large mapping several times faster than into a mapping per slab.
    std::vector<uint8_t*> m_arenas;
    uint8_t* m_next = nullptr;                 // the next slab of the newest arena never used
    uint8_t* m_end = nullptr;
    std::vector<uint8_t*> m_free;              // slabs given back, their bytes returned to the host

    uint8_t* create_page(uint64_t addr);
    uint8_t* take_slab();
    void drop_from_slab(uint64_t addr, uint8_t* ptr);
};

} // namespace gpusim
