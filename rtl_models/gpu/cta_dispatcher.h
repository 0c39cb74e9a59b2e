// Hands out the CTAs of the running launch, in linear order, to SMs as they have room.
#pragma once

#include <cstdint>
#include <string>

#include "isa/exec_context.h"

namespace gpusim {

class CtaDispatcher {
public:
    void start(uint64_t total) { m_total = total; m_next = 0; m_aborted = false; m_fault.clear(); m_kind = FaultKind::Exec; }
    bool next(uint64_t& cta) {
        if (m_aborted || m_next >= m_total) return false;
        cta = m_next++;
        return true;
    }
    void abort(const std::string& why, FaultKind kind) {
        if (!m_aborted) { m_fault = why; m_kind = kind; }
        m_aborted = true;
    }
    // Blocks not handed out yet.
    uint64_t remaining() const { return m_aborted ? 0 : m_total - m_next; }
    bool aborted() const { return m_aborted; }
    const std::string& fault() const { return m_fault; }
    FaultKind fault_kind() const { return m_kind; }

private:
    uint64_t m_total = 0;
    uint64_t m_next = 0;
    bool m_aborted = false;
    std::string m_fault;
    FaultKind m_kind = FaultKind::Exec;
};

} // namespace gpusim
