// Kernel profiles (rtl_models/gpu/kernel_profile) and their text summary
// (sw/runtime/profile_summary): counters taken from a statistics document, the difference over a
// launch, slots of idle SMs, sums over launches, and every metric from known counts.
#define BOOST_TEST_MODULE profile
#include <boost/test/unit_test.hpp>

#include <cstdio>

#include "gpu/kernel_profile.h"
#include "gpu/progress_meter.h"
#include "runtime/profile_summary.h"

using namespace gpusim;
using json = nlohmann::json;
using Stall = WarpScheduler::Stall;

namespace {

json stat(double v) { return {{"value", v}, {"unit", "x"}, {"description", "y"}}; }

// One SM as Gpu::report writes it, with two single-dispatch schedulers, `scale` times the base counts.
json sm(double scale) {
    json s;
    s["clock"]["cycles"] = stat(1000 * scale);
    s["warps"]["resident_warp_cycles"] = stat(24000 * scale);
    s["warps"]["max_warps"] = stat(48);
    s["warps"]["launch_warps"] = stat(32);
    for (const char* name : {"sched0", "sched1"}) {
        json& sc = s[name];
        sc["dispatch_width"] = stat(1);
        sc["issued"] = stat(400 * scale);
        for (int k = 0; k < int(Stall::Count); ++k)
            if (Stall(k) != Stall::Dependency) sc[WarpScheduler::stall_name(Stall(k))] = stat(0);
        sc["stall_memory_dependency"] = stat(500 * scale);
        sc["stall_pipe_busy"] = stat(100 * scale);
    }
    s["alu"]["busy_cycles"] = stat(1000 * scale);
    s["alu"]["copies"] = stat(2);
    s["ldst"]["busy_cycles"] = stat(250 * scale);
    s["ldst"]["copies"] = stat(1);
    s["smem"]["passes"] = stat(100 * scale);
    s["smem"]["bank_conflicts"] = stat(25 * scale);
    s["l1"]["transactions"] = stat(40 * scale);
    s["l1"]["ideal_transactions"] = stat(10 * scale);
    s["l1"]["l1_hits"] = stat(30 * scale);
    s["l1"]["l1_misses"] = stat(10 * scale);
    s["ccache"]["hits"] = stat(9 * scale);
    s["ccache"]["misses"] = stat(1 * scale);
    s["tex"]["hits"] = stat(0);
    s["tex"]["misses"] = stat(0);
    return s;
}

json report(double scale) {
    json r;
    r["sm_0"] = sm(scale);
    r["sm_1"] = sm(scale);
    r["l2"]["hits"] = stat(60 * scale);
    r["l2"]["misses"] = stat(20 * scale);
    r["dram_ctrl"]["read_bytes"] = stat(3000 * scale);
    r["dram_ctrl"]["write_bytes"] = stat(1000 * scale);
    r["pcie"]["bytes_to_device"] = stat(5);   // not a unit the profile reads
    return r;
}

// A launch between a report at scale 1 and one at scale 3 (so the launch did twice the base
// counts), lasting 2500 cycles of 1 ns: the SMs were busy for 2000 of them.
KernelProfile launch() {
    KernelProfile p = KernelProfile::between(KernelProfile::counters_of(report(1)), KernelProfile::counters_of(report(3)));
    p.kernel = "k";
    p.cycles = 2500;
    p.warp_instructions = 3200;
    p.thread_instructions = 3200 * 16;
    p.cycle_ns = 1;
    p.dram_peak_gb_s = 64;
    p.count_idle_slots();
    return p;
}

double num(const json& j) { return j.get<double>(); }

} // namespace

