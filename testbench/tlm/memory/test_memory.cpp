// Device/host memory targets, the router and the copy engine, driven through their TLM sockets in
// one elaborated testbench.
#define BOOST_TEST_MODULE memory
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "dma/dma_engine.h"
#include "interconnect/router.h"
#include "memory/memory_target.h"
#include "pcie/pcie_link.h"

using namespace gpusim;

namespace {

class Initiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Initiator> socket;
    uint64_t invalidated_start = 0, invalidated_end = 0;

    explicit Initiator(const sc_core::sc_module_name& n) : sc_module(n), socket("socket") {
        socket.register_invalidate_direct_mem_ptr(this, &Initiator::invalidate);
    }
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, uint32_t len) {
        tlm::tlm_generic_payload p;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        p.set_command(cmd);
        p.set_address(addr);
        p.set_data_ptr(static_cast<unsigned char*>(data));
        p.set_data_length(len);
        p.set_streaming_width(len);
        p.set_byte_enable_ptr(nullptr);
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(p, d);
        return p.get_response_status();
    }
    bool dmi(uint64_t addr, tlm::tlm_dmi& out) {
        tlm::tlm_generic_payload p;
        p.set_address(addr);
        p.set_command(tlm::TLM_READ_COMMAND);
        return socket->get_direct_mem_ptr(p, out);
    }

private:
    void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) { invalidated_start = s; invalidated_end = e; }
};

// host <- pcie <- dma -> router -> device; a second initiator also reaches the device through the router.
struct Bench : sc_core::sc_module {
    MemoryTarget host{"host", false, sc_core::SC_ZERO_TIME};
    MemoryTarget device{"device", true, sc_core::sc_time(10, sc_core::SC_NS)};
    Router xbar{"xbar"};
    Initiator cpu{"cpu"};
    PcieConfig link_cfg{8.0, 1000.0, 4096, 1, true, 4.0};
    PcieLink pcie{"pcie", link_cfg};
    DmaEngine dma{"dma", link_cfg};

    explicit Bench(const sc_core::sc_module_name& n) : sc_module(n) {
        xbar.out.bind(device.socket);
        xbar.add_range(0, ~0ull, 0);
        cpu.socket.bind(xbar.in);
        dma.device.bind(xbar.in);
        dma.host.bind(pcie.gpu_side);
        pcie.host_side.bind(host.socket);
    }
};

Bench* bench = nullptr;

} // namespace

