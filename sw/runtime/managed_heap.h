// Managed memory on the host, as a driver keeps it. Each allocation is one block of memory mapped
// twice: at its managed address for the program (the GPU maps the same address, backed by the
// same pages), and at a second address the model reads and writes through. The program's view of
// a page is inaccessible while the device holds the page; the fault the program's first touch
// takes is caught here and moves the page back to the host (ManagedPages keeps the books).
#pragma once

#include <cstdint>
#include <map>
#include <set>

#include "memory/managed_pages.h"

namespace gpusim {

class ManagedHeap {
public:
    explicit ManagedHeap(ManagedPages& pages);
    ~ManagedHeap();
    ManagedHeap(const ManagedHeap&) = delete;
    ManagedHeap& operator=(const ManagedHeap&) = delete;

    struct Block {
        uint64_t base = 0, bytes = 0;       // the managed address range (whole pages)
        uint8_t* alias = nullptr;           // the same memory, always accessible
        int fd = -1;
        // What the program advised and prefetched (cudaMemAdvise, cudaMemRangeGetAttribute).
        bool read_mostly = false;
        int preferred = -2;                 // device, -1 the host (cudaCpuDeviceId), -2 none
        std::set<int> accessed_by;
        int last_prefetch = -2;
    };

    // Maps a new block of at least `bytes` in the managed window; throws RuntimeError when the
    // window is full or the host has something at the address.
    Block& allocate(uint64_t bytes);
    void free(uint64_t base);
    // The block holding addr, or nullptr.
    Block* find(uint64_t addr);
    const std::map<uint64_t, Block>& blocks() const { return m_blocks; }

private:
    ManagedPages& m_pages;
    std::map<uint64_t, Block> m_blocks;
    uint64_t m_next;
};

} // namespace gpusim
