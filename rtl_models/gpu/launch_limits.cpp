#include "gpu/launch_limits.h"

#include <fmt/format.h>

#include "sm/sm_core.h"

namespace gpusim {

LaunchProblem check_launch_limits(const GpuConfig& cfg, const std::shared_ptr<const KernelImage>& kernel, Dim3 grid,
                                  Dim3 block, uint32_t dynamic_shared) {
    auto bad = [](std::string why) { return LaunchProblem{LaunchProblem::Kind::Configuration, std::move(why)}; };
    if (!grid.count() || !block.count()) return bad("grid and block dimensions must be at least 1");
    const Dims3& g = cfg.max_grid;
    const Dims3& b = cfg.max_block;
    if (grid.x > g[0] || grid.y > g[1] || grid.z > g[2])
        return bad(fmt::format("the grid exceeds {} x {} x {}", g[0], g[1], g[2]));
    if (block.count() > cfg.max_threads_per_block) return bad(fmt::format("more than {} threads per block", cfg.max_threads_per_block));
    if (block.x > b[0] || block.y > b[1] || block.z > b[2])
        return bad(fmt::format("the block exceeds {} x {} x {}", b[0], b[1], b[2]));
    const uint64_t shared = uint64_t(kernel->static_shared_bytes) + dynamic_shared;
    if (shared > cfg.max_shared_per_block)
        return bad(fmt::format("{} bytes of shared memory, the maximum is {}", shared, cfg.max_shared_per_block));
    LaunchInfo probe;
    probe.kernel = kernel;
    probe.block = block;
    probe.dynamic_shared = dynamic_shared;
    if (SmCore::occupancy_limit(cfg.sm, probe) == 0)
        return {LaunchProblem::Kind::Resources,
                fmt::format("a block of {} threads using {} registers per thread and {} bytes of shared memory does not fit on an SM",
                            block.count(), SmCore::registers_per_thread(cfg.sm, *kernel), probe.shared_per_cta())};
    return {};
}

} // namespace gpusim