BOOST_AUTO_TEST_CASE(counters_are_summed_over_sms_and_taken_as_a_difference) {
    const KernelProfile p = launch();
    BOOST_TEST(p.timing);
    BOOST_TEST(p.sms == 2);
    BOOST_TEST(p.sm_slots_per_cycle == 4);                 // 2 SMs x 2 schedulers x 1
    BOOST_TEST(p.sm_cycles == 4000);                       // 2 SMs x 2000
    BOOST_TEST(p.issued == 3200);                          // 4 schedulers x 800
    BOOST_TEST(p.stalls[int(Stall::MemoryDependency)] == 4000);
    BOOST_TEST(p.pipe_copies[int(PipeKind::Alu)] == 4);    // a property: after's, not a difference
    BOOST_TEST(p.max_warps == 48);
    BOOST_TEST(p.dram_bytes == 8000);                      // chip units: not per SM
}

BOOST_AUTO_TEST_CASE(slots_of_idle_sms_count_as_no_warp) {
    const KernelProfile p = launch();
    // The chip had 2500 x 4 slots; the schedulers accounted for 4 x 2000 of them.
    BOOST_TEST(p.total_slots() == 10000);
    BOOST_TEST(p.stalls[int(Stall::NoWarp)] == 2000);
    double sum = p.issued;
    for (double s : p.stalls) sum += s;
    BOOST_TEST(sum == p.total_slots());
}

BOOST_AUTO_TEST_CASE(metrics_follow_from_the_counters) {
    const json m = launch().metrics();
    BOOST_TEST(num(m["ipc"]) == 3200.0 / 2500);
    BOOST_TEST(num(m["ipc_per_active_sm"]) == 3200.0 / 4000);
    BOOST_TEST(num(m["simt_efficiency"]) == 0.5);
    BOOST_TEST(num(m["occupancy"]["achieved"]) == 96000.0 / (4000 * 48));
    BOOST_TEST(num(m["occupancy"]["theoretical"]) == 32.0 / 48);
    BOOST_TEST(num(m["issue_slots"]["total"]) == 10000);
    BOOST_TEST(num(m["issue_slots"]["issued"]["fraction"]) == 0.32);
    BOOST_TEST(num(m["issue_slots"]["memory_dependency"]["slots"]) == 4000);
    BOOST_TEST(num(m["issue_slots"]["no_warp"]["fraction"]) == 0.2);
    BOOST_TEST(!m["issue_slots"].contains("dependency"));   // the scan's unrefined reason is never counted
    BOOST_TEST(num(m["utilisation"]["alu"]) == 4000.0 / (2500 * 4));
    BOOST_TEST(num(m["utilisation"]["ldst"]) == 1000.0 / (2500 * 2));
    BOOST_TEST(num(m["shared_memory"]["bank_efficiency"]) == 0.75);
    BOOST_TEST(num(m["global_memory"]["coalescing_efficiency"]) == 0.25);
    BOOST_TEST(num(m["caches"]["l1"]["hit_rate"]) == 0.75);
    BOOST_TEST(num(m["caches"]["l2"]["hit_rate"]) == 0.75);
    BOOST_TEST(num(m["caches"]["constant"]["hit_rate"]) == 0.9);
    BOOST_TEST(m["caches"]["texture"]["hit_rate"].is_null());   // no lookups: no rate
    BOOST_TEST(num(m["dram"]["bandwidth_gb_s"]) == 8000.0 / 2500);
    BOOST_TEST(num(m["dram"]["fraction_of_peak"]) == 8000.0 / 2500 / 64);
}

BOOST_AUTO_TEST_CASE(launches_of_a_kernel_add_up) {
    KernelProfile a = launch(), b = launch(), other = launch();
    b.launch_warps = 16;
    b.start_ns = 5000, b.end_ns = 7500;
    a.end_ns = 2500;
    other.kernel = "other";
    other.cycles = 100;
    const std::vector<KernelProfile> kernels = profiles_by_kernel({a, other, b});
    BOOST_REQUIRE(kernels.size() == 2u);
    const KernelProfile& k = kernels[0];
    BOOST_TEST(k.kernel == "k");
    BOOST_TEST(k.launches == 2u);
    BOOST_TEST(k.cycles == 5000u);
    BOOST_TEST(k.issued == 6400);
    BOOST_TEST(k.end_ns == 7500);
    BOOST_TEST(k.launch_warps == 24);   // equal SM time in each: the mean of 32 and 16
    BOOST_TEST(num(k.metrics()["ipc"]) == 3200.0 / 2500);
}

