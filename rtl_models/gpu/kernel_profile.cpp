#include "gpu/kernel_profile.h"

#include <algorithm>

namespace gpusim {

namespace {

using json = nlohmann::json;
using Stall = WarpScheduler::Stall;

// A stat's value ({"value": v, ...} or a bare number), 0 where the unit does not report it.
double value(const json& unit, const char* key) {
    auto it = unit.find(key);
    if (it == unit.end()) return 0;
    if (it->is_object()) {
        auto v = it->find("value");
        return v != it->end() && v->is_number() ? v->get<double>() : 0;
    }
    return it->is_number() ? it->get<double>() : 0;
}

const json& child(const json& j, const std::string& key) {
    static const json none = json::object();
    auto it = j.find(key);
    return it != j.end() && it->is_object() ? *it : none;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// n / d, or null where there is nothing to divide (no lookups, no accesses).
json ratio(double n, double d) { return d > 0 ? json(n / d) : json(nullptr); }

json cache(double hits, double misses) {
    return {{"hits", hits}, {"misses", misses}, {"hit_rate", ratio(hits, hits + misses)}};
}

} // namespace

KernelProfile KernelProfile::counters_of(const json& report) {
    KernelProfile p;
    for (auto it = report.begin(); it != report.end(); ++it) {
        if (!starts_with(it.key(), "sm_") || !it->is_object()) continue;
        const json& sm = *it;
        p.sms += 1;
        p.sm_cycles += value(child(sm, "clock"), "cycles");
        const json& warps = child(sm, "warps");
        p.resident_warp_cycles += value(warps, "resident_warp_cycles");
        p.max_warps = value(warps, "max_warps");
        p.launch_warps = value(warps, "launch_warps");
        for (auto u = sm.begin(); u != sm.end(); ++u) {
            if (!starts_with(u.key(), "sched")) continue;
            p.timing = true;
            p.sm_slots_per_cycle += value(*u, "dispatch_width");
            p.issued += value(*u, "issued");
            for (int k = 0; k < kStalls; ++k)
                if (Stall(k) != Stall::Dependency) p.stalls[k] += value(*u, WarpScheduler::stall_name(Stall(k)));
        }
        for (int k = 0; k < kPipeKinds; ++k) {
            const json& pipe = child(sm, pipe_name(PipeKind(k)));
            p.pipe_busy[k] += value(pipe, "busy_cycles");
            p.pipe_copies[k] += value(pipe, "copies");
        }
        const json& smem = child(sm, "smem");
        p.smem_passes += value(smem, "passes");
        p.smem_conflict_passes += value(smem, "bank_conflicts");
        const json& l1 = child(sm, "l1");
        p.transactions += value(l1, "transactions");
        p.ideal_transactions += value(l1, "ideal_transactions");
        p.l1_hits += value(l1, "l1_hits");
        p.l1_misses += value(l1, "l1_misses");
        p.const_hits += value(child(sm, "ccache"), "hits");
        p.const_misses += value(child(sm, "ccache"), "misses");
        p.tex_hits += value(child(sm, "tex"), "hits");
        p.tex_misses += value(child(sm, "tex"), "misses");
    }
    p.l2_hits = value(child(report, "l2"), "hits");
    p.l2_misses = value(child(report, "l2"), "misses");
    const json& dram = child(report, "dram_ctrl");
    p.dram_bytes = value(dram, "read_bytes") + value(dram, "write_bytes");
    return p;
}

namespace {
// Every counter of a profile (not its properties), for one loop to add or subtract them.
template <class A, class B, class F> void each_counter(A& a, B& b, F f) {
    f(a.sm_cycles, b.sm_cycles);
    f(a.issued, b.issued);
    for (int k = 0; k < KernelProfile::kStalls; ++k) f(a.stalls[k], b.stalls[k]);
    f(a.resident_warp_cycles, b.resident_warp_cycles);
    for (int k = 0; k < kPipeKinds; ++k) f(a.pipe_busy[k], b.pipe_busy[k]);
    f(a.smem_passes, b.smem_passes);
    f(a.smem_conflict_passes, b.smem_conflict_passes);
    f(a.transactions, b.transactions);
    f(a.ideal_transactions, b.ideal_transactions);
    f(a.l1_hits, b.l1_hits);
    f(a.l1_misses, b.l1_misses);
    f(a.l2_hits, b.l2_hits);
    f(a.l2_misses, b.l2_misses);
    f(a.const_hits, b.const_hits);
    f(a.const_misses, b.const_misses);
    f(a.tex_hits, b.tex_hits);
    f(a.tex_misses, b.tex_misses);
    f(a.dram_bytes, b.dram_bytes);
}
} // namespace

KernelProfile KernelProfile::between(const KernelProfile& before, const KernelProfile& after) {
    KernelProfile p = after;
    each_counter(p, before, [](double& x, const double& y) { x -= y; });
    return p;
}

void KernelProfile::scale(double f) {
    KernelProfile& self = *this;
    each_counter(self, self, [f](double& x, const double&) { x *= f; });
}

void KernelProfile::count_idle_slots() {
    double accounted = issued;
    for (double s : stalls) accounted += s;
    if (timing && total_slots() > accounted) stalls[int(Stall::NoWarp)] += total_slots() - accounted;
}

void KernelProfile::add(const KernelProfile& o) {
    // The theoretical occupancy of launches with different block sizes: weighted by SM time.
    if (sm_cycles + o.sm_cycles > 0) launch_warps = (launch_warps * sm_cycles + o.launch_warps * o.sm_cycles) / (sm_cycles + o.sm_cycles);
    KernelProfile& self = *this;
    each_counter(self, o, [](double& x, const double& y) { x += y; });
    launches += o.launches;
    start_ns = std::min(start_ns, o.start_ns);
    end_ns = std::max(end_ns, o.end_ns);
    cycles += o.cycles;
    warp_instructions += o.warp_instructions;
    thread_instructions += o.thread_instructions;
    faulted |= o.faulted;
    projected |= o.projected;
    timing |= o.timing;
}

json KernelProfile::metrics() const {
    json m;
    m["kernel"] = kernel;
    m["launches"] = launches;
    m["grid"] = {grid.x, grid.y, grid.z};
    m["block"] = {block.x, block.y, block.z};
    m["start_ns"] = start_ns;
    m["end_ns"] = end_ns;
    m["faulted"] = faulted;
    if (projected) m["projected"] = true;
    m["cycles"] = cycles;
    m["warp_instructions"] = warp_instructions;
    m["thread_instructions"] = thread_instructions;
    m["ipc"] = ratio(double(warp_instructions), double(cycles));
    m["simt_efficiency"] = ratio(double(thread_instructions), double(warp_instructions) * 32);
    if (!timing) return m;
    m["ipc_per_active_sm"] = ratio(double(warp_instructions), sm_cycles);
    m["occupancy"] = {{"achieved", ratio(resident_warp_cycles, sm_cycles * max_warps)},
                      {"theoretical", ratio(launch_warps, max_warps)}};
    json& slots = m["issue_slots"];
    slots["total"] = total_slots();
    slots["issued"] = {{"slots", issued}, {"fraction", ratio(issued, total_slots())}};
    for (int k = 0; k < kStalls; ++k) {
        if (Stall(k) == Stall::Dependency) continue;
        const std::string name = std::string(WarpScheduler::stall_name(Stall(k))).substr(6);   // less "stall_"
        slots[name] = {{"slots", stalls[k]}, {"fraction", ratio(stalls[k], total_slots())}};
    }
    json& util = m["utilisation"];
    for (int k = 0; k < kPipeKinds; ++k) util[pipe_name(PipeKind(k))] = ratio(pipe_busy[k], double(cycles) * pipe_copies[k]);
    m["shared_memory"] = {{"passes", smem_passes},
                          {"conflict_passes", smem_conflict_passes},
                          {"bank_efficiency", ratio(smem_passes - smem_conflict_passes, smem_passes)}};
    m["global_memory"] = {{"transactions", transactions},
                          {"ideal_transactions", ideal_transactions},
                          {"coalescing_efficiency", ratio(ideal_transactions, transactions)}};
    m["caches"] = {{"l1", cache(l1_hits, l1_misses)},
                   {"l2", cache(l2_hits, l2_misses)},
                   {"constant", cache(const_hits, const_misses)},
                   {"texture", cache(tex_hits, tex_misses)}};
    const double seconds_ns = double(cycles) * cycle_ns;
    const json bandwidth = ratio(dram_bytes, seconds_ns);   // bytes per ns = GB/s
    m["dram"] = {{"bytes", dram_bytes},
                 {"bandwidth_gb_s", bandwidth},
                 {"peak_gb_s", dram_peak_gb_s},
                 {"fraction_of_peak", bandwidth.is_null() ? json(nullptr) : ratio(bandwidth.get<double>(), dram_peak_gb_s)}};
    return m;
}

} // namespace gpusim
