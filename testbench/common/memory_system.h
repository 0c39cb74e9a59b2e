// The chip's memory side for an SM or an LD/ST unit on its own: an L2 (with its atomic unit) in
// front of a device memory controller, as the GPU builds them (rtl_models/gpu/gpu.cpp), for
// testbenches that run an SM core in timing mode without a chip around it.
#pragma once

#include "dram/dram_controller.h"
#include "isa/unit_module.h"
#include "l2/l2_cache.h"

namespace gpusim::test {

struct ChipMemory {
    L2Config l2;        // bytes 0: no L2 (requests pass on to device memory)
    DramConfig dram;
};

struct MemorySystem {
    explicit MemorySystem(const ChipMemory& c) : dram(unit_name("dram_ctrl"), c.dram), l2(unit_name("l2"), c.l2) {
        l2.out.bind(dram.socket);
    }
    DramController dram;
    L2Cache l2;
};

} // namespace gpusim::test
