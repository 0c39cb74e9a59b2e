// Runs the first kernel of a PTX text on one SmCore without a simulation, for unit tests: one
// u64 parameter pointing at a TestMemory, `grid` blocks of `block` threads.
#pragma once

#include <cstring>
#include <memory>
#include <string>

#include "common/memory_system.h"
#include "common/ptx_text.h"
#include "common/test_memory.h"
#include "loader/loader.h"
#include "ptx/parser.h"
#include "sm/sm_core.h"

namespace gpusim::test {

// `body` follows the standard header; `stats`, when given, receives the SM's counters. In timing
// mode the SM's requests go to an L2 and device memory of `chip`.
inline TestMemory run_kernel(const std::string& body, uint32_t block, uint32_t grid = 1, SmStats* stats = nullptr,
                             const SmConfig& cfg = SmConfig{}, const ChipMemory& chip = ChipMemory{}) {
    ptx::Module m = ptx::parse("k.ptx", std::string(kPtxHeader) + body);
    const ptx::Function* entry = nullptr;
    for (const auto& f : m.functions)
        if (f.is_entry && !entry) entry = &f;
    LaunchInfo l;
    l.kernel = loader::decode_kernel(m, *entry, {});
    l.block = {block, 1, 1};
    l.grid = {grid, 1, 1};
    uint64_t out = TestMemory::kBase;
    l.params.resize(8);
    std::memcpy(l.params.data(), &out, 8);
    TestMemory mem;
    MemoryView view(&mem);
    std::unique_ptr<MemorySystem> memory;   // timing-mode units get unique top-level names
    if (cfg.timing.enabled) memory = std::make_unique<MemorySystem>(chip);
    SmCore core(cfg, 0, view, memory ? &memory->l2.in : nullptr);
    core.begin_launch(&l);
    for (uint32_t c = 0; c < grid;) {
        while (c < grid && core.can_accept_cta()) core.add_cta(c++);
        while (!core.idle()) core.timing() ? core.step_until(core.cycles() + 1000) : core.step(1000);
    }
    if (stats) *stats = core.stats();
    return mem;
}

} // namespace gpusim::test
