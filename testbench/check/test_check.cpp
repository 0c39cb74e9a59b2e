// Testbench of the checks (rtl_models/check): the allocation map that names where an address lies
// and bounds --memcheck's accesses, and the race detector's rules for shared and global memory,
// driven access by access as the LD/ST unit drives them.
#define BOOST_TEST_MODULE check
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "check/allocation_map.h"
#include "check/race_check.h"
#include "isa/memory_view.h"
#include "isa/reports.h"

using namespace gpusim;

namespace {

// The reports the race detector posts (SystemC reports of type gpusim/racecheck), in order.
std::vector<std::string> g_posted;
void capture(const sc_core::sc_report& r, const sc_core::sc_actions&) {
    BOOST_TEST(r.get_msg_type() == std::string(reports::kRacecheck));
    BOOST_TEST(r.get_severity() == sc_core::SC_WARNING);
    g_posted.push_back(r.get_msg());
}
// What was posted since the last call, as one text.
std::string posted() {
    std::string all;
    for (const std::string& t : g_posted) all += t + "\n";
    g_posted.clear();
    return all;
}
struct CaptureReports {
    CaptureReports() { sc_core::sc_report_handler::set_handler(capture); }
};
BOOST_GLOBAL_FIXTURE(CaptureReports);

} // namespace

BOOST_AUTO_TEST_CASE(an_address_is_named_by_the_nearest_allocation) {
    AllocationMap m;
    BOOST_TEST(m.locate(0x1000) == "");
    m.add(0x10000, 1000, 4096, "cudaMalloc #1");
    m.add(0x20000, 16 << 20, 16 << 20, "cudaMalloc #2");
    m.name(0x20000, "J");
    BOOST_TEST(m.locate(0x10008) == "at offset 8 of cudaMalloc #1 (1000 bytes)");
    BOOST_TEST(m.locate(0x10000 + 1004) == "4 bytes past the end of cudaMalloc #1 (1000 bytes)");
    BOOST_TEST(m.locate(0x1FC00) == "1024 bytes before buffer 'J' (16 MiB, cudaMalloc #2)");
    BOOST_TEST(m.locate(0x100) == "65280 bytes before cudaMalloc #1 (1000 bytes)");
    BOOST_TEST(m.find(0x20000)->mapped == uint64_t(16) << 20);
    BOOST_TEST(!m.find(0x20004));
    m.remove(0x10000);
    BOOST_TEST(m.locate(0x10008) == "65528 bytes before buffer 'J' (16 MiB, cudaMalloc #2)");
}

BOOST_AUTO_TEST_CASE(memcheck_bounds_accesses_by_the_bytes_asked_for) {
    AllocationMap m;
    m.add(0x10000, 1000, 4096, "cudaMalloc #1");
    m.check(0x10000, 4, false);
    m.check(0x10000 + 996, 4, true);                    // the last word asked for
    BOOST_CHECK_EXCEPTION(m.check(0x10000 + 998, 4, true), AccessFault, [](const AccessFault& f) {
        return f.address == 0x10000u + 998 && f.size == 4u && f.write &&
               std::string(f.reason) == "outside its allocation, found by memcheck";
    });
    m.check(0x50000, 4, false);                         // in no allocation's pages: the memory system's affair
    BOOST_CHECK_THROW(m.check(0x10000 + 2000, 4, false), AccessFault);   // mapped page, past the bytes
    // A mapped size below the bytes asked for is taken as the bytes.
    m.add(0x30000, 64, 0, "variable 'x' of k.ptx");
    BOOST_TEST(m.find(0x30000)->mapped == 64u);
}

namespace {

// A kernel of three instructions (a plain store, a plain load, a release store) and its launch of
// two blocks of 64 threads.
LaunchInfo two_blocks() {
    auto k = std::make_shared<KernelImage>();
    k->name = "k";
    k->module_file = "k.ptx";
    k->text = {"st.shared.u32", "ld.shared.u32", "st.release.gpu.u32"};
    k->code.resize(3);
    for (uint32_t i = 0; i < 3; ++i) k->code[i].text_index = i, k->code[i].source_line = 10 + i;
    k->code[2].aux = kOrderStrong | kOrderRelease;
    LaunchInfo l;
    l.kernel = k;
    l.grid = {2, 1, 1};
    l.block = {64, 1, 1};
    return l;
}

RaceCheck::Access write_by(uint32_t thread, uint32_t pc = 0) { return {thread, pc, RaceCheck::Kind::Write, false}; }
RaceCheck::Access read_by(uint32_t thread, uint32_t pc = 1) { return {thread, pc, RaceCheck::Kind::Read, false}; }

} // namespace

