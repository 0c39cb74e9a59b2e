// The GPU's instruction memory. The driver's loader (sw/loader) decodes PTX into KernelImages the
// way NVIDIA's driver JIT-compiles PTX to machine code, and places them here; launches name a
// kernel by the handle this store returns, through the front-end registers.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "isa/isa.h"

namespace gpusim {

class ProgramStore {
public:
    uint32_t add(std::shared_ptr<const KernelImage> k) {
        m_kernels.push_back(std::move(k));
        return uint32_t(m_kernels.size());  // handles start at 1; 0 is never valid
    }
    std::shared_ptr<const KernelImage> get(uint32_t handle) const {
        return handle >= 1 && handle <= m_kernels.size() ? m_kernels[handle - 1] : nullptr;
    }

private:
    std::vector<std::shared_ptr<const KernelImage>> m_kernels;
};

} // namespace gpusim