BOOST_AUTO_TEST_CASE(functional_profiles_have_no_timing_metrics) {
    json r = report(1);
    for (auto& [name, unit] : r.items())
        if (name.rfind("sm_", 0) == 0) unit.erase("sched0"), unit.erase("sched1");
    KernelProfile p = KernelProfile::between(KernelProfile::counters_of(json::object()), KernelProfile::counters_of(r));
    p.cycles = 10;
    p.warp_instructions = 20;
    p.count_idle_slots();
    BOOST_TEST(!p.timing);
    BOOST_TEST(p.stalls[int(Stall::NoWarp)] == 0);
    const json m = p.metrics();
    BOOST_TEST(num(m["ipc"]) == 2);
    BOOST_TEST(!m.contains("issue_slots"));
}

BOOST_AUTO_TEST_CASE(the_summary_names_the_kernel_its_metrics_and_its_stalls_largest_first) {
    const std::string s = profile_summary(launch());
    BOOST_TEST(s.find("kernel 'k': 1 launch, grid") != std::string::npos);
    BOOST_TEST(s.find("occupancy 50.0% achieved of 66.7% theoretical") != std::string::npos);
    BOOST_TEST(s.find("shared bank efficiency 75.0%, coalescing efficiency 25.0%") != std::string::npos);
    BOOST_TEST(s.find("texture -") != std::string::npos);
    BOOST_TEST(s.find("DRAM 8000 bytes, 3.2 GB/s = 5.0% of the 64.0 GB/s peak") != std::string::npos);
    const size_t memory = s.find("memory dependency"), issued = s.find("issued "), no_warp = s.find("no warp");
    BOOST_TEST((memory < issued && issued < no_warp));   // 40%, 32%, 20%
    BOOST_TEST(s.find("barrier") == std::string::npos);  // reasons that took no slot are left out
}

BOOST_AUTO_TEST_CASE(summaries_put_the_slowest_kernel_first_and_say_what_they_leave_out) {
    KernelProfile fast = launch(), slow = launch(), third = launch();
    fast.kernel = "fast", fast.cycles = 10;
    slow.kernel = "slow", slow.cycles = 9000;
    third.kernel = "third", third.cycles = 5;
    const std::string s = profile_summaries({fast, slow, third}, 2);
    BOOST_TEST(s.find("kernel 'slow'") < s.find("kernel 'fast'"));
    BOOST_TEST(s.find("kernel 'third'") == std::string::npos);
    BOOST_TEST(s.find("(1 more kernels") != std::string::npos);
}

namespace {
std::string contents(std::FILE* f) {
    std::fflush(f);
    std::rewind(f);
    std::string s;
    for (int c; (c = std::fgetc(f)) != EOF;) s += char(c);
    return s;
}
} // namespace

BOOST_AUTO_TEST_CASE(the_progress_line_waits_then_redraws_in_place_and_clears) {
    std::FILE* quiet = std::tmpfile();
    {
        ProgressMeter late(quiet, [] { return std::string("never"); }, 3600, 0);
        late.tick();
    }
    BOOST_TEST(contents(quiet).empty());   // a short run shows nothing, and clears nothing
    std::fclose(quiet);

    std::FILE* out = std::tmpfile();
    int calls = 0;
    ProgressMeter meter(out, [&] { return "kernel 1 'k': block " + std::to_string(++calls) + " of 4"; }, 0, 0);
    meter.tick();
    meter.tick();
    meter.clear();
    BOOST_TEST(contents(out) == "\r\033[Kgpusim: kernel 1 'k': block 1 of 4, 0 s\r\033[Kgpusim: kernel 1 'k': block 2 of 4, 0 s\r\033[K");
    std::fclose(out);
}
