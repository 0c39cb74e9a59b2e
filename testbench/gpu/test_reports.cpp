// The model's messages as SystemC reports (rtl_models/isa/reports.h), as a platform that embeds
// the GPU sees them: races as warnings of gpusim/racecheck, a kernel's fault as an error of its
// unit that is displayed and logged but not thrown (the runtime still raises it, with its CUDA
// error), and a type the platform silences with sc_report_handler::set_actions.
#define BOOST_TEST_MODULE reports
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "gpu/gpu_config.h"
#include "isa/reports.h"
#include "runtime/manifest.h"
#include "runtime/runtime.h"

using namespace gpusim;

namespace {

struct Seen {
    std::string type;
    sc_core::sc_severity severity;
    sc_core::sc_actions actions;
    std::string text;
};
std::vector<Seen> g_seen;
Runtime* rt = nullptr;

// A platform's handler: it records what it is given, and passes SystemC's own reports on.
void platform_handler(const sc_core::sc_report& r, const sc_core::sc_actions& a) {
    if (!reports::is_model_type(r.get_msg_type())) return sc_core::sc_report_handler::default_handler(r, a);
    g_seen.push_back({r.get_msg_type(), r.get_severity(), a, r.get_msg()});
}

std::string manifest(const std::string& name) { return std::string(GPUSIM_SOURCE_DIR) + "/regress/checks/" + name; }

size_t count(const char* type) {
    size_t n = 0;
    for (const Seen& s : g_seen) n += s.type == type;
    return n;
}

} // namespace

BOOST_AUTO_TEST_CASE(races_are_warnings_of_their_unit) {
    g_seen.clear();
    run_manifest(*rt, load_manifest(manifest("race_neighbour_early.json")));
    BOOST_REQUIRE(count(reports::kRacecheck) >= 1u);
    const Seen& s = g_seen.front();
    BOOST_TEST(s.severity == sc_core::SC_WARNING);
    BOOST_TEST((s.actions & sc_core::SC_DISPLAY) != 0u);
    BOOST_TEST(s.text.find("racecheck: shared-memory") == 0u);
}

BOOST_AUTO_TEST_CASE(a_fault_is_an_error_report_and_still_the_runs_error) {
    g_seen.clear();
    BOOST_CHECK_EXCEPTION(run_manifest(*rt, load_manifest(manifest("faults_trap.json"))), RuntimeError, [](const RuntimeError& e) {
        return e.code() == Error::LaunchFailure;   // the CUDA error the fault maps to, as before
    });
    BOOST_REQUIRE(count(reports::kSm) == 1u);
    const Seen& s = g_seen.back();
    BOOST_TEST(s.severity == sc_core::SC_ERROR);
    BOOST_TEST((s.actions & sc_core::SC_THROW) == 0u);   // the GPU's default: display and log
    BOOST_TEST((s.actions & sc_core::SC_DISPLAY) != 0u);
    BOOST_TEST(s.text.find("trap") != std::string::npos, s.text);
}

BOOST_AUTO_TEST_CASE(a_platform_silences_one_units_warnings) {
    sc_core::sc_report_handler::set_actions(reports::kRacecheck, sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    g_seen.clear();
    run_manifest(*rt, load_manifest(manifest("race_reduce_missing_sync.json")));   // races not reported before
    BOOST_REQUIRE(count(reports::kRacecheck) >= 1u);
    for (const Seen& s : g_seen)
        if (s.type == reports::kRacecheck) BOOST_TEST(s.actions == sc_core::SC_DO_NOTHING);
    BOOST_TEST(rt->race_hazards() >= 1u);   // the detector still counts them
    sc_core::sc_report_handler::set_actions(reports::kRacecheck, sc_core::SC_WARNING, sc_core::SC_DEFAULT_WARNING_ACTIONS);
}

int sc_main(int argc, char** argv) {
    sc_core::sc_report_handler::set_handler(platform_handler);
    Runtime runtime(load_config("fermi-gf100", {{"sim.racecheck", "true"}}));
    rt = &runtime;
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
