// Testbench of the ClockUnit (rtl_models/clock): the SM's cycle counter behind %clock and %clock64,
// and the pmevent counters, as its statistics report them.
#define BOOST_TEST_MODULE clock
#include <boost/test/unit_test.hpp>

#include "clock/clock_unit.h"

using namespace gpusim;

BOOST_AUTO_TEST_CASE(the_clock_never_runs_backwards) {
    ClockUnit c("clock");
    BOOST_TEST(c.cycles() == 0u);
    c.advance_to(100);
    c.advance_to(40);
    BOOST_TEST(c.cycles() == 100u);
    c.advance_to(101);
    BOOST_TEST(c.cycles() == 101u);
}

BOOST_AUTO_TEST_CASE(every_pmevent_counter_is_reported_under_its_number) {
    ClockUnit c("clock_pm");
    c.advance_to(7);
    for (int k = 0; k < kPmCounters; ++k) c.pm_events()[k] += uint64_t(k) * 3;
    nlohmann::json j;
    c.report(j);
    BOOST_TEST(j["cycles"]["value"].get<double>() == 7.0);
    BOOST_TEST(j["cycles"]["unit"] == "cycles");
    for (int k = 0; k < kPmCounters; ++k)
        BOOST_TEST(j["pmevent_" + std::to_string(k)]["value"].get<double>() == 3.0 * k);
    BOOST_TEST(j.size() == size_t(1 + kPmCounters));   // counters 8-15 are reserved: none reported
}
