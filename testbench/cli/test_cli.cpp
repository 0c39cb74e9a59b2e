// Testbench of the command line's own logic (sw/cli): sweep specs read and checked, their points
// expanded, metrics found in a statistics document, JUnit reports written from run records, and
// command lines quoted for the shell of a Slurm job.
#define BOOST_TEST_MODULE cli
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "cli/junit.h"
#include "cli/slurm.h"
#include "cli/sweep_spec.h"

using namespace gpusim;
namespace fs = std::filesystem;

namespace {

// Writes `text` as a spec file in a scratch folder of its own; returns its path.
std::string spec_file(const std::string& name, const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / ("gpusim_test_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}

std::string error_of(const std::string& text) {
    try {
        sweep::load_spec(spec_file("bad.json", text));
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_CASE(a_sweep_spec_is_read_with_paths_relative_to_it) {
    const std::string path = spec_file("banks.json", R"({
      "name": "banks", "mode": "timing", "config": "configs/mine.json",
      "set": {"sim.threads": 1},
      "parameters": {"smem.banks": [16, 32], "scheduler.policy": ["gto", "lrr", "two_level"]},
      "workloads": [{"name": "reduce", "manifest": "../kernels/reduce/manifest.json"},
                    {"name": "app", "program": "bin/app", "args": ["-n", "4"]}],
      "metrics": {"cycles": "totals.cycles", "conflicts": "gpu.*.smem.bank_conflicts"}})");
    const sweep::Spec s = sweep::load_spec(path);
    const fs::path dir = fs::path(path).parent_path();
    BOOST_TEST(s.name == "banks");
    BOOST_TEST(s.config == (dir / "configs/mine.json").string());
    BOOST_TEST(s.fixed.size() == 1u);
    BOOST_TEST(s.fixed[0].second == "1");
    BOOST_TEST(s.parameters.size() == 2u);
    BOOST_TEST(s.parameters[0].values[1] == "32");
    BOOST_TEST(s.workloads[0].manifest == (dir.parent_path() / "kernels/reduce/manifest.json").string());
    BOOST_TEST(s.workloads[1].program == (dir / "bin/app").string());
    BOOST_TEST(s.workloads[1].args.size() == 2u);
    BOOST_TEST(s.metrics[1].path == "gpu.*.smem.bank_conflicts");
    // The cartesian product, the last parameter fastest.
    const auto points = sweep::expand(s);
    BOOST_REQUIRE(points.size() == 6u);
    BOOST_TEST((points[0] == sweep::Point{"16", "gto"}));
    BOOST_TEST((points[1] == sweep::Point{"16", "lrr"}));
    BOOST_TEST((points[5] == sweep::Point{"32", "two_level"}));
}

BOOST_AUTO_TEST_CASE(zipped_parameters_pair_their_lists) {
    const sweep::Spec s = sweep::load_spec(spec_file("zip.json", R"({
      "parameters": {"sm.warp_schedulers": [1, 2, 4], "pipes.alu.lanes": [16, 32, 64]}, "combine": "zip",
      "workloads": [{"name": "w", "manifest": "m.json"}], "metrics": {"c": "totals.cycles"}})"));
    const auto points = sweep::expand(s);
    BOOST_REQUIRE(points.size() == 3u);
    BOOST_TEST((points[2] == sweep::Point{"4", "64"}));
    BOOST_TEST(s.config == "fermi-gf100");   // a bundled config by default
}

BOOST_AUTO_TEST_CASE(a_bad_spec_is_refused_naming_the_entry) {
    const std::string ok_rest = R"("workloads": [{"name": "w", "manifest": "m.json"}], "metrics": {"c": "totals.cycles"})";
    BOOST_TEST(error_of(R"({"parameters": {"a": [1]}, "colour": 1, )" + ok_rest + "}").find(
                   "error: colour: unknown key") != std::string::npos);
    BOOST_TEST(error_of(R"({"parameters": {"a": []}, )" + ok_rest + "}").find(
                   "error: parameters.a: expected a non-empty list of values") != std::string::npos);
    BOOST_TEST(error_of(R"({"parameters": {"a": [1, 2], "b": [1]}, "combine": "zip", )" + ok_rest + "}").find(
                   "zipped parameters need value lists of one length") != std::string::npos);
    BOOST_TEST(error_of(R"({"parameters": {"a": [1]}, "workloads": [{"name": "w", "manifest": "m", "program": "p"}], "metrics": {"c": "x"}})")
                   .find("needs exactly one of \"manifest\" and \"program\"") != std::string::npos);
    BOOST_TEST(error_of(R"({"parameters": {"a": [1]}, "mode": "fast", )" + ok_rest + "}").find(
                   "error: mode: expected functional or timing") != std::string::npos);
    BOOST_TEST(error_of("{").find("invalid JSON") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(metrics_are_found_by_path_and_summed_over_members) {
    const nlohmann::json stats = nlohmann::json::parse(R"({
      "totals": {"cycles": 1200},
      "gpu": {"sm_0": {"smem": {"bank_conflicts": {"value": 3, "unit": "passes"}}},
              "sm_1": {"smem": {"bank_conflicts": {"value": 4, "unit": "passes"}}},
              "l2": {"hits": {"value": 9}}},
      "kernels": [{"cycles": 700}, {"cycles": 500}]})");
    double v = 0;
    BOOST_TEST(sweep::metric_value(stats, "totals.cycles", v));
    BOOST_TEST(v == 1200.0);
    BOOST_TEST(sweep::metric_value(stats, "gpu.*.smem.bank_conflicts", v));
    BOOST_TEST(v == 7.0);                           // the L2 has no smem: left out of the sum
    BOOST_TEST(sweep::metric_value(stats, "kernels.1.cycles", v));
    BOOST_TEST(v == 500.0);
    BOOST_TEST(!sweep::metric_value(stats, "kernels.2.cycles", v));
    BOOST_TEST(!sweep::metric_value(stats, "gpu.sm_0.smem", v));   // not a number
    BOOST_TEST(!sweep::metric_value(stats, "nowhere.at.all", v));
}

BOOST_AUTO_TEST_CASE(a_junit_report_has_a_case_per_launch) {
    JunitRecord r = nlohmann::json::parse(R"({
      "suite": "reduce", "manifest": "m.json", "config": "fermi-gf100", "mode": "timing", "exit": 1, "error": "",
      "launches": [
        {"kernel": "reduce", "finished": true, "cycles": 3185, "warp_instructions": 21128, "seconds": 0.5, "failures": []},
        {"kernel": "reduce2", "finished": true, "seconds": 0.25, "failures": ["buffer 'out' differs at word 3", "and more"]},
        {"kernel": "k3", "finished": true, "seconds": 0, "failures": ["x"], "known": "rounding <of> the SFU"}]})");
    const std::string xml = junit_xml({r});
    BOOST_TEST(xml.find("<testsuites name=\"gpusim\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.750000\">") != std::string::npos);
    BOOST_TEST(xml.find("<system-out>3185 cycles, 21128 warp instructions</system-out>") != std::string::npos);
    BOOST_TEST(xml.find("<failure type=\"mismatch\" message=\"buffer &apos;out&apos; differs at word 3\">") != std::string::npos);
    BOOST_TEST(xml.find("<skipped message=\"known difference: rounding &lt;of&gt; the SFU\"/>") != std::string::npos);
    BOOST_TEST(xml.find("<property name=\"config\" value=\"fermi-gf100\"/>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_error_before_any_launch_is_a_load_case) {
    JunitRecord r = nlohmann::json::parse(R"({"suite": "bad", "exit": 3, "error": "k.ptx:3:1: error: unsupported instruction\nmore", "launches": [], "hazards": 2})");
    const std::string xml = junit_xml({r});
    BOOST_TEST(xml.find("name=\"load\"") != std::string::npos);
    BOOST_TEST(xml.find("<error type=\"bad input\" message=\"k.ptx:3:1: error: unsupported instruction\">") != std::string::npos);
    BOOST_TEST(xml.find("racecheck: 2 hazards found") != std::string::npos);
    BOOST_TEST(xml_escape(std::string("a\x01") + "b") == "ab");   // characters XML 1.0 cannot hold are dropped
}

BOOST_AUTO_TEST_CASE(command_lines_are_quoted_for_the_shell) {
    BOOST_TEST(slurm::quote("plain") == "'plain'");
    BOOST_TEST(slurm::quote("it's") == "'it'\\''s'");
    BOOST_TEST(slurm::command_line({"gpusim", "run", "a b.json"}) == "'gpusim' 'run' 'a b.json'");
}
