// Testbench of the SharedMemory unit (rtl_models/smem): bank rules per generation and the
// conflict statistics it reports.
#define BOOST_TEST_MODULE shared_memory
#include <boost/test/unit_test.hpp>

#include "common/addresses.h"
#include "common/smem_traffic.h"
#include "smem/shared_memory.h"

using namespace gpusim;
using gpusim::test::fermi_smem;
using gpusim::test::kepler_smem;
using gpusim::test::strided;
using gpusim::test::tesla_smem;

BOOST_AUTO_TEST_CASE(fermi_banks_conflict_by_gcd_of_stride_and_broadcast_any_word) {
    SharedMemory s("smem_f", fermi_smem());
    for (uint64_t words : {1, 2, 3, 4, 8, 16, 32}) {
        auto a = strided(words * 4);
        uint64_t g = words, m = 32;
        while (m) { uint64_t r = g % m; g = m; m = r; }
        BOOST_TEST(s.passes(a.data(), ~0u, 4) == g, "stride " << words);
    }
    auto same = strided(0, 64);
    BOOST_TEST(s.passes(same.data(), ~0u, 4) == 1u);          // one word: broadcast
    auto bytes = strided(1);
    BOOST_TEST(s.passes(bytes.data(), ~0u, 1) == 1u);         // char[tid]: no conflict
    auto dbl = strided(8);
    BOOST_TEST(s.passes(dbl.data(), ~0u, 8) == 2u);           // double[tid]: one pass per half-warp
    BOOST_TEST(s.ideal_passes(~0u, 8) == 2u);
    auto u4 = strided(4);
    BOOST_TEST(s.passes(u4.data(), 0x0000FFFFu, 4) == 1u);
}

BOOST_AUTO_TEST_CASE(tesla_banks_serve_half_warps_with_one_broadcast_word) {
    SharedMemory s("smem_t", tesla_smem());
    auto unit = strided(4);
    BOOST_TEST(s.passes(unit.data(), ~0u, 4) == 2u);          // two half-warps
    auto s2 = strided(8);
    BOOST_TEST(s.passes(s2.data(), ~0u, 4) == 4u);            // 2-way in each half
    auto s16 = strided(64);
    BOOST_TEST(s.passes(s16.data(), ~0u, 4) == 32u);          // all in one bank: 16-way per half
    auto bytes = strided(1);
    BOOST_TEST(s.passes(bytes.data(), ~0u, 1) == 8u);         // char[tid]: 4-way per half-warp
    auto dbl = strided(8);
    BOOST_TEST(s.passes(dbl.data(), ~0u, 8) == 8u);           // two word requests, each 2-way, per half
}

BOOST_AUTO_TEST_CASE(kepler_words_32_apart_share_a_bank_row) {
    SharedMemory s("smem_k", kepler_smem());
    auto s2 = strided(8);
    BOOST_TEST(s.passes(s2.data(), ~0u, 4) == 1u);
    auto s4 = strided(16);
    BOOST_TEST(s.passes(s4.data(), ~0u, 4) == 2u);
    auto dbl = strided(8);
    BOOST_TEST(s.passes(dbl.data(), ~0u, 8) == 1u);
}

BOOST_AUTO_TEST_CASE(conflicts_are_counted_beyond_the_conflict_free_passes) {
    SharedMemory s("smem_stats", fermi_smem());
    auto two_way = strided(8);
    auto clean = strided(4);
    BOOST_TEST(s.access(two_way.data(), ~0u, 4) == 2u);
    BOOST_TEST(s.access(clean.data(), ~0u, 4) == 1u);
    nlohmann::json out;
    s.report(out);
    BOOST_TEST(out["accesses"]["value"].get<double>() == 2.0);
    BOOST_TEST(out["passes"]["value"].get<double>() == 3.0);
    BOOST_TEST(out["bank_conflicts"]["value"].get<double>() == 1.0);
}

BOOST_AUTO_TEST_CASE(atomics_on_one_word_take_a_pass_per_lane) {
    SharedMemory s("smem_atomic", fermi_smem());
    auto one_word = strided(0, 0x40);
    auto clean = strided(4);
    BOOST_TEST(s.access(one_word.data(), ~0u, 4) == 1u);                 // a load broadcasts the word
    BOOST_TEST(s.access(one_word.data(), ~0u, 4, true) == 32u);          // an atomic serializes the lanes
    BOOST_TEST(s.access(one_word.data(), 0xF0u, 4, true) == 4u);
    BOOST_TEST(s.access(clean.data(), ~0u, 4, true) == 1u);              // distinct words: the banks' passes
    auto two_way = strided(8);
    BOOST_TEST(s.access(two_way.data(), ~0u, 4, true) == 2u);            // bank conflicts still count
    nlohmann::json out;
    s.report(out);
    BOOST_TEST(out["atomic_passes"]["value"].get<double>() == 31.0 + 3.0);
    BOOST_TEST(out["bank_conflicts"]["value"].get<double>() == 1.0);
}

BOOST_AUTO_TEST_CASE(schedule_serves_each_lane_once_per_piece_in_as_many_passes_as_counted) {
    for (const auto& gen : gpusim::test::smem_geometries()) {
        SharedMemory s(("smem_sched_" + gen.name).c_str(), gen.cfg);
        gpusim::test::SmemTraffic traffic(7);
        for (int i = 0; i < 20000; ++i) {
            const auto a = traffic.next();
            const auto passes = s.schedule(a.addr.data(), a.mask, a.width);
            BOOST_REQUIRE_MESSAGE(passes.size() == s.passes(a.addr.data(), a.mask, a.width), gen.name << " access " << i);
            // Every active lane completes once per piece (split accesses have one piece per bank word).
            const uint32_t pieces = gen.cfg.split_wide && a.width > gen.cfg.bank_width_bytes ? a.width / gen.cfg.bank_width_bytes : 1;
            uint32_t per_lane[32] = {};
            for (LaneMask m : passes) {
                BOOST_REQUIRE((m & ~a.mask) == 0u);
                for (int l = 0; l < 32; ++l) per_lane[l] += m >> l & 1;
            }
            for (int l = 0; l < 32; ++l) BOOST_REQUIRE(per_lane[l] == (a.mask >> l & 1 ? pieces : 0u));
        }
    }
}

BOOST_AUTO_TEST_CASE(schedule_serves_the_lowest_lanes_row_first) {
    SharedMemory f("smem_sched_f", fermi_smem());
    auto two_way = strided(8);   // lanes l and l + 16 share bank 2l mod 32 in rows 0 and 1
    BOOST_TEST(f.schedule(two_way.data(), ~0u, 4) == (std::vector<LaneMask>{0x0000FFFFu, 0xFFFF0000u}), boost::test_tools::per_element());
    auto dbl = strided(8);       // double[tid]: one half-warp per pass
    BOOST_TEST(f.schedule(dbl.data(), ~0u, 8) == (std::vector<LaneMask>{0x0000FFFFu, 0xFFFF0000u}), boost::test_tools::per_element());
    SharedMemory t("smem_sched_t", tesla_smem());
    auto same = strided(0, 0x40);
    same[3] = 0x44;              // the broadcast word is lane 0's; lane 3 takes its own bank
    same[5] = 0x80;              // bank 0 again, another word: it waits
    BOOST_TEST(t.schedule(same.data(), 0xFFu, 4) == (std::vector<LaneMask>{0xDFu, 0x20u}), boost::test_tools::per_element());
}
