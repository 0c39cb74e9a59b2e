// Testbench of the WarpScheduler unit (rtl_models/scheduler): the three policies' candidate
// order, serial dispatch, and sleeping until a given cycle.
#define BOOST_TEST_MODULE warp_scheduler
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "common/addresses.h"
#include "scheduler/warp_scheduler.h"

using namespace gpusim;
using gpusim::test::strided;

namespace {
std::vector<uint32_t> listed(WarpScheduler& s) {
    CandidateOrder o = s.candidates();
    std::vector<uint32_t> v;
    for (size_t k = 0; k < o.size(); ++k)
        if (!o.repeat(k, o[k])) v.push_back(o[k]);
    return v;
}
} // namespace

BOOST_AUTO_TEST_CASE(scheduling_policies_order_candidates) {
    SchedulerConfig c;
    c.policy = "lrr";
    WarpScheduler lrr("lrr", c);
    for (uint32_t w : {0u, 2u, 4u}) lrr.add(w, w);
    lrr.issued(2, 0, 1);
    BOOST_TEST((listed(lrr) == std::vector<uint32_t>{4, 0, 2}));
    c.policy = "gto";
    WarpScheduler gto("gto", c);
    for (uint32_t w : {4u, 0u, 2u}) gto.add(w, 10 - w);        // warp 4 is the oldest
    BOOST_TEST((listed(gto) == std::vector<uint32_t>{4, 2, 0}));
    gto.issued(0, 0, 1);
    BOOST_TEST((listed(gto) == std::vector<uint32_t>{0, 4, 2}));
    c.policy = "two_level";
    c.active_warps = 2;
    WarpScheduler two("two", c);
    for (uint32_t w : {1u, 3u, 5u}) two.add(w, w);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{1, 3}));
    two.long_stall(1);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{3, 5}));
    BOOST_TEST(!two.has_waiting());
    c.policy = "fifo";
    BOOST_CHECK_THROW(WarpScheduler("bad", c), std::runtime_error);
}

// A warp at a barrier leaves two-level scheduling's lists until its release, so the active set
// never fills with waiting warps while the ones they wait for are pending (a deadlock).
BOOST_AUTO_TEST_CASE(two_level_keeps_barrier_waiters_out_of_the_active_set) {
    SchedulerConfig c;
    c.policy = "two_level";
    c.active_warps = 2;
    WarpScheduler two("two", c);
    for (uint32_t w : {1u, 3u, 5u, 7u}) two.add(w, w);
    two.barrier_wait(1);
    two.barrier_wait(3);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{5, 7}));
    BOOST_TEST(two.has_waiting());
    two.long_stall(5);   // back of the queue, which holds no waiting warp
    BOOST_TEST((listed(two) == std::vector<uint32_t>{7, 5}));
    two.resume(3);
    two.resume(1);
    BOOST_TEST(!two.has_waiting());
    two.long_stall(7);
    two.long_stall(5);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{3, 1}));
    two.barrier_wait(3);
    two.remove(3);       // a block taken off the SM (a fault) takes its waiting warps from every list
    BOOST_TEST(!two.has_waiting());
    BOOST_TEST((listed(two) == std::vector<uint32_t>{1, 7}));
    two.resume(1);       // not waiting: nothing changes
    BOOST_TEST((listed(two) == std::vector<uint32_t>{1, 7}));
    // The round-robin turn passes to the warp after the one that left for the barrier.
    two.issued(1, 0, 1);
    two.barrier_wait(1);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{7, 5}));
    // The other policies offer every warp; the SM passes over the waiting ones.
    c.policy = "gto";
    WarpScheduler gto("gto", c);
    for (uint32_t w : {0u, 2u}) gto.add(w, w);
    gto.barrier_wait(0);
    BOOST_TEST((listed(gto) == std::vector<uint32_t>{0, 2}));
    BOOST_TEST(!gto.has_waiting());
}

BOOST_AUTO_TEST_CASE(serial_dispatch_holds_the_scheduler_while_it_feeds_the_pipe) {
    SchedulerConfig c;
    c.serial_dispatch = true;
    WarpScheduler s("serial", c);
    s.add(0, 0);
    BOOST_TEST(s.ready(10));
    s.issued(0, 10, 4);
    BOOST_TEST(!s.ready(13));
    BOOST_TEST(s.ready(14));
    BOOST_TEST(s.issued_at(10));
}

BOOST_AUTO_TEST_CASE(a_sleeping_scheduler_skips_cycles_until_it_is_woken) {
    SchedulerConfig c;
    WarpScheduler s("sleepy", c);
    s.sleep(50, WarpScheduler::Stall::Dependency);
    BOOST_TEST(s.asleep(49));
    BOOST_TEST(!s.asleep(50));
    BOOST_TEST(s.wake_at() == 50u);
    BOOST_TEST(int(s.sleep_reason()) == int(WarpScheduler::Stall::Dependency));
    s.wake();
    BOOST_TEST(!s.asleep(0));
}