BOOST_AUTO_TEST_CASE(unmapped_device_addresses_answer_with_address_errors) {
    uint32_t v = 0x12345678;
    BOOST_TEST(bench->cpu.access(tlm::TLM_WRITE_COMMAND, 0x5000'0000, &v, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    bench->device.map(0x5000'0000, 100);
    BOOST_TEST(bench->cpu.access(tlm::TLM_WRITE_COMMAND, 0x5000'0000, &v, 4) == tlm::TLM_OK_RESPONSE);
    uint32_t r = 0;
    BOOST_TEST(bench->cpu.access(tlm::TLM_READ_COMMAND, 0x5000'0000, &r, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(r == 0x12345678u);
    // The mapping covers whole 64 KiB pages, and not the page after.
    BOOST_TEST(bench->cpu.access(tlm::TLM_READ_COMMAND, 0x5000'FFFC, &r, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(bench->cpu.access(tlm::TLM_READ_COMMAND, 0x5001'0000, &r, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

BOOST_AUTO_TEST_CASE(sparse_store_spans_the_whole_64_bit_space) {
    const uint64_t high = 0xFFFF'FFF0'0000'0000ull;
    bench->device.map(high, 1 << 20);
    size_t pages = bench->device.store().pages();
    uint64_t v = 0xDEADBEEFCAFEF00Dull, r = 0;
    BOOST_TEST(bench->cpu.access(tlm::TLM_WRITE_COMMAND, high + 0xFFFF8, &v, 8) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(bench->cpu.access(tlm::TLM_READ_COMMAND, high + 0xFFFF8, &r, 8) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(r == v);
    BOOST_TEST(bench->device.store().pages() == pages);   // mapping allocated the 16 pages, nothing more
    BOOST_TEST(pages < 40u);
}

BOOST_AUTO_TEST_CASE(dmi_is_granted_per_mapped_page_and_invalidated_on_unmap) {
    bench->device.map(0x6000'0000, 4096);
    tlm::tlm_dmi d;
    BOOST_REQUIRE(bench->cpu.dmi(0x6000'0010, d));
    BOOST_TEST(d.get_start_address() == 0x6000'0000u);
    BOOST_TEST(d.get_end_address() == 0x6000'FFFFu);
    BOOST_TEST(d.is_write_allowed());
    d.get_dmi_ptr()[0x10] = 0xAB;
    uint8_t r = 0;
    bench->cpu.access(tlm::TLM_READ_COMMAND, 0x6000'0010, &r, 1);
    BOOST_TEST(r == 0xAB);
    tlm::tlm_dmi none;
    BOOST_TEST(!bench->cpu.dmi(0x6100'0000, none));
    bench->device.unmap(0x6000'0000, 4096);
    BOOST_TEST(bench->cpu.invalidated_start == 0x6000'0000u);
    BOOST_TEST(bench->cpu.invalidated_end == 0x6000'FFFFu);
}

BOOST_AUTO_TEST_CASE(dma_copies_host_to_device_and_back_at_link_speed) {
    const uint64_t n = 1 << 20, hsrc = 0x100000, hdst = 0x900000, dev = 0x7000'0000;
    std::vector<uint8_t> data(n);
    for (uint64_t i = 0; i < n; ++i) data[i] = uint8_t(i * 7 + 3);
    bench->host.store().write(hsrc, data.data(), n);
    bench->device.map(dev, n);
    sc_core::sc_time t0 = sc_core::sc_time_stamp();
    bench->dma.submit({DmaDescriptor::Kind::HostToDevice, hsrc, dev, n, 0});
    sc_core::sc_start();
    // 1000 ns setup + 1 MiB at 8 GB/s (131072 ns) + 256 bursts of 10 ns device latency.
    BOOST_TEST((sc_core::sc_time_stamp() - t0).to_seconds() * 1e9 == 1000.0 + 131072.0 + 2560.0,
               boost::test_tools::tolerance(1e-6));
    bench->dma.submit({DmaDescriptor::Kind::DeviceToHost, dev, hdst, n, 0});
    sc_core::sc_start();
    std::vector<uint8_t> back(n);
    bench->host.store().read(hdst, back.data(), n);
    BOOST_TEST(back == data);
    BOOST_TEST(!bench->dma.error());
}

BOOST_AUTO_TEST_CASE(dma_fill_and_device_copy) {
    const uint64_t a = 0x7100'0000, b = 0x7200'0000;
    bench->device.map(a, 1000);
    bench->device.map(b, 1000);
    bench->dma.submit({DmaDescriptor::Kind::Fill, 0, a, 1000, 0x5A});
    bench->dma.submit({DmaDescriptor::Kind::DeviceToDevice, a, b, 1000, 0});
    sc_core::sc_start();
    std::vector<uint8_t> r(1000);
    bench->device.store().read(b, r.data(), r.size());
    BOOST_TEST(std::all_of(r.begin(), r.end(), [](uint8_t x) { return x == 0x5A; }));
}

BOOST_AUTO_TEST_CASE(dma_reports_unmapped_device_addresses) {
    bench->dma.submit({DmaDescriptor::Kind::Fill, 0, 0x7F00'0000, 64, 1});
    sc_core::sc_start();
    BOOST_TEST(bench->dma.error());
    BOOST_TEST(bench->dma.error_address() == 0x7F00'0000u);
    bench->dma.clear_error();
}


int sc_main(int argc, char** argv) {
    Bench b("bench");
    bench = &b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
