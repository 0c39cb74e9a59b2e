// Testbench of the memory targets (tlm/memory): device memory mapped in pages of a sparse store,
// address errors outside them, DMI per page and its invalidation, driven through the socket in one
// elaborated testbench.
#define BOOST_TEST_MODULE memory
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <vector>

#include <systemc>

#include "common/tlm_initiator.h"
#include "memory/host_memory.h"
#include "memory/memory_target.h"
#include "protocol/copy_engine_access.h"

using namespace gpusim;
using gpusim::test::Initiator;

namespace {

struct Bench : sc_core::sc_module {
    MemoryTarget device{"device", true, sc_core::sc_time(10, sc_core::SC_NS)};
    Initiator cpu{"cpu"};
    HostMemory host{"host"};
    Initiator gpu{"gpu"};

    explicit Bench(const sc_core::sc_module_name& n) : sc_module(n) {
        cpu.socket.bind(device.socket);
        gpu.socket.bind(host.socket);
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

BOOST_AUTO_TEST_CASE(unmapped_pages_give_their_bytes_back_and_come_back_as_zeros) {
    const uint64_t base = 0x7000'0000;
    SparseStore& store = bench->device.store();
    const size_t slabs = store.slabs();
    bench->device.map(base, 3 * SparseStore::kSlabSize);   // 96 pages in three 2 MiB slabs
    BOOST_TEST(store.slabs() == slabs + 3);
    uint32_t v = 0xA5A5A5A5, r = 1;
    BOOST_TEST(bench->cpu.access(tlm::TLM_WRITE_COMMAND, base + 0x10000, &v, 4) == tlm::TLM_OK_RESPONSE);
    // One page of a slab goes: the slab stays for the others, and the page is zeros when mapped again.
    bench->device.unmap(base + 0x10000, SparseStore::kPageSize);
    BOOST_TEST(store.slabs() == slabs + 3);
    bench->device.map(base + 0x10000, SparseStore::kPageSize);
    BOOST_TEST(bench->cpu.access(tlm::TLM_READ_COMMAND, base + 0x10000, &r, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(r == 0u);
    bench->device.unmap(base, 3 * SparseStore::kSlabSize);
    BOOST_TEST(store.slabs() == slabs);
}

BOOST_AUTO_TEST_CASE(a_window_for_the_copy_engines_alone_refuses_everyone_else) {
    std::vector<uint8_t> buffer(8192, 0x3C);
    const uint64_t at = reinterpret_cast<uint64_t>(buffer.data());
    bench->host.add_window(buffer.data(), buffer.size(), true);
    BOOST_TEST(bench->host.overlaps(at + 100, 10));
    BOOST_TEST(!bench->host.contains(at, 16));
    uint32_t r = 0;
    BOOST_TEST(bench->gpu.access(tlm::TLM_READ_COMMAND, at, &r, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    tlm::tlm_dmi d;
    BOOST_TEST(!bench->gpu.dmi(at, d));
    // A copy engine's transfer, marked as such, reaches it.
    tlm::tlm_generic_payload p;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(at + 4096);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&r));
    p.set_data_length(4);
    p.set_streaming_width(4);
    CopyEngineAccess marker;
    p.set_extension(&marker);
    bench->gpu.socket->b_transport(p, delay);
    p.clear_extension(&marker);
    BOOST_TEST(p.is_response_ok());
    BOOST_TEST(r == 0x3C3C3C3Cu);
    bench->host.remove_window(buffer.data());
    BOOST_TEST(!bench->host.overlaps(at, buffer.size()));
    // An open window answers everyone, with direct access.
    bench->host.add_window(buffer.data(), buffer.size());
    BOOST_TEST(bench->gpu.access(tlm::TLM_READ_COMMAND, at, &r, 4) == tlm::TLM_OK_RESPONSE);
    BOOST_TEST(bench->gpu.dmi(at, d));
    bench->host.remove_window(buffer.data());
}

int sc_main(int argc, char** argv) {
    Bench b("bench");
    bench = &b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
