// Kernel sampling (sim.sampling=on): a timing-mode run in which only some launches are simulated
// in detail. Launches fall into groups by kernel, block shape, dynamic shared memory, load (the
// blocks the busiest SM runs, ceil(grid / SMs), exactly up to sim.sampling_exact_loads times the
// blocks an SM holds at once, and one load for all grids beyond) and
// functional instruction profile (warp and thread instructions per block, within
// sim.sampling_tolerance of the group's first launch). The first sim.sampling_detailed launches
// of each group run in timing mode; the others run in functional mode, and their cycles are
// projected from the group's detailed launches: cycles per warp instruction of the busiest SM
// (a block's instructions times the blocks it gets, ceil(grid / SMs)), times the launch's own.
// So launches of one kernel over grids of different sizes share groups: a wave of blocks costs
// about the same whichever grid it belongs to.
//
// A launch's profile is known only once it has run (its instructions are counted as it runs), so
// the choice before it is made on a prediction: the group the last launch of the same kernel,
// block and load fell into. A launch whose profile then puts it in another group is projected
// from the nearest group of the same key, marked as such, and makes the next launch of that group
// detailed. Every choice depends on counts only, never on host time: a run samples the same
// launches on any number of host threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/kernel_profile.h"
#include "isa/launch.h"

namespace gpusim {

class KernelSampler {
public:
    // `detailed`: launches of each group run in timing mode (at least 1); `tolerance`: the
    // relative difference of instruction counts within which two launches share a group;
    // `exact_loads`: full loads of an SM up to which each load of the busiest SM is a key of its own.
    KernelSampler(uint32_t detailed, double tolerance, uint32_t exact_loads);

    // Whether the launch runs in timing mode; `occupancy`: the blocks an SM can hold at once.
    bool detailed(const LaunchInfo& l, uint32_t occupancy) const;

    // What a launch did, once it has run.
    struct Outcome {
        uint64_t warp_instructions = 0, thread_instructions = 0;
        uint64_t cycles = 0;                     // a detailed launch's own
        std::optional<KernelProfile> profile;    // a detailed launch's, where profiling is on
    };
    // A detailed launch joins its group.
    void add_detailed(const LaunchInfo& l, uint32_t occupancy, const Outcome& o);
    // A projected launch: its cycles and, where its group's detailed launches kept profiles, its
    // profile (theirs, scaled to its warp instructions).
    struct Projection {
        uint64_t cycles = 0;
        std::optional<KernelProfile> profile;
        bool from_other_group = false;   // its own group had no detailed launch yet
    };
    Projection add_projected(const LaunchInfo& l, uint32_t occupancy, const Outcome& o);

    // The groups, the detailed share and the 95 % confidence interval of the total cycles.
    nlohmann::json report() const;

private:
    // A kernel, its block shape and its load on the busiest SM.
    struct Shape {
        std::shared_ptr<const KernelImage> kernel;
        Dim3 block;
        uint32_t dynamic_shared = 0;
        uint64_t load = 0;
        Shape(const LaunchInfo& l, uint32_t occupancy, uint32_t exact_loads);
        bool operator==(const Shape& o) const;
    };
    struct Group {
        explicit Group(const Shape& s) : shape(s) {}
        Shape shape;
        uint32_t dynamic_shared = 0;
        double warp_reference = 0, thread_reference = 0;   // the first launch's, per block
        // Detailed launches: cycles per warp instruction of the busiest SM, and their counts.
        std::vector<double> cpi;
        uint64_t detailed_cycles = 0, detailed_warp = 0;
        std::optional<KernelProfile> profile;   // the summed profiles of the launches mean_cpi() uses
        uint64_t profile_warp = 0;              // and their warp instructions
        // Projected launches.
        uint64_t projected = 0, projected_cycles = 0, projected_warp = 0;
        // The busiest SM's warp instructions of the launches projected at this group's cycles per
        // instruction (its own and those it lent to), summed and squared, for the interval.
        double projected_busiest = 0, projected_busiest_squares = 0;
        uint64_t borrowed = 0;                  // projected from another group of the shape

        bool holds(double warp, double thread, double tolerance) const;
        double mean_cpi() const;
    };
    uint32_t m_detailed;
    double m_tolerance;
    uint32_t m_exact_loads;
    std::vector<Group> m_groups;
    // For each kernel and shape: the group its last launch fell into.
    struct Last {
        Shape shape;
        size_t group;
    };
    std::vector<Last> m_last;

    const Last* last_of(const Shape& s) const;
    size_t group_of(const Shape& s, const LaunchInfo& l, const Outcome& o);   // found or made
    void remember(const Shape& s, size_t group);
};

} // namespace gpusim
