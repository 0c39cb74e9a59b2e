// Kernel sampling (rtl_models/gpu/kernel_sampler): which launches run in timing mode, how the
// others are projected from their group, and the report's share and confidence interval.
#define BOOST_TEST_MODULE sampler
#include <boost/test/unit_test.hpp>

#include "gpu/kernel_sampler.h"

using namespace gpusim;

namespace {

std::shared_ptr<KernelImage> kernel(const char* name) {
    auto k = std::make_shared<KernelImage>();
    k->name = name;
    return k;
}

LaunchInfo launch(std::shared_ptr<KernelImage> k, uint32_t blocks, uint32_t sms = 10) {
    LaunchInfo l;
    l.kernel = std::move(k);
    l.grid = {blocks, 1, 1};
    l.block = {128, 1, 1};
    l.num_sms = sms;
    return l;
}

KernelSampler::Outcome outcome(uint64_t warp, uint64_t cycles) {
    KernelSampler::Outcome o;
    o.warp_instructions = warp;
    o.thread_instructions = warp * 32;
    o.cycles = cycles;
    return o;
}

} // namespace

// The first `detailed` launches of a group run in timing mode; later ones are projected at the
// group's cycles per instruction of the busiest SM, leaving the first (cold) launch out.
BOOST_AUTO_TEST_CASE(a_group_is_detailed_then_projected) {
    KernelSampler s(3, 0.05, 4);
    auto k = kernel("stencil");
    const uint32_t occupancy = 2;
    const LaunchInfo l = launch(k, 100);   // 10 blocks on the busiest of 10 SMs: over 4 loads of 2, the load of large grids
    const uint64_t cycles[] = {13000, 10000, 10400};
    for (uint64_t c : cycles) {
        BOOST_TEST(s.detailed(l, occupancy));
        s.add_detailed(l, occupancy, outcome(1000, c));   // 10 warp instructions per block, 100 on the busiest SM
    }
    BOOST_TEST(!s.detailed(l, occupancy));
    const KernelSampler::Projection p = s.add_projected(l, occupancy, outcome(1000, 0));
    BOOST_TEST(p.cycles == 10200u);   // the mean of the warm launches: 102 cycles per busiest-SM instruction
    BOOST_TEST(!p.from_other_group);
    BOOST_TEST(!p.profile);

    // A grid half as large again gives its busiest SM 15 blocks: the same load, 1.5 times the cycles.
    const LaunchInfo big = launch(k, 150);
    BOOST_TEST(!s.detailed(big, occupancy));
    BOOST_TEST(s.add_projected(big, occupancy, outcome(1500, 0)).cycles == 15300u);
    BOOST_TEST(s.detailed(launch(k, 80), occupancy));   // 8 blocks, 4 full loads: a load of its own

    const nlohmann::json r = s.report();
    BOOST_TEST(r["detailed_launches"] == 3);
    BOOST_TEST(r["projected_launches"] == 2);
    BOOST_TEST(r["cycles"] == 13000 + 10000 + 10400 + 10200 + 15300);
    BOOST_TEST(double(r["detailed_share"]) == 3000.0 / 5500.0, boost::test_tools::tolerance(1e-12));
    // Two warm samples (102 +- 2.83 cycles per instruction, t = 12.706 for one degree of freedom)
    // bound the projected 250 busiest-SM instructions: 12.706 * 2.83 * sqrt(250^2 / 2 + 100^2 + 150^2).
    const double half = 12.706 * std::sqrt(8.0) * std::sqrt(250.0 * 250.0 / 2 + 100.0 * 100.0 + 150.0 * 150.0);
    BOOST_TEST(double(r["cycles_95"][1]) - double(r["cycles"]) == half, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(r["groups"].size() == 1u);
    BOOST_TEST(r["groups"][0]["load_blocks"] == 9);
}

// Grids of few blocks per SM form groups of their own load, and kernels or
// blocks of another shape never share a group.
BOOST_AUTO_TEST_CASE(load_and_kernel_separate_groups) {
    KernelSampler s(1, 0.05, 4);
    auto a = kernel("a"), b = kernel("b");
    s.add_detailed(launch(a, 1000), 4, outcome(10000, 50000));   // 100 blocks on the busiest SM
    BOOST_TEST(!s.detailed(launch(a, 1000), 4));
    BOOST_TEST(s.detailed(launch(a, 10), 4));      // one block per SM: load 1
    BOOST_TEST(s.detailed(launch(a, 20), 4));      // load 2
    BOOST_TEST(s.detailed(launch(a, 160), 4));     // 16 blocks: 4 full loads, the last exact one
    BOOST_TEST(s.detailed(launch(b, 1000), 4));
    LaunchInfo wide = launch(a, 1000);
    wide.block = {256, 1, 1};
    BOOST_TEST(s.detailed(wide, 4));
    BOOST_TEST(!s.detailed(launch(a, 170), 4));    // 17 blocks and more: the large grids' load
    BOOST_TEST(!s.detailed(launch(a, 5000), 4));
}

// A launch whose instructions per block put it in a group without a detailed launch borrows the
// nearest group of its key, and makes the next launch detailed; the interval stays open while a
// group is projected from a single detailed launch.
BOOST_AUTO_TEST_CASE(a_new_profile_borrows_and_is_sampled_next) {
    KernelSampler s(1, 0.05, 4);
    auto k = kernel("iterate");
    const LaunchInfo l = launch(k, 100);
    s.add_detailed(l, 4, outcome(1000, 5000));          // 50 cycles per busiest-SM instruction
    BOOST_TEST(!s.detailed(l, 4));
    const KernelSampler::Projection p = s.add_projected(l, 4, outcome(2000, 0));   // twice the work per block
    BOOST_TEST(p.from_other_group);
    BOOST_TEST(p.cycles == 10000u);
    BOOST_TEST(s.detailed(l, 4));                       // the new group has no detailed launch yet
    s.add_detailed(l, 4, outcome(2000, 9000));
    BOOST_TEST(!s.detailed(l, 4));
    BOOST_TEST(s.add_projected(l, 4, outcome(2010, 0)).cycles == 9045u);
    const nlohmann::json r = s.report();
    BOOST_TEST(r["groups"].size() == 2u);
    BOOST_TEST(r["groups"][1]["borrowed_launches"] == 1);
    BOOST_TEST(r["cycles_95"].is_null());
}

// A projected launch's profile is its group's summed profile scaled to its instructions.
BOOST_AUTO_TEST_CASE(a_projected_profile_is_the_group_scaled) {
    KernelSampler s(1, 0.05, 4);
    auto k = kernel("p");
    const LaunchInfo l = launch(k, 100);
    KernelSampler::Outcome o = outcome(1000, 4000);
    KernelProfile prof;
    prof.issued = 1000;
    prof.l2_misses = 40;
    o.profile = prof;
    s.add_detailed(l, 4, o);
    const KernelSampler::Projection p = s.add_projected(l, 4, outcome(1020, 0));
    BOOST_REQUIRE(p.profile);
    BOOST_TEST(p.profile->issued == 1020.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(p.profile->l2_misses == 40.8, boost::test_tools::tolerance(1e-12));
}

// The profile a projected launch takes leaves out the group's first (cold) launch, as its cycles do.
BOOST_AUTO_TEST_CASE(a_projected_profile_leaves_the_cold_launch_out) {
    KernelSampler s(2, 0.05, 4);
    auto k = kernel("warm");
    const LaunchInfo l = launch(k, 100);
    KernelProfile cold, warm;
    cold.l2_misses = 900;
    warm.l2_misses = 100;
    KernelSampler::Outcome first = outcome(1000, 9000), second = outcome(1000, 4000);
    first.profile = cold;
    second.profile = warm;
    s.add_detailed(l, 4, first);
    s.add_detailed(l, 4, second);
    const KernelSampler::Projection p = s.add_projected(l, 4, outcome(1000, 0));
    BOOST_TEST(p.cycles == 4000u);
    BOOST_REQUIRE(p.profile);
    BOOST_TEST(p.profile->l2_misses == 100.0, boost::test_tools::tolerance(1e-12));
    // Two detailed launches leave one warm one: no spread to bound the projection with.
    BOOST_TEST(s.report()["cycles_95"].is_null());
}