BOOST_AUTO_TEST_CASE(shared_accesses_of_two_warps_race_until_a_barrier) {
    RaceCheck rc;
    rc.begin_launch(two_blocks());
    rc.begin_cta(0, 0, 0, 256);
    rc.shared_access(0, 0, write_by(0), 0x10, 4);
    rc.shared_access(0, 0, read_by(1), 0x10, 4);        // same warp: no race
    BOOST_TEST(rc.hazards() == 0u);
    rc.shared_access(0, 0, read_by(40), 0x10, 4);       // warp 1 reads what warp 0 wrote
    BOOST_TEST(rc.hazards() == 1u);
    const std::string text = posted();
    BOOST_TEST(text.find("racecheck: shared-memory read-after-write hazard in kernel 'k', block (0,0,0): 4 bytes at shared address 0x10") == 0u);
    BOOST_TEST(text.find("'st.shared.u32' at k.ptx:10") != std::string::npos);
    BOOST_TEST(text.find("no barrier between them") != std::string::npos);
    rc.shared_access(0, 0, read_by(41), 0x10, 4);       // the same pair of instructions: one report
    BOOST_TEST(rc.hazards() == 1u);
    rc.barrier(0, 0);
    rc.shared_access(0, 0, write_by(33, 2), 0x10, 4);   // after the barrier: ordered
    BOOST_TEST(rc.hazards() == 1u);
    BOOST_TEST(rc.reports().size() == 1u);
}

BOOST_AUTO_TEST_CASE(global_accesses_of_two_blocks_race_unless_a_fence_orders_them) {
    AllocationMap allocations;
    allocations.add(0x1000, 256, 4096, "cudaMalloc #1");
    RaceCheck rc(&allocations);
    rc.begin_launch(two_blocks());
    rc.begin_cta(0, 0, 0, 0);
    rc.begin_cta(1, 0, 1, 0);
    rc.global_access(0, 0, write_by(0), 0x1000, 4);
    rc.global_access(1, 0, read_by(0), 0x1000, 4);
    BOOST_TEST(rc.hazards() == 1u);
    const std::string text = posted();
    BOOST_TEST(text.find("global-memory read-after-write hazard in kernel 'k': 4 bytes at 0x1000 (at offset 0 of cudaMalloc #1 (256 bytes))") != std::string::npos);
    BOOST_TEST(text.find("block (1,0,0) thread (0,0,0)") != std::string::npos);
    // A fence of block 0 after its write orders it before block 1's later read.
    rc.global_access(0, 0, write_by(0), 0x1100, 4);
    rc.fence(0, 0);
    rc.global_access(1, 0, read_by(5), 0x1100, 4);
    BOOST_TEST(rc.hazards() == 1u);
    // So does a release store of the writing block.
    rc.global_access(0, 0, write_by(1), 0x1200, 4);
    rc.global_access(0, 0, write_by(2, 2), 0x1300, 4);
    rc.global_access(1, 0, read_by(6), 0x1200, 4);
    BOOST_TEST(rc.hazards() == 1u);
}

BOOST_AUTO_TEST_CASE(strong_accesses_and_writes_that_change_nothing_do_not_race) {
    RaceCheck rc;
    rc.begin_launch(two_blocks());
    rc.begin_cta(0, 0, 0, 0);
    rc.begin_cta(1, 0, 1, 0);
    RaceCheck::Access atomic{0, 0, RaceCheck::Kind::Atomic, false};
    rc.global_access(0, 0, atomic, 0x2000, 4);
    rc.global_access(1, 0, atomic, 0x2000, 4);
    rc.global_access(1, 0, read_by(3), 0x2000, 4);          // the plain read of a CAS loop
    BOOST_TEST(rc.hazards() == 0u);
    RaceCheck::Access same{0, 0, RaceCheck::Kind::Write, true};
    rc.global_access(0, 0, write_by(0), 0x3000, 4);
    rc.global_access(1, 0, same, 0x3000, 4);               // every block sets the flag to true
    BOOST_TEST(rc.hazards() == 0u);
    rc.begin_cta(2, 0, 2, 0);
    rc.global_access(2, 0, write_by(7), 0x3000, 4);         // a write that changes the bytes does race
    BOOST_TEST(rc.hazards() == 1u);
    const std::string text = posted();
    BOOST_TEST(text.find("write-after-write") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_global_shadow_stops_at_its_limit) {
    RaceCheck rc(nullptr, 1);   // room for no shadow page at all
    rc.begin_launch(two_blocks());
    rc.begin_cta(0, 0, 0, 0);
    rc.begin_cta(1, 0, 1, 0);
    rc.global_access(0, 0, write_by(0), 0x1000, 4);
    rc.global_access(1, 0, read_by(0), 0x1000, 4);
    BOOST_TEST(rc.hazards() == 0u);                          // not checked: no shadow
    const std::string text = posted();
    BOOST_TEST(text.find("racecheck: the global shadow is full") == 0u);   // and said so, once
    BOOST_TEST(text.find("full", 40) == std::string::npos);
}
