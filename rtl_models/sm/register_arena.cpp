#include "sm/register_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace gpusim {

RegisterArena::~RegisterArena() { release(); }

void RegisterArena::release() {
    if (!m_base) return;
    // The address range may come back from another mmap, for memory ASan must not see as poisoned.
    expose(static_cast<uint64_t*>(m_base), capacity_words());
    munmap(m_base, m_bytes);
    m_base = nullptr;
    m_bytes = 0;
}

uint64_t* RegisterArena::reserve(size_t words) {
    const size_t want = words * sizeof(uint64_t);
    if (want <= m_bytes) return static_cast<uint64_t*>(m_base);
    // Doubling keeps a run of growing kernels to a few mappings; whole huge pages, aligned to one,
    // let the host back all of it with them.
    const size_t bytes = (std::max(want, 2 * m_bytes) + kHugePage - 1) / kHugePage * kHugePage;
    release();
    void* raw = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    // Trim the mapping to a huge-page boundary at both ends.
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start) munmap(raw, aligned - start);
    if (const size_t tail = kHugePage - (aligned - start)) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
    m_base = reinterpret_cast<void*>(aligned);
    m_bytes = bytes;
    // A host without transparent huge pages says no; small pages serve as well, only slower.
    madvise(m_base, m_bytes, MADV_HUGEPAGE);
    return static_cast<uint64_t*>(m_base);
}

// One word per small page, so that a host without transparent huge pages pages it all in too.
void RegisterArena::touch(size_t piece) {
    auto* bytes = static_cast<uint8_t*>(m_base) + piece * kHugePage;
    for (size_t at = 0; at < kHugePage; at += kSmallPage) *reinterpret_cast<uint64_t*>(bytes + at) = 0;
}

} // namespace gpusim
