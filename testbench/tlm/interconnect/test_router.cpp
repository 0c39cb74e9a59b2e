// Testbench of the router (tlm/interconnect): accesses reach the target of their address range,
// addresses in no range get an address error, DMI grants are cut to the routed range, and a
// target's DMI invalidation reaches every initiator.
#define BOOST_TEST_MODULE router
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <systemc>

#include "common/tlm_initiator.h"
#include "interconnect/router.h"
#include "memory/memory_target.h"

using namespace gpusim;
using gpusim::test::Initiator;

namespace {

// Two initiators; device memory routed for [0, 0x1'0000'0000), a second memory from 0x1'0000'0000
// to 0x1'7FFF'7FFF (the middle of a 64 KiB page); nothing beyond.
struct Bench : sc_core::sc_module {
    MemoryTarget low{"low", true, sc_core::sc_time(10, sc_core::SC_NS)};
    MemoryTarget high{"high", true, sc_core::sc_time(30, sc_core::SC_NS)};
    Router xbar{"xbar"};
    Initiator a{"a"}, b{"b"};

    explicit Bench(const sc_core::sc_module_name& n) : sc_module(n) {
        xbar.out.bind(low.socket);
        xbar.out.bind(high.socket);
        xbar.add_range(0, 0xFFFF'FFFFull, 0);
        xbar.add_range(0x1'0000'0000ull, 0x1'7FFF'7FFFull, 1);
        a.socket.bind(xbar.in);
        b.socket.bind(xbar.in);
    }
};

Bench* bench = nullptr;

} // namespace

BOOST_AUTO_TEST_CASE(each_range_reaches_its_own_target) {
    bench->low.map(0x1000, 4096);
    bench->high.map(0x1'0000'1000ull, 4096);
    uint32_t v = 7, r = 0;
    BOOST_TEST(bench->a.access(tlm::TLM_WRITE_COMMAND, 0x1000, &v, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(bench->a.last_delay == sc_core::sc_time(10, sc_core::SC_NS));
    v = 9;
    BOOST_TEST(bench->b.access(tlm::TLM_WRITE_COMMAND, 0x1'0000'1000ull, &v, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(bench->b.last_delay == sc_core::sc_time(30, sc_core::SC_NS));
    BOOST_TEST(bench->b.access(tlm::TLM_READ_COMMAND, 0x1000, &r, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(r == 7u);
    BOOST_TEST(bench->a.access(tlm::TLM_READ_COMMAND, 0x1'0000'1000ull, &r, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(r == 9u);
}

BOOST_AUTO_TEST_CASE(an_address_in_no_range_is_an_address_error) {
    uint32_t r = 0;
    BOOST_TEST(bench->a.access(tlm::TLM_READ_COMMAND, 0x2'0000'0000ull, &r, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    tlm::tlm_dmi d;
    BOOST_TEST(!bench->a.dmi(0x2'0000'0000ull, d));
}

BOOST_AUTO_TEST_CASE(a_dmi_grant_never_reaches_past_its_range) {
    // The high memory grants its whole 64 KiB page; the router cuts it where its range ends.
    bench->high.map(0x1'7FFF'0000ull, 0x10000);
    tlm::tlm_dmi d;
    BOOST_REQUIRE(bench->a.dmi(0x1'7FFF'0010ull, d));
    BOOST_TEST(d.get_start_address() == 0x1'7FFF'0000ull);
    BOOST_TEST(d.get_end_address() == 0x1'7FFF'7FFFull);
    uint32_t r = 0;
    BOOST_TEST(bench->a.access(tlm::TLM_READ_COMMAND, 0x1'7FFF'8000ull, &r, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // The low memory's pages below 4 GiB are granted as they are.
    tlm::tlm_dmi low;
    BOOST_REQUIRE(bench->a.dmi(0x1010, low));
    BOOST_TEST(low.get_start_address() == 0x0u);
    BOOST_TEST(low.get_end_address() == 0xFFFFu);
}

BOOST_AUTO_TEST_CASE(an_invalidation_reaches_every_initiator) {
    bench->low.map(0x8000'0000ull, 4096);
    tlm::tlm_dmi d;
    BOOST_REQUIRE(bench->a.dmi(0x8000'0000ull, d));
    bench->low.unmap(0x8000'0000ull, 4096);
    BOOST_TEST(bench->a.invalidated_start == 0x8000'0000u);
    BOOST_TEST(bench->b.invalidated_start == 0x8000'0000u);
    BOOST_TEST(bench->b.invalidated_end == 0x8000'FFFFu);
}

int sc_main(int argc, char** argv) {
    Bench b("bench");
    bench = &b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
