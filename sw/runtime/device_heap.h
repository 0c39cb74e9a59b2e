// Where cudaMalloc puts an allocation, and which ranges of device memory that maps or unmaps. Two
// layouts, by config:
// - pages (memory.allocation_chunk_bytes 0): each allocation in pages of its own, with an unmapped
//   guard page after it, so that a read past its end faults;
// - the driver's (hopper-h100): allocations smaller than a chunk share chunks (2 MiB on the H100),
//   each at the next multiple of memory.allocation_align_bytes; a larger one takes whole chunks of
//   its own. A window around the first chunk is mapped at once (the driver's own mappings lie
//   there on the chip: reads a little before or past the first buffers do not fault), and a chunk
//   beyond it is unmapped when its last allocation is freed. Addresses are never reused.
// Bounds of every allocation stay byte-exact for --memcheck (AllocationMap), whatever the layout.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace gpusim {

struct HeapLayout {
    uint64_t page = 65536;         // the page table's granularity
    uint64_t chunk = 0;            // memory.allocation_chunk_bytes (0: pages with guards)
    uint64_t align = 256;          // memory.allocation_align_bytes, within a chunk
    uint64_t mapped_before = 0;    // memory.heap_mapped_before_bytes
    uint64_t mapped_after = 0;     // memory.heap_mapped_after_bytes, from the first chunk's start
};

class DeviceHeap {
public:
    using Range = std::pair<uint64_t, uint64_t>;   // base, bytes

    DeviceHeap(uint64_t base, const HeapLayout& layout) : m_layout(layout), m_next(base) {}

    struct Placement {
        uint64_t addr = 0;
        uint64_t reserved = 0;     // bytes the allocation holds (its size, rounded)
        std::vector<Range> map;    // ranges to map before the allocation is used
        std::vector<Range> unmap;  // ranges to unmap: the chunk small ones came from, left empty
    };
    Placement place(uint64_t bytes);
    // The bytes an allocation of `bytes` would hold (its size, rounded).
    uint64_t reserved(uint64_t bytes) const;
    // The ranges to unmap now that the allocation at `addr` is freed.
    std::vector<Range> release(uint64_t addr);

private:
    struct Chunk {
        uint64_t bytes = 0;
        uint32_t live = 0;
    };
    HeapLayout m_layout;
    uint64_t m_next;                        // the next free address (pages) or chunk start
    uint64_t m_window_end = 0;              // the mapped window around the first chunk (0: none yet)
    uint64_t m_open = 0, m_open_next = 0;   // the chunk small allocations come from (0: none)
    std::map<uint64_t, Chunk> m_chunks;     // by start
    std::map<uint64_t, uint64_t> m_owner;   // allocation -> its chunk (pages: its reserved bytes)

    uint64_t new_chunk(uint64_t bytes, std::vector<Range>& map);
    // The part of the chunk at `start` beyond the window, forgotten (it holds no allocation).
    void drop_chunk(uint64_t start, std::vector<Range>& unmap);
};

} // namespace gpusim
