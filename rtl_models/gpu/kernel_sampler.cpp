#include "gpu/kernel_sampler.h"

#include <algorithm>
#include <cmath>

namespace gpusim {

namespace {

bool within(double value, double reference, double tolerance) {
    return std::fabs(value - reference) <= tolerance * std::max(reference, 1.0);
}

// Student's t for a two-sided 95 % interval with `df` degrees of freedom (beyond the table, its
// last row: a little wider than the exact value).
double t95(size_t df) {
    static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                        2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                        2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    constexpr size_t kRows = sizeof(kTable) / sizeof(kTable[0]);
    return df == 0 ? 0 : kTable[std::min(df, kRows) - 1];
}

uint64_t blocks_of(const LaunchInfo& l) { return std::max<uint64_t>(l.grid.count(), 1); }

// The blocks the busiest SM runs over the launch.
uint64_t busiest_blocks(const LaunchInfo& l) {
    const uint64_t sms = std::max<uint32_t>(l.num_sms, 1);
    return (blocks_of(l) + sms - 1) / sms;
}

// The warp instructions of the busiest SM: a block's, times the blocks it runs.
double busiest_warp(const LaunchInfo& l, uint64_t warp_instructions) {
    return double(warp_instructions) / double(blocks_of(l)) * double(busiest_blocks(l));
}

} // namespace

// The busiest SM's blocks as they are up to `exact` full loads of the SM (where the last, partial
// wave weighs on the cycles), and one load for every grid beyond (whose cycles grow with its
// blocks: the projection scales by them).
static uint64_t load_of(const LaunchInfo& l, uint32_t occupancy, uint32_t exact) {
    const uint64_t blocks = busiest_blocks(l), limit = uint64_t(exact) * std::max(occupancy, 1u);
    return std::min(blocks, limit + 1);
}

KernelSampler::Shape::Shape(const LaunchInfo& l, uint32_t occupancy, uint32_t exact)
    : kernel(l.kernel), block(l.block), dynamic_shared(l.dynamic_shared), load(load_of(l, occupancy, exact)) {}

bool KernelSampler::Shape::operator==(const Shape& o) const {
    return kernel == o.kernel && block.x == o.block.x && block.y == o.block.y && block.z == o.block.z &&
           dynamic_shared == o.dynamic_shared && load == o.load;
}

bool KernelSampler::Group::holds(double warp, double thread, double tolerance) const {
    return within(warp, warp_reference, tolerance) && within(thread, thread_reference, tolerance);
}

// The first launch of a kernel often pays for caches the later ones find warm: where a group has
// more than one detailed launch, its projection leaves the first out.
double KernelSampler::Group::mean_cpi() const {
    if (cpi.empty()) return 0;
    const size_t first = cpi.size() > 1 ? 1 : 0;
    double sum = 0;
    for (size_t k = first; k < cpi.size(); ++k) sum += cpi[k];
    return sum / double(cpi.size() - first);
}

KernelSampler::KernelSampler(uint32_t detailed, double tolerance, uint32_t exact_loads)
    : m_detailed(std::max(detailed, 1u)), m_tolerance(tolerance), m_exact_loads(exact_loads) {}

const KernelSampler::Last* KernelSampler::last_of(const Shape& s) const {
    for (const Last& last : m_last)
        if (last.shape == s) return &last;
    return nullptr;
}

void KernelSampler::remember(const Shape& s, size_t group) {
    for (Last& last : m_last)
        if (last.shape == s) {
            last.group = group;
            return;
        }
    m_last.push_back(Last{s, group});
}

bool KernelSampler::detailed(const LaunchInfo& l, uint32_t occupancy) const {
    const Last* last = last_of(Shape(l, occupancy, m_exact_loads));
    return !last || m_groups[last->group].cpi.size() < m_detailed;
}

size_t KernelSampler::group_of(const Shape& s, const LaunchInfo& l, const Outcome& o) {
    const double warp = double(o.warp_instructions) / double(blocks_of(l));
    const double thread = double(o.thread_instructions) / double(blocks_of(l));
    for (size_t g = 0; g < m_groups.size(); ++g)
        if (m_groups[g].shape == s && m_groups[g].holds(warp, thread, m_tolerance)) return g;
    Group g(s);
    g.warp_reference = warp;
    g.thread_reference = thread;
    m_groups.push_back(std::move(g));
    return m_groups.size() - 1;
}

void KernelSampler::add_detailed(const LaunchInfo& l, uint32_t occupancy, const Outcome& o) {
    const Shape s(l, occupancy, m_exact_loads);
    const size_t g = group_of(s, l, o);
    Group& group = m_groups[g];
    group.cpi.push_back(double(o.cycles) / std::max(busiest_warp(l, o.warp_instructions), 1.0));
    group.detailed_cycles += o.cycles;
    group.detailed_warp += o.warp_instructions;
    // The profile projected launches take covers the launches mean_cpi() uses: the second
    // detailed launch replaces the first's.
    if (o.profile) {
        if (group.profile && group.cpi.size() > 2) {
            group.profile->add(*o.profile);
            group.profile_warp += o.warp_instructions;
        } else {
            group.profile = o.profile;
            group.profile_warp = o.warp_instructions;
        }
    }
    remember(s, g);
}

KernelSampler::Projection KernelSampler::add_projected(const LaunchInfo& l, uint32_t occupancy, const Outcome& o) {
    const Shape s(l, occupancy, m_exact_loads);
    const size_t g = group_of(s, l, o);
    // A group without a detailed launch borrows from the group of its key nearest in instructions
    // per block that has one (the key's first launch was detailed, so one exists).
    size_t from = g;
    if (m_groups[g].cpi.empty()) {
        double best = HUGE_VAL;
        const double warp = std::max(double(o.warp_instructions) / double(blocks_of(l)), 1.0);
        for (size_t k = 0; k < m_groups.size(); ++k) {
            const Group& c = m_groups[k];
            if (c.cpi.empty() || !(c.shape == s)) continue;
            const double d = std::fabs(std::log(std::max(c.warp_reference, 1.0) / warp));
            if (d < best) best = d, from = k;
        }
    }
    const Group& source = m_groups[from];
    Projection p;
    p.from_other_group = from != g;
    p.cycles = uint64_t(std::llround(source.mean_cpi() * busiest_warp(l, o.warp_instructions)));
    if (source.profile) {
        KernelProfile scaled = *source.profile;
        scaled.scale(double(o.warp_instructions) / double(std::max<uint64_t>(source.profile_warp, 1)));
        p.profile = std::move(scaled);
    }
    // The interval's terms go to the group whose cycles per instruction the projection used.
    const double busiest = busiest_warp(l, o.warp_instructions);
    m_groups[from].projected_busiest += busiest;
    m_groups[from].projected_busiest_squares += busiest * busiest;
    Group& group = m_groups[g];
    ++group.projected;
    group.projected_cycles += p.cycles;
    group.projected_warp += o.warp_instructions;
    if (p.from_other_group) ++group.borrowed;
    remember(s, g);
    return p;
}

nlohmann::json KernelSampler::report() const {
    nlohmann::json groups = nlohmann::json::array();
    uint64_t detailed_launches = 0, projected_launches = 0, detailed_warp = 0, projected_warp = 0, cycles = 0;
    double variance = 0;
    bool bounded = true;
    for (const Group& g : m_groups) {
        const double mean = g.mean_cpi();
        const size_t n = g.cpi.size() > 1 ? g.cpi.size() - 1 : g.cpi.size();   // the launches mean_cpi uses
        double s2 = 0;
        for (size_t k = g.cpi.size() - n; k < g.cpi.size(); ++k) s2 += (g.cpi[k] - mean) * (g.cpi[k] - mean);
        const Dim3& b = g.shape.block;
        nlohmann::json j = {{"kernel", g.shape.kernel->name},
                            {"block", {b.x, b.y, b.z}},
                            {"dynamic_shared", g.shape.dynamic_shared},
                            {"load_blocks", g.shape.load},
                            {"warp_instructions_per_block", g.warp_reference},
                            {"detailed_launches", g.cpi.size()},
                            {"projected_launches", g.projected},
                            {"borrowed_launches", g.borrowed},
                            {"cycles_per_busiest_warp_instruction", mean},
                            {"detailed_cycles", g.detailed_cycles},
                            {"projected_cycles", g.projected_cycles}};
        if (g.projected_busiest > 0 && n >= 2) {
            // The projection's error: the mean's (over the group's projected instructions) and each
            // launch's own spread around it.
            const double var_cpi = s2 / double(n - 1);
            const double t = t95(n - 1);
            variance += t * t * var_cpi * (g.projected_busiest * g.projected_busiest / double(n) + g.projected_busiest_squares);
            j["cpi_standard_deviation"] = std::sqrt(var_cpi);
        } else if (g.projected_busiest > 0) {
            bounded = false;   // one warm detailed launch (or none) tells nothing of the spread
        }
        groups.push_back(std::move(j));
        detailed_launches += g.cpi.size();
        projected_launches += g.projected;
        detailed_warp += g.detailed_warp;
        projected_warp += g.projected_warp;
        cycles += g.detailed_cycles + g.projected_cycles;
    }
    const double half = std::sqrt(variance);
    nlohmann::json r = {{"groups", groups},
                        {"detailed_launches", detailed_launches},
                        {"projected_launches", projected_launches},
                        {"detailed_share", double(detailed_warp) / double(std::max<uint64_t>(detailed_warp + projected_warp, 1))},
                        {"cycles", cycles}};
    // A group with projected launches and a single detailed one leaves the interval open.
    r["cycles_95"] = bounded ? nlohmann::json{std::max(0.0, double(cycles) - half), double(cycles) + half} : nlohmann::json();
    return r;
}

} // namespace gpusim
