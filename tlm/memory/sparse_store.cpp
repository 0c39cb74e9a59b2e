#include "memory/sparse_store.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

#include "memory/copy_bytes.h"
#include "memory/huge_pages.h"

namespace gpusim {

namespace {
constexpr uint64_t kArenaBytes = uint64_t(1) << 30;
} // namespace

SparseStore::~SparseStore() {
    for (uint8_t* arena : m_arenas) unmap_huge(arena, kArenaBytes);
}

uint8_t* SparseStore::take_slab() {
    if (!m_free.empty()) {
        uint8_t* slab = m_free.back();
        m_free.pop_back();
        return slab;
    }
    if (m_next == m_end) {
        m_arenas.reserve(m_arenas.size() + 1);   // no throw between the mapping and its record
        m_next = static_cast<uint8_t*>(map_huge(kArenaBytes));
        m_end = m_next + kArenaBytes;
        m_arenas.push_back(m_next);
    }
    uint8_t* slab = m_next;
    m_next += kSlabSize;
    return slab;
}

uint8_t* SparseStore::create_page(uint64_t addr) {
    auto [slab, fresh] = m_slabs.try_emplace(addr >> kSlabBits);
    if (fresh) {
        try {
            slab->second.base = take_slab();
        } catch (...) {
            m_slabs.erase(slab);
            throw;
        }
    }
    uint8_t* ptr = slab->second.base + (addr & (kSlabSize - 1) & ~(kPageSize - 1));
    m_pages[addr >> kPageBits] = Page{ptr, true};
    ++slab->second.pages;   // after the insert, which may throw
    return ptr;
}

// The page's bytes go back to the host (zeros when touched again); the slab goes to the free list
// when its last page goes.
void SparseStore::drop_from_slab(uint64_t addr, uint8_t* ptr) {
    auto it = m_slabs.find(addr >> kSlabBits);
    if (it == m_slabs.end()) return;
    if (--it->second.pages == 0) {
        madvise(it->second.base, kSlabSize, MADV_DONTNEED);
        m_free.push_back(it->second.base);
        m_slabs.erase(it);
    } else {
        madvise(ptr, kPageSize, MADV_DONTNEED);
    }
}

void SparseStore::attach(uint64_t addr, uint8_t* host) {
    release(addr);
    m_pages[addr >> kPageBits] = Page{host, false};
}

void SparseStore::release(uint64_t addr) {
    auto it = m_pages.find(addr >> kPageBits);
    if (it == m_pages.end()) return;
    const Page p = it->second;
    m_pages.erase(it);
    if (p.in_slab) drop_from_slab(addr, p.ptr);
}

void SparseStore::read(uint64_t addr, uint8_t* out, uint64_t len) {
    while (len) {
        const uint64_t off = addr & (kPageSize - 1), n = std::min(len, kPageSize - off);
        if (const uint8_t* p = page(addr, false)) copy_bytes(out, p + off, n);
        else std::memset(out, 0, n);
        addr += n;
        out += n;
        len -= n;
    }
}

void SparseStore::write(uint64_t addr, const uint8_t* in, uint64_t len) {
    while (len) {
        const uint64_t off = addr & (kPageSize - 1), n = std::min(len, kPageSize - off);
        copy_bytes(page(addr, true) + off, in, n);
        addr += n;
        in += n;
        len -= n;
    }
}

} // namespace gpusim
