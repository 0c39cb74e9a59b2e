// Marks a payload as a copy engine's transfer. Host memory keeps some windows for the copy engines
// alone (a pageable buffer that a synchronous copy reads or writes in place, see HostMemory): a
// kernel's access there still faults, as it does on the chip.
#pragma once

#include <tlm>

namespace gpusim {

struct CopyEngineAccess : tlm::tlm_extension<CopyEngineAccess> {
    tlm::tlm_extension_base* clone() const override { return new CopyEngineAccess(*this); }
    void copy_from(const tlm::tlm_extension_base&) override {}
};

} // namespace gpusim
