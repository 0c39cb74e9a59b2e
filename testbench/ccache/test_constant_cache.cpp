// Testbench of the ConstantCache unit (rtl_models/ccache): serialization per distinct address
// and thread group, line fills, latency per pass.
#define BOOST_TEST_MODULE constant_cache
#include <boost/test/unit_test.hpp>

#include <array>

#include "ccache/constant_cache.h"
#include "common/addresses.h"

using namespace gpusim;
using gpusim::test::strided;

BOOST_AUTO_TEST_CASE(constant_cache_serializes_distinct_addresses_per_group) {
    ConstantCacheConfig c;
    c.cache = {8192, 64, 2, 40};
    ConstantCache warp_wide("cc_f", c);
    std::array<uint64_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[l] = uint64_t(l % 4) * 4;
    auto r = warp_wide.access(a.data(), ~0u);
    BOOST_TEST(r.passes == 4u);
    BOOST_TEST(r.misses == 1u);                                // one line
    BOOST_TEST(warp_wide.access(a.data(), ~0u).misses == 0u);
    c.group_threads = 16;
    ConstantCache half("cc_t", c);
    BOOST_TEST(half.access(a.data(), ~0u).passes == 8u);       // each half-warp sees 4 addresses
    BOOST_TEST(warp_wide.latency(3) == 40u + 2 * c.pass_cycles);
}
