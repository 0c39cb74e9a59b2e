#include "protocol/memory_request.h"

#include <stdexcept>

namespace gpusim {

namespace {
// The data pointer of a timing request: TLM wants one, an IGNORE command never touches it.
uint8_t g_no_data[MemoryRequestPayload::kMaxBytes];
} // namespace

MemoryRequestPayload::MemoryRequestPayload() {
    m_payload.set_command(tlm::TLM_IGNORE_COMMAND);
    m_payload.set_data_ptr(g_no_data);
    m_payload.set_byte_enable_ptr(nullptr);
    m_payload.set_extension(&m_request);
}

MemoryRequestPayload::~MemoryRequestPayload() { m_payload.clear_extension(&m_request); }

tlm::tlm_generic_payload& MemoryRequestPayload::prepare(uint64_t addr, uint32_t bytes, MemoryRequest::Kind kind, uint32_t ops) {
    if (bytes > kMaxBytes) throw std::logic_error("a timing memory request larger than MemoryRequestPayload::kMaxBytes");
    m_payload.set_address(addr);
    m_payload.set_data_length(bytes);
    m_payload.set_streaming_width(bytes);
    m_payload.set_dmi_allowed(false);
    m_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    m_request.kind = kind;
    m_request.ops = ops;
    return m_payload;
}

MemoryRequest request_of(const tlm::tlm_generic_payload& p) {
    if (const MemoryRequest* r = p.get_extension<MemoryRequest>()) return *r;
    MemoryRequest plain;
    plain.kind = p.get_command() == tlm::TLM_WRITE_COMMAND ? MemoryRequest::Kind::Write : MemoryRequest::Kind::Read;
    return plain;
}

} // namespace gpusim
