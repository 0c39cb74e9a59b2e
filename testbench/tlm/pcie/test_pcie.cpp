// Testbench of the PCIe link (tlm/pcie): each direction moves bytes at the link's bandwidth from
// when it is free, so two transfers the same way queue and opposite ways overlap (full duplex); a
// kernel's timing request to mapped host memory also pays the round trip; errors of host memory
// pass back unchanged.
#define BOOST_TEST_MODULE pcie
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <vector>

#include <systemc>

#include "common/tlm_initiator.h"
#include "memory/memory_target.h"
#include "pcie/pcie_link.h"
#include "protocol/memory_request.h"

using namespace gpusim;
using gpusim::test::Initiator;

namespace {

// 8 GB/s each way (a byte in 0.125 ns), 500 ns round trip of a kernel's access; host memory that
// answers at once.
struct Bench : sc_core::sc_module {
    MemoryTarget host{"host", false, sc_core::SC_ZERO_TIME};
    PcieConfig cfg{8.0, 1000.0, 4096, 1, true, 4.0, 500.0};
    PcieLink link{"link", cfg};
    Initiator a{"a"}, b{"b"};

    explicit Bench(const sc_core::sc_module_name& n) : sc_module(n) {
        link.host_side.bind(host.socket);
        a.socket.bind(link.gpu_side);
        b.socket.bind(link.gpu_side);
    }
};

Bench* bench = nullptr;

double ns(const sc_core::sc_time& t) { return t.to_seconds() * 1e9; }

} // namespace

BOOST_AUTO_TEST_CASE(transfers_one_way_queue_and_opposite_ways_overlap) {
    std::vector<uint8_t> data(8000, 0x11);
    // A read of host memory carries 8000 bytes to the device: 1000 ns.
    BOOST_TEST(bench->a.access(tlm::TLM_READ_COMMAND, 0x1000, data.data(), 8000) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(ns(bench->a.last_delay) == 1000.0, boost::test_tools::tolerance(1e-9));
    // A second one the same way, at the same moment, waits for the first.
    BOOST_TEST(bench->b.access(tlm::TLM_READ_COMMAND, 0x9000, data.data(), 8000) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(ns(bench->b.last_delay) == 2000.0, boost::test_tools::tolerance(1e-9));
    // A write to the host goes the other way: not held up.
    BOOST_TEST(bench->a.access(tlm::TLM_WRITE_COMMAND, 0x20000, data.data(), 4000) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(ns(bench->a.last_delay) == 500.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(bench->link.bytes(true) == 16000u);
    BOOST_TEST(bench->link.bytes(false) == 4000u);
    nlohmann::json j;
    bench->link.report(j);
    BOOST_TEST(j["busy_ns_to_device"].get<double>() == 2000.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(j["busy_ns_to_host"].get<double>() == 500.0, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_kernel_access_to_host_memory_pays_the_round_trip) {
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));   // the link is idle again
    MemoryRequestPayload request;
    tlm::tlm_generic_payload& p = request.prepare(0x4000, 128, MemoryRequest::Kind::Read);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bench->a.socket->b_transport(p, delay);
    BOOST_TEST(p.is_response_ok());
    // 500 ns of round trip, then 128 bytes at 8 GB/s (16 ns).
    BOOST_TEST(ns(delay) == 516.0, boost::test_tools::tolerance(1e-9));
    // A posted write of a kernel goes to the host: the other direction.
    tlm::tlm_generic_payload& w = request.prepare(0x4000, 64, MemoryRequest::Kind::Write);
    delay = sc_core::SC_ZERO_TIME;
    bench->a.socket->b_transport(w, delay);
    BOOST_TEST(ns(delay) == 508.0, boost::test_tools::tolerance(1e-9));
}

int sc_main(int argc, char** argv) {
    Bench b("bench");
    bench = &b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
