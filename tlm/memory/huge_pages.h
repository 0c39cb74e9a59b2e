// Host memory in the host's huge pages (2 MiB), for the simulator's large buffers: device memory's
// backing, a manifest's buffer contents, pageable copies' bounce buffers. Fresh anonymous memory
// costs a page fault per 4 KiB page on first touch, which on a virtual machine moves a few hundred
// MB/s; in 2 MiB pages the same bytes cost one fault per 2 MiB. The memory starts as zeros and is
// backed only where it is touched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

namespace gpusim {

constexpr size_t kHugePageBytes = size_t(1) << 21;

// `bytes` (rounded up to whole huge pages) of zeros, aligned to a huge page; throws std::bad_alloc.
void* map_huge(size_t bytes);
void unmap_huge(void* p, size_t bytes);

// A std::allocator for large byte buffers: huge pages from 1 MiB up, zeros when allocated, and
// elements left as the memory holds them instead of written once more by the vector (a fresh
// mapping's zeros cost nothing until touched).
template <typename T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr size_t kFrom = size_t(1) << 20;

    HugePageAllocator() = default;
    template <typename U>
    HugePageAllocator(const HugePageAllocator<U>&) {}

    // Zeros either way: fresh mappings are, and a small block is cleared here.
    T* allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kFrom) return static_cast<T*>(map_huge(bytes));
        return static_cast<T*>(std::memset(::operator new(bytes), 0, bytes));
    }
    void deallocate(T* p, size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kFrom) unmap_huge(p, bytes);
        else ::operator delete(p);
    }
    // Default-initialised, not value-initialised: a fresh buffer's zeros come from the host.
    template <typename U>
    void construct(U* p) { ::new (static_cast<void*>(p)) U; }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) { ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...); }

    template <typename U>
    bool operator==(const HugePageAllocator<U>&) const { return true; }
    template <typename U>
    bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

// Bytes of a buffer as large as a device's: zeros when made with a size alone, and cheap to touch.
using HostBytes = std::vector<uint8_t, HugePageAllocator<uint8_t>>;

} // namespace gpusim
