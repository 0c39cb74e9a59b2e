// An initiator of the timing memory protocol (protocol/memory_request.h) for the memory units'
// testbenches: it sends one request at a chip cycle and returns its latency, as an SM's LD/ST unit does.
#pragma once

#include <cstdint>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>
#include <tlm_utils/simple_initiator_socket.h>

#include "protocol/memory_request.h"
#include "isa/unit_module.h"

namespace gpusim::test {

// An initiator of the timing protocol: sends one request at a chip cycle, returns its latency.
struct Probe : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Probe> socket;
    MemoryRequestPayload payload;
    ChipClock clock;
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;   // of the last request

    Probe(const sc_core::sc_module_name& name, double cycle_ns) : sc_module(name), socket("socket"), clock(cycle_ns) {}

    uint64_t send(MemoryRequest::Kind kind, uint64_t addr, uint32_t bytes, uint64_t cycle, uint32_t ops = 1) {
        sc_core::sc_time delay = clock.delay_of(cycle);
        const sc_core::sc_time sent = delay;
        tlm::tlm_generic_payload& p = payload.prepare(addr, bytes, kind, ops);
        socket->b_transport(p, delay);
        status = p.get_response_status();
        return clock.cycles_in(delay - sent);
    }
    // A request that must succeed.
    uint64_t ok(MemoryRequest::Kind kind, uint64_t addr, uint32_t bytes, uint64_t cycle, uint32_t ops = 1) {
        const uint64_t latency = send(kind, addr, bytes, cycle, ops);
        BOOST_TEST(status == tlm::TLM_OK_RESPONSE);
        return latency;
    }
    uint64_t read(uint64_t addr, uint32_t bytes, uint64_t cycle) { return ok(MemoryRequest::Kind::Read, addr, bytes, cycle); }
    uint64_t write(uint64_t addr, uint32_t bytes, uint64_t cycle) { return ok(MemoryRequest::Kind::Write, addr, bytes, cycle); }
};

// A unit's statistics as its report writes them.
inline nlohmann::json unit_stats(const UnitModule& unit) {
    nlohmann::json out;
    unit.report(out);
    return out;
}

} // namespace gpusim::test
