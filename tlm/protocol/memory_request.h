// The protocol of the timing memory path (LD/ST unit -> L2 -> device memory controller): TLM-2.0
// generic payloads with TLM_IGNORE_COMMAND, since the data itself moves through the functional
// path, carrying what the access is in a MemoryRequest extension. The initiator passes as delay
// the time of the access relative to SystemC time (its temporal-decoupling offset); the target
// adds how long the access takes, and never lowers it. Any target that keeps to this can stand in
// for our L2 or DRAM, with two rules beyond the base protocol: b_transport returns without
// calling wait() (the requests are costed, not synchronized: the SMs are already decoupled), and
// the target leaves the extension in place (the initiator owns it; there is no memory manager).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

namespace gpusim {

// What an initiator of the protocol binds to: the L2's socket on a chip; a testbench's own target
// for an SM or an LD/ST unit on its own.
using MemoryRequestTarget = tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

struct MemoryRequest : tlm::tlm_extension<MemoryRequest> {
    enum class Kind : uint8_t {
        Read,     // a load (or a cache's line fill): the initiator waits for the data
        Write,    // a store: posted, the initiator does not wait beyond the acceptance
        Atomic,   // a read-modify-write performed at the L2 (or device memory without one)
        // Kernel sampling: a line a launch run without timing touched. A cache takes it as if it
        // had fetched it, counting and timing nothing; a target without state ignores it.
        Warm,
    };
    Kind kind = Kind::Read;
    // Atomic: the operations on the request's address (one word), performed one after another. The
    // payload's length is then that of the coalesced segment holding the word: the bytes it moves.
    uint32_t ops = 1;

    tlm::tlm_extension_base* clone() const override { return new MemoryRequest(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const MemoryRequest&>(other); }
};

// One request payload an initiator reuses: IGNORE command, the extension attached for good.
class MemoryRequestPayload {
public:
    static constexpr uint32_t kMaxBytes = 2u << 20;   // no transaction, line or managed page is larger (checked at config load)

    MemoryRequestPayload();
    ~MemoryRequestPayload();
    MemoryRequestPayload(const MemoryRequestPayload&) = delete;
    MemoryRequestPayload& operator=(const MemoryRequestPayload&) = delete;

    // Sets the payload up for an access of `bytes` at `addr`.
    tlm::tlm_generic_payload& prepare(uint64_t addr, uint32_t bytes, MemoryRequest::Kind kind, uint32_t ops = 1);
    tlm::tlm_generic_payload& payload() { return m_payload; }

private:
    tlm::tlm_generic_payload m_payload;
    MemoryRequest m_request;
};

// The request a payload carries (a target's view); a plain READ or WRITE without the extension
// counts as a read or a write of one operation.
MemoryRequest request_of(const tlm::tlm_generic_payload& p);

// Chip cycles against SystemC time, for both sides of the protocol.
class ChipClock {
public:
    explicit ChipClock(double cycle_ns) : m_cycle(cycle_ns, sc_core::SC_NS) {}

    // The chip cycle of an access `delay` after the current SystemC time.
    uint64_t cycle_at(const sc_core::sc_time& delay) const {
        return uint64_t((sc_core::sc_time_stamp() + delay) / m_cycle + 0.5);
    }
    // The delay (from the current SystemC time) of chip cycle `cycle`; never negative.
    sc_core::sc_time delay_of(uint64_t cycle) const {
        const sc_core::sc_time at = m_cycle * double(cycle), now = sc_core::sc_time_stamp();
        return at > now ? at - now : sc_core::SC_ZERO_TIME;
    }
    sc_core::sc_time span(uint64_t cycles) const { return m_cycle * double(cycles); }
    uint64_t cycles_in(const sc_core::sc_time& span) const { return uint64_t(span / m_cycle + 0.5); }

private:
    sc_core::sc_time m_cycle;
};

} // namespace gpusim
