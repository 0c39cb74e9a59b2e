// Testbench of the BarrierUnit (rtl_models/barrier): arrival counting, thread-count barriers,
// bar.red totals, release latency, wait statistics.
#define BOOST_TEST_MODULE barrier
#include <boost/test/unit_test.hpp>

#include "barrier/barrier_unit.h"
#include "common/addresses.h"

using namespace gpusim;
using gpusim::test::strided;

BOOST_AUTO_TEST_CASE(a_barrier_opens_when_every_live_warp_arrived_and_totals_the_reduction) {
    BarrierUnit b("bar", 20);
    b.resize(2);
    BarrierUnit::Barrier out;
    b.arrive(1, 3, 0, 5, 32);
    BOOST_TEST(!b.release(1, 3, 2, out));                    // one of two warps
    b.arrive(1, 3, 0, 7, 32);
    BOOST_TEST(b.release(1, 3, 2, out));
    BOOST_TEST(out.warps == 2u);
    BOOST_TEST(out.popc == 12u);
    BOOST_TEST(out.threads == 64u);
    BOOST_TEST(!b.release(1, 3, 2, out));                    // cleared for its next use
    BOOST_TEST(b.release_latency() == 20u);
}

BOOST_AUTO_TEST_CASE(a_thread_count_barrier_opens_at_its_count_and_others_stay_apart) {
    BarrierUnit b("bar_count", 0);
    b.resize(1);
    BarrierUnit::Barrier out;
    b.arrive(0, 1, 64, 0, 32);                               // bar.sync 1, 64: two warps
    b.arrive(0, 2, 0, 0, 32);                                // another barrier of the CTA
    BOOST_TEST(!b.release(0, 1, 4, out));
    b.arrive(0, 1, 64, 0, 32);
    BOOST_TEST(b.release(0, 1, 4, out));
    BOOST_TEST(!b.release(0, 2, 4, out));
    b.waited(30);
    b.waited(12);
    nlohmann::json j;
    b.report(j);
    BOOST_TEST(j["wait_cycles"]["value"].get<double>() == 42.0);
}
