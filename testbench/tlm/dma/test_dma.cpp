// Testbench of the copy engine (tlm/dma): host-to-device and back over the PCIe link at its
// bandwidth, fills and device copies, and the error of an unmapped device address, in one
// elaborated testbench: host memory <- link <- engine -> router -> device memory.
#define BOOST_TEST_MODULE dma
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <vector>

#include <systemc>

#include "dma/dma_engine.h"
#include "interconnect/router.h"
#include "memory/memory_target.h"
#include "pcie/pcie_link.h"

using namespace gpusim;

namespace {

struct Bench : sc_core::sc_module {
    MemoryTarget host{"host", false, sc_core::SC_ZERO_TIME};
    MemoryTarget device{"device", true, sc_core::sc_time(10, sc_core::SC_NS)};
    Router xbar{"xbar"};
    PcieConfig link_cfg{8.0, 1000.0, 4096, 1, true, 4.0};
    PcieLink pcie{"pcie", link_cfg};
    DmaEngine dma{"dma", link_cfg};

    explicit Bench(const sc_core::sc_module_name& n) : sc_module(n) {
        xbar.out.bind(device.socket);
        xbar.add_range(0, ~0ull, 0);
        dma.device.bind(xbar.in);
        dma.host.bind(pcie.gpu_side);
        pcie.host_side.bind(host.socket);
    }
};

Bench* bench = nullptr;

} // namespace

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

// Bursts that straddle a 64 KiB page go through the engine's buffer, the others straight into the
// pages: the bytes and the time come out as one path would give them, and an unmap in between
// takes the engine's direct access back.
BOOST_AUTO_TEST_CASE(dma_bursts_across_pages_and_unmapped_pages) {
    const uint64_t n = 200'000, hsrc = 0x2000'0000, dev = 0x7300'0000 + 100, copy = 0x7400'0000 + 3000;
    std::vector<uint8_t> data(n);
    for (uint64_t i = 0; i < n; ++i) data[i] = uint8_t(i * 13 + 1);
    bench->host.store().write(hsrc, data.data(), n);
    bench->device.map(dev, n);
    bench->device.map(copy, n);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    bench->dma.submit({DmaDescriptor::Kind::HostToDevice, hsrc, dev, n, 0});
    sc_core::sc_start();
    // 1000 ns setup + 200,000 B at 8 GB/s + 49 bursts of 10 ns device latency.
    BOOST_TEST((sc_core::sc_time_stamp() - t0).to_seconds() * 1e9 == 1000.0 + 25000.0 + 490.0, boost::test_tools::tolerance(1e-6));
    bench->dma.submit({DmaDescriptor::Kind::DeviceToDevice, dev, copy, n, 0});
    sc_core::sc_start();
    std::vector<uint8_t> r(n);
    bench->device.store().read(copy, r.data(), n);
    BOOST_TEST(r == data);
    // The engine held direct access to these pages: after an unmap a copy there is an error again.
    bench->device.unmap(copy, n);
    bench->dma.submit({DmaDescriptor::Kind::Fill, 0, copy, 64, 7});
    sc_core::sc_start();
    BOOST_TEST(bench->dma.error());
    BOOST_TEST(bench->dma.error_address() == copy);
    bench->dma.clear_error();
}

// A 2D descriptor: rows land at their pitches, the gaps stay as they were, and the copy costs one
// setup and each row's time (here the link's 8 ns for 64 bytes and the device's 10 ns latency:
// more than pcie.row_ns), not a setup per row.
BOOST_AUTO_TEST_CASE(dma_rows_of_a_2d_copy_take_one_descriptor) {
    const uint64_t rows = 100, width = 64, spitch = 256, dpitch = 128, hsrc = 0x3000'0000, hdst = 0x3100'0000;
    const uint64_t dev = 0x7500'0000, copy = 0x7600'0000;
    std::vector<uint8_t> data(rows * spitch);
    for (uint64_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 13 + 1);
    bench->host.store().write(hsrc, data.data(), data.size());
    bench->device.map(dev, rows * dpitch);
    bench->device.map(copy, rows * dpitch);
    DmaDescriptor up{DmaDescriptor::Kind::HostToDevice, hsrc, dev, width, 0};
    up.rows = rows;
    up.src_pitch = spitch;
    up.dst_pitch = dpitch;
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    bench->dma.submit(up);
    sc_core::sc_start();
    BOOST_TEST((sc_core::sc_time_stamp() - t0).to_seconds() * 1e9 == 1000.0 + rows * (8.0 + 10.0),
               boost::test_tools::tolerance(1e-6));
    std::vector<uint8_t> placed(rows * dpitch);
    bench->device.store().read(dev, placed.data(), placed.size());
    for (uint64_t r = 0; r < rows; ++r)
        for (uint64_t x = 0; x < dpitch; ++x)
            BOOST_TEST_REQUIRE(placed[r * dpitch + x] == (x < width ? data[r * spitch + x] : 0));
    // A fill repeats its byte on every row; a device copy and a download bring the rows back packed.
    DmaDescriptor fill{DmaDescriptor::Kind::Fill, 0, copy, width / 2, 0x77};
    fill.rows = rows;
    fill.dst_pitch = dpitch;
    bench->dma.submit(fill);
    DmaDescriptor down{DmaDescriptor::Kind::DeviceToHost, dev, hdst, width, 0};
    down.rows = rows;
    down.src_pitch = dpitch;
    down.dst_pitch = width;
    bench->dma.submit(down);
    sc_core::sc_start();
    std::vector<uint8_t> back(rows * width), filled(rows * dpitch);
    bench->host.store().read(hdst, back.data(), back.size());
    bench->device.store().read(copy, filled.data(), filled.size());
    for (uint64_t r = 0; r < rows; ++r)
        for (uint64_t x = 0; x < width; ++x) {
            BOOST_TEST_REQUIRE(back[r * width + x] == data[r * spitch + x]);
            BOOST_TEST_REQUIRE(filled[r * dpitch + x] == (x < width / 2 ? 0x77 : 0));
        }
    BOOST_TEST(!bench->dma.error());
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
