// Testbench of the waveform recorder (rtl_models/trace/vcd_recorder.h): a unit that runs ahead of
// SystemC time records level and count changes with their cycles, and the recorder's replay writes
// them into the VCD at those cycles without ever moving time on by itself. SystemC elaborates once
// per process, so the one test case runs the whole scenario in phases.
#define BOOST_TEST_MODULE vcd
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>
#include <systemc>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "common/vcd_reader.h"
#include "trace/vcd_recorder.h"

using namespace gpusim;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

const sc_time kCycle(1, SC_NS);

// Runs ahead like an SM: records changes for cycles it has not reached in SystemC time, syncs at
// cycle 8, and ends at cycle 12 with a span still open until cycle 20.
struct AheadUnit : sc_core::sc_module {
    VcdSignal level, count, busy_a, busy_b;
    explicit AheadUnit(const sc_core::sc_module_name& n) : sc_module(n) {
        SC_HAS_PROCESS(AheadUnit);
        SC_THREAD(run);
    }
    void run() {
        level.set(3, 1);
        level.set(5, 2);
        level.set(5, 2);   // a repeat changes nothing
        level.set(10, 0);
        count.span(4, 20);
        busy_a.span(6, 9);
        busy_b.span(8, 11);
        wait(8 * kCycle);
        count.span(8, 9);
        level.set(12, 7);
        wait(4 * kCycle);
    }
};

// Later work, as a copy engine's: starts when told, runs 30 cycles, and leaves a span that ends
// after it (a memory system draining).
struct LaterUnit : sc_core::sc_module {
    VcdSignal count;
    sc_core::sc_event go;
    explicit LaterUnit(const sc_core::sc_module_name& n) : sc_module(n) {
        SC_HAS_PROCESS(LaterUnit);
        SC_THREAD(run);
    }
    void run() {
        wait(go);
        wait(30 * kCycle);
        count.span(45, 60);
    }
};

using Changes = std::vector<std::pair<uint64_t, uint64_t>>;
uint64_t ps(uint64_t cycles) { return cycles * 1000; }

} // namespace

BOOST_AUTO_TEST_CASE(changes_appear_at_their_cycles_and_time_moves_only_with_the_model) {
    const std::string path = "test_vcd_wave.vcd";
    VcdRecorder vcd("vcd", path, "unit.*,later.count", "chip", kCycle);
    AheadUnit unit("unit");
    LaterUnit later("later");
    unit.level = vcd.declare("unit.level", VcdRecorder::Kind::Level, 3);
    unit.count = vcd.declare("unit.count", VcdRecorder::Kind::Count, 4);
    const VcdSignal channels = vcd.declare("unit.busy_channels", VcdRecorder::Kind::Count, 2);
    unit.busy_a = vcd.declare("unit.a.busy", VcdRecorder::Kind::Busy, 1, channels);
    unit.busy_b = vcd.declare("unit.b.busy", VcdRecorder::Kind::Busy, 1, channels);
    later.count = vcd.declare("later.count", VcdRecorder::Kind::Count, 4);
    const VcdSignal unselected = vcd.declare("other.level", VcdRecorder::Kind::Level, 1);
    BOOST_TEST(!unselected);
    BOOST_TEST(bool(unit.level));
    vcd.start_tracing();

    // The unit's last activity is at cycle 12; the span that ends at 20 must not carry time there.
    sc_core::sc_start();
    BOOST_TEST(sc_core::sc_time_stamp() == 12 * kCycle);
    vcd.wake();   // no work came: still nothing moves
    sc_core::sc_start();
    BOOST_TEST(sc_core::sc_time_stamp() == 12 * kCycle);

    // New work moves time to 42; the held change at 20 comes out on the way.
    later.go.notify();
    vcd.wake();
    sc_core::sc_start();
    BOOST_TEST(sc_core::sc_time_stamp() == 42 * kCycle);

    // The end: time runs on to the last change recorded (60), then the file closes.
    vcd.finish();
    BOOST_TEST(sc_core::sc_time_stamp() >= 60 * kCycle);

    auto waves = gpusim::test::read_vcd(path).changes;
    BOOST_TEST(waves.count("chip.other.level") == 0u);   // not selected: not in the file
    BOOST_TEST((waves["chip.unit.level"] == Changes{{0, 0}, {ps(3), 1}, {ps(5), 2}, {ps(10), 0}, {ps(12), 7}}));
    // One span [4, 20), and one [8, 9) recorded later but for an earlier cycle; the end at 20
    // was held past the unit's last activity and written when the later work moved time on.
    BOOST_TEST((waves["chip.unit.count"] == Changes{{0, 0}, {ps(4), 1}, {ps(8), 2}, {ps(9), 1}, {ps(20), 0}}));
    // Overlapping busy spans: a bit per channel, and the parent counts the busy ones.
    BOOST_TEST((waves["chip.unit.a.busy"] == Changes{{0, 0}, {ps(6), 1}, {ps(9), 0}}));
    BOOST_TEST((waves["chip.unit.busy_channels"] == Changes{{0, 0}, {ps(6), 1}, {ps(8), 2}, {ps(9), 1}, {ps(11), 0}}));
    // A span past the end of all activity comes out when finish() drains.
    BOOST_TEST((waves["chip.later.count"] == Changes{{0, 0}, {ps(45), 1}, {ps(60), 0}}));
    std::remove(path.c_str());
}


int sc_main(int argc, char** argv) { return boost::unit_test::unit_test_main(&init_unit_test, argc, argv); }
