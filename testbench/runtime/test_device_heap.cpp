// Testbench of cudaMalloc's layouts (sw/runtime/device_heap.h): pages with guard pages, and the
// driver's chunks as measured on the H100 (regress/microbench/driver_layout.h100.txt).
#define BOOST_TEST_MODULE device_heap
#include <boost/test/unit_test.hpp>

#include "runtime/device_heap.h"

using namespace gpusim;
using Ranges = std::vector<DeviceHeap::Range>;

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
constexpr uint64_t kBase = 0x10'0000'0000;
} // namespace

BOOST_AUTO_TEST_CASE(pages_give_each_allocation_its_own_pages_and_a_guard) {
    DeviceHeap heap(kBase, HeapLayout{});
    const DeviceHeap::Placement a = heap.place(4), b = heap.place(100000);
    BOOST_TEST(a.addr == kBase);
    BOOST_TEST(a.reserved == 64 * KiB);
    BOOST_TEST((a.map == Ranges{{kBase, 64 * KiB}}));
    BOOST_TEST(b.addr == kBase + 128 * KiB);   // past a's page and the guard page
    BOOST_TEST(b.reserved == 128 * KiB);
    BOOST_TEST((heap.release(a.addr) == Ranges{{kBase, 64 * KiB}}));
    BOOST_TEST(heap.release(a.addr).empty());   // freed already
}

// The H100's layout: 1 MiB, 4, 4096 and 100,000 bytes at +0, +1 MiB, +1 MiB+512, +1 MiB+4608 of
// one chunk; larger allocations take chunks of their own; a window around the first chunk is
// mapped at once and never unmapped; a chunk beyond it is unmapped with its last allocation.
BOOST_AUTO_TEST_CASE(the_drivers_layout_shares_chunks_among_small_allocations) {
    HeapLayout layout;
    layout.chunk = 2 * MiB;
    layout.align = 512;
    layout.mapped_before = 4 * MiB;
    layout.mapped_after = 8 * MiB;
    DeviceHeap heap(kBase, layout);
    const uint64_t first = kBase + 4 * MiB;
    const DeviceHeap::Placement one = heap.place(1 * MiB);
    BOOST_TEST(one.addr == first);
    BOOST_TEST((one.map == Ranges{{kBase, 12 * MiB}}));
    const DeviceHeap::Placement four = heap.place(4), page = heap.place(4096), odd = heap.place(100000);
    BOOST_TEST(four.addr == first + 1 * MiB);
    BOOST_TEST(four.reserved == 512u);
    BOOST_TEST(page.addr == first + 1 * MiB + 512);
    BOOST_TEST(odd.addr == first + 1 * MiB + 4608);
    BOOST_TEST(odd.reserved == 100352u);
    BOOST_TEST((four.map.empty() && page.map.empty() && odd.map.empty()));
    const DeviceHeap::Placement three = heap.place(3 * MiB), big = heap.place(64 * MiB);
    BOOST_TEST(three.addr == first + 2 * MiB);                 // its own two chunks, inside the window
    BOOST_TEST(three.map.empty());
    BOOST_TEST(big.addr == first + 6 * MiB);
    BOOST_TEST((big.map == Ranges{{kBase + 12 * MiB, 62 * MiB}}));   // the part past the window
    const DeviceHeap::Placement next = heap.place(1536 * KiB);      // no room left in the first chunk
    BOOST_TEST(next.addr == first + 70 * MiB);
    BOOST_TEST((next.map == Ranges{{first + 70 * MiB, 2 * MiB}}));
    BOOST_TEST((heap.release(big.addr) == Ranges{{kBase + 12 * MiB, 62 * MiB}}));
    BOOST_TEST(heap.release(three.addr).empty());              // inside the window: stays mapped
    BOOST_TEST(heap.release(one.addr).empty());                // its chunk holds three more
    BOOST_TEST(heap.release(next.addr).empty());               // the chunk small ones come from now
}

// A chunk small allocations came from, emptied while they still came from it, is unmapped when
// the next one takes its place (beyond the window; inside it, it stays mapped).
BOOST_AUTO_TEST_CASE(an_emptied_chunk_is_unmapped_when_the_next_one_opens) {
    HeapLayout layout;
    layout.chunk = 2 * MiB;
    layout.align = 512;
    layout.mapped_after = 2 * MiB;   // the window is the first chunk
    DeviceHeap heap(kBase, layout);
    const DeviceHeap::Placement a = heap.place(1536 * KiB);
    BOOST_TEST((a.map == Ranges{{kBase, 2 * MiB}}));
    BOOST_TEST(heap.release(a.addr).empty());
    const DeviceHeap::Placement b = heap.place(1536 * KiB);
    BOOST_TEST(b.addr == kBase + 2 * MiB);
    BOOST_TEST((b.map == Ranges{{kBase + 2 * MiB, 2 * MiB}}));
    BOOST_TEST(b.unmap.empty());                                    // a's chunk is the window
    BOOST_TEST(heap.release(b.addr).empty());
    const DeviceHeap::Placement c = heap.place(1536 * KiB);
    BOOST_TEST((c.unmap == Ranges{{kBase + 2 * MiB, 2 * MiB}}));    // b's chunk, empty, goes
    BOOST_TEST((c.map == Ranges{{kBase + 4 * MiB, 2 * MiB}}));
}
