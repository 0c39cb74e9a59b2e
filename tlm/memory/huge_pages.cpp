#include "memory/huge_pages.h"

#include <sys/mman.h>

namespace gpusim {

namespace {
size_t rounded(size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }
} // namespace

void* map_huge(size_t bytes) {
    const size_t size = rounded(bytes);
    // Twice the size, then the unaligned ends unmapped: mmap promises only 4 KiB alignment.
    void* raw = mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1);
    if (aligned > start) munmap(raw, aligned - start);
    const uintptr_t end = start + size + kHugePageBytes;
    if (aligned + size < end) munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
    void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);   // a hint: where the host has no transparent huge pages, 4 KiB pages
#endif
    return p;
}

void unmap_huge(void* p, size_t bytes) {
    if (p) munmap(p, rounded(bytes));
}

} // namespace gpusim
