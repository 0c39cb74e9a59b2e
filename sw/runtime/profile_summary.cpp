#include "runtime/profile_summary.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

namespace gpusim {

namespace {

using json = nlohmann::json;

std::string percent(const json& fraction) {
    return fraction.is_number() ? fmt::format("{:.1f}%", fraction.get<double>() * 100) : std::string("-");
}

double number(const json& j) { return j.is_number() ? j.get<double>() : 0.0; }

// The kernel as its source names it (a C++ kernel's mangled symbol demangled); a long parameter
// list is elided.
std::string readable(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
    std::string name = status == 0 && d ? std::string(d.get()) : symbol;
    const size_t open = name.find('(');
    if (name.size() > 60 && open != std::string::npos) name = name.substr(0, open) + "(...)";
    return name;
}

std::string dims(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

// The issue-slot reasons, largest first, as a bar chart.
std::string warp_state(const json& slots) {
    std::vector<std::pair<double, std::string>> rows;
    for (auto it = slots.begin(); it != slots.end(); ++it)
        if (it->is_object() && (*it)["slots"].get<double>() > 0) rows.push_back({(*it)["fraction"].get<double>(), it.key()});
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    for (const auto& [f, name] : rows) {
        const int bar = int(f * 40 + 0.5);
        std::string label = name;
        std::replace(label.begin(), label.end(), '_', ' ');
        out += fmt::format("    {:<20} {:>6.1f}%  {}\n", label, f * 100, std::string(size_t(bar), '#'));
    }
    return out;
}

} // namespace

std::vector<KernelProfile> profiles_by_kernel(const std::vector<KernelProfile>& launches) {
    std::vector<KernelProfile> out;
    for (const KernelProfile& p : launches) {
        auto it = std::find_if(out.begin(), out.end(), [&](const KernelProfile& k) { return k.kernel == p.kernel; });
        if (it == out.end()) out.push_back(p);
        else it->add(p);
    }
    return out;
}

std::string profile_summary(const KernelProfile& p) {
    const json m = p.metrics();
    std::string out = fmt::format("kernel '{}': {} launch{}, grid {} block {}, {} cycles, {} warp instructions{}\n", readable(p.kernel),
                                  p.launches, p.launches == 1 ? "" : "es", dims(p.grid), dims(p.block), p.cycles,
                                  p.warp_instructions, p.faulted ? " (faulted)" : "");
    out += fmt::format("  IPC {:.2f} per chip cycle, {:.2f} per active SM cycle; SIMT efficiency {}\n",
                       number(m["ipc"]), number(m.value("ipc_per_active_sm", json())), percent(m["simt_efficiency"]));
    if (!p.timing) return out;
    out += fmt::format("  occupancy {} achieved of {} theoretical\n", percent(m["occupancy"]["achieved"]),
                       percent(m["occupancy"]["theoretical"]));
    std::string util;
    for (auto it = m["utilisation"].begin(); it != m["utilisation"].end(); ++it)
        if (it->is_number() && it->get<double>() > 0) util += fmt::format(" {} {}", it.key(), percent(*it));
    out += fmt::format("  pipe utilisation:{}\n", util.empty() ? " none" : util);
    const json& c = m["caches"];
    out += fmt::format("  shared bank efficiency {}, coalescing efficiency {}; hit rates L1 {} L2 {} constant {} texture {}\n",
                       percent(m["shared_memory"]["bank_efficiency"]), percent(m["global_memory"]["coalescing_efficiency"]),
                       percent(c["l1"]["hit_rate"]), percent(c["l2"]["hit_rate"]), percent(c["constant"]["hit_rate"]),
                       percent(c["texture"]["hit_rate"]));
    const json& d = m["dram"];
    out += fmt::format("  DRAM {:.0f} bytes, {:.1f} GB/s = {} of the {:.1f} GB/s peak\n", number(d["bytes"]),
                       number(d["bandwidth_gb_s"]), percent(d["fraction_of_peak"]), number(d["peak_gb_s"]));
    out += fmt::format("  issue slots ({:.0f}), where they went:\n", p.total_slots());
    out += warp_state(m["issue_slots"]);
    return out;
}

std::string profile_summaries(const std::vector<KernelProfile>& launches, size_t limit) {
    std::vector<KernelProfile> kernels = profiles_by_kernel(launches);
    std::stable_sort(kernels.begin(), kernels.end(), [](const KernelProfile& a, const KernelProfile& b) { return a.cycles > b.cycles; });
    std::string out;
    for (size_t k = 0; k < kernels.size() && k < limit; ++k) out += profile_summary(kernels[k]);
    if (kernels.size() > limit) out += fmt::format("({} more kernels; the statistics file has them all)\n", kernels.size() - limit);
    return out;
}

} // namespace gpusim
