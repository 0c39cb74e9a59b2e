// Testbench of the timing protocol (tlm/protocol): the payload an initiator reuses, the request a
// target reads from any payload, and chip cycles against SystemC time.
#define BOOST_TEST_MODULE protocol
#include <boost/test/unit_test.hpp>

#include <stdexcept>

#include "protocol/memory_map.h"
#include "protocol/memory_request.h"

using namespace gpusim;

BOOST_AUTO_TEST_CASE(a_prepared_payload_carries_its_request) {
    MemoryRequestPayload r;
    tlm::tlm_generic_payload& p = r.prepare(0x1234'5600, 128, MemoryRequest::Kind::Atomic, 5);
    BOOST_TEST(p.get_command() == tlm::TLM_IGNORE_COMMAND);
    BOOST_TEST(p.get_address() == 0x1234'5600u);
    BOOST_TEST(p.get_data_length() == 128u);
    BOOST_TEST(p.get_streaming_width() == 128u);
    BOOST_TEST(p.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE);
    BOOST_TEST(p.get_data_ptr() != nullptr);   // TLM wants one; an IGNORE command never touches it
    MemoryRequest q = request_of(p);
    BOOST_TEST((q.kind == MemoryRequest::Kind::Atomic));
    BOOST_TEST(q.ops == 5u);
    // Reused for the next request: the extension stays, its fields change.
    r.prepare(0x40, 32, MemoryRequest::Kind::Write);
    BOOST_TEST((request_of(r.payload()).kind == MemoryRequest::Kind::Write));
    BOOST_TEST(request_of(r.payload()).ops == 1u);
    BOOST_CHECK_THROW(r.prepare(0, MemoryRequestPayload::kMaxBytes + 1, MemoryRequest::Kind::Read), std::logic_error);
}

BOOST_AUTO_TEST_CASE(a_plain_read_or_write_counts_as_one_operation) {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    BOOST_TEST((request_of(p).kind == MemoryRequest::Kind::Write));
    BOOST_TEST(request_of(p).ops == 1u);
    p.set_command(tlm::TLM_READ_COMMAND);
    BOOST_TEST((request_of(p).kind == MemoryRequest::Kind::Read));
}

BOOST_AUTO_TEST_CASE(chip_cycles_convert_to_and_from_systemc_time) {
    ChipClock clock(0.5);   // 2 GHz
    BOOST_TEST(clock.span(10) == sc_core::sc_time(5, sc_core::SC_NS));
    BOOST_TEST(clock.cycles_in(sc_core::sc_time(5, sc_core::SC_NS)) == 10u);
    BOOST_TEST(clock.cycles_in(sc_core::sc_time(5.2, sc_core::SC_NS)) == 10u);   // to the nearest cycle
    // Before the simulation starts, SystemC time is 0: a delay is the cycle's time.
    BOOST_TEST(clock.cycle_at(sc_core::sc_time(50, sc_core::SC_NS)) == 100u);
    BOOST_TEST(clock.delay_of(100) == sc_core::sc_time(50, sc_core::SC_NS));
    BOOST_TEST(clock.delay_of(0) == sc_core::SC_ZERO_TIME);
}

BOOST_AUTO_TEST_CASE(the_memory_map_windows_do_not_overlap_and_classify_addresses) {
    using namespace memory_map;
    BOOST_TEST(in_shared_window(kSharedWindowBase));
    BOOST_TEST(in_shared_window(kSharedWindowBase + kSharedWindowSize - 1));
    BOOST_TEST(!in_shared_window(kSharedWindowBase + kSharedWindowSize));
    BOOST_TEST(!in_shared_window(kSharedWindowBase - 1));
    BOOST_TEST(in_local_window(kLocalWindowBase + 12));
    BOOST_TEST(!in_local_window(kSharedWindowBase));
    BOOST_TEST(in_const_window(kConstBase));
    // Every fixed window lies below the device limit; the managed window is among the host's
    // addresses but is not the host's own.
    for (uint64_t end : {kSharedWindowBase + kSharedWindowSize, kLocalWindowBase + kLocalWindowSize,
                         kConstBase + kConstWindowSize, kFunctionBase + kFunctionWindowSize})
        BOOST_TEST(end <= kHeapBase);
    BOOST_TEST(!is_host_address(kHeapBase));
    BOOST_TEST(is_host_address(kDeviceLimit));
    BOOST_TEST(in_managed_window(kManagedBase + 4096));
    BOOST_TEST(!is_host_address(kManagedBase + 4096));
    BOOST_TEST(is_host_address(kManagedBase + kManagedWindowSize));
}

BOOST_AUTO_TEST_CASE(function_addresses_name_their_module_index) {
    using namespace memory_map;
    BOOST_TEST(function_index(function_address(0)) == 0);
    BOOST_TEST(function_index(function_address(41)) == 41);
    BOOST_TEST(function_index(function_address(41) + 4) == -1);   // not on a function's address
    BOOST_TEST(function_index(kFunctionBase - kFunctionStride) == -1);
    BOOST_TEST(function_index(kFunctionBase + kFunctionWindowSize) == -1);
}
