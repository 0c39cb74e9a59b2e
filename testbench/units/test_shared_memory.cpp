// Testbench of the SharedMemory unit (rtl_models/smem): bank rules per generation and the
// conflict statistics it reports.
#define BOOST_TEST_MODULE shared_memory
#include <boost/test/unit_test.hpp>

#include "common/addresses.h"
#include "smem/shared_memory.h"

using namespace gpusim;
using gpusim::test::strided;

namespace {

SharedMemoryConfig fermi_smem() { return SharedMemoryConfig{}; }
SharedMemoryConfig tesla_smem() {
    SharedMemoryConfig c;
    c.banks = 16;
    c.max_group_threads = 16;
    c.single_broadcast = true;
    c.split_wide = true;
    return c;
}
SharedMemoryConfig kepler_smem() {
    SharedMemoryConfig c;
    c.bank_width_bytes = 8;
    return c;
}

} // namespace

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
