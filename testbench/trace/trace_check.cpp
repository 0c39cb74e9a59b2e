// Checks a timeline (gpusim run --trace, GPUSIM_TRACE) against the statistics file of the same run
// (--stats, GPUSIM_STATS): one span per launch with its cycles and instructions, one per block
// inside its launch, one per copy; and counters that integrate to the statistics' totals (warp
// instructions, resident warp-cycles, DRAM bytes). Exit 0 when all agree; each disagreement is
// one line on stderr.
//   trace_check TRACE.json STATS.json
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

int problems = 0;

void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "trace_check: %s\n", what.c_str());
    ++problems;
}

bool close(double a, double b, double rel = 1e-6, double abs = 1e-6) { return std::fabs(a - b) <= std::max(abs, rel * std::fabs(b)); }

json load(const char* path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string("cannot open ") + path);
    return json::parse(in);
}

double stat(const json& unit, const char* key) {
    return unit.contains(key) ? unit[key]["value"].get<double>() : 0.0;
}

// The integral over time of one counter on one track: sum of value x (next sample - this one),
// in cycles (the last sample of a series must be 0, closing it).
double integral(std::vector<std::pair<double, double>> samples, double cycle_us, const std::string& what) {
    std::sort(samples.begin(), samples.end());
    double sum = 0;
    for (size_t k = 0; k + 1 < samples.size(); ++k) sum += samples[k].second * (samples[k + 1].first - samples[k].first) / cycle_us;
    expect(samples.empty() || samples.back().second == 0, what + ": the series does not end at 0");
    return sum;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: trace_check TRACE.json STATS.json\n");
        return 2;
    }
    const json trace = load(argv[1]), stats = load(argv[2]);
    expect(trace.value("displayTimeUnit", "") == "ns", "displayTimeUnit is not ns");
    const double cycle_us = trace["otherData"]["cycle_ns"].get<double>() / 1000.0;
    const double interval = trace["otherData"]["interval_cycles"].get<double>();
    const json& events = trace["traceEvents"];
    const json& kernels = stats["kernels"];
    const json& gpu = stats["gpu"];

    std::vector<json> kernel_spans, block_spans, copy_spans;
    std::map<std::string, std::vector<std::pair<double, double>>> series;   // "pid/name" -> (ts, value)
    for (const json& e : events) {
        const std::string ph = e["ph"];
        if (ph == "X") {
            const std::string cat = e.value("cat", "");
            if (cat == "kernel") kernel_spans.push_back(e);
            if (cat == "block") block_spans.push_back(e);
            if (cat == "copy" && e["pid"] == 3) copy_spans.push_back(e);
            expect(e["dur"].get<double>() >= 0, "a span with a negative duration");
        } else if (ph == "C") {
            series[std::to_string(e["pid"].get<int>()) + "/" + e["name"].get<std::string>()].push_back(
                {e["ts"].get<double>(), e["args"]["value"].get<double>()});
        }
    }

    // Launches: in order, with the statistics' cycles, instructions and times.
    expect(kernel_spans.size() == kernels.size(),
           "launch spans: " + std::to_string(kernel_spans.size()) + ", statistics: " + std::to_string(kernels.size()));
    double blocks_expected = 0;
    for (size_t k = 0; k < std::min(kernel_spans.size(), kernels.size()); ++k) {
        const json& s = kernel_spans[k];
        const json& p = kernels[k];
        const std::string which = "launch " + std::to_string(k) + " (" + p["kernel"].get<std::string>() + ")";
        expect(s["name"] == p["kernel"], which + ": span named " + s["name"].get<std::string>());
        expect(s["args"]["cycles"] == p["cycles"], which + ": cycles differ");
        expect(s["args"]["warp_instructions"] == p["warp_instructions"], which + ": warp instructions differ");
        expect(close(s["ts"].get<double>(), p["start_ns"].get<double>() / 1000, 1e-9, 1e-3), which + ": start differs");
        expect(close(s["dur"].get<double>(), (p["end_ns"].get<double>() - p["start_ns"].get<double>()) / 1000, 1e-9, 1e-3),
               which + ": duration differs");
        blocks_expected += double(p["grid"][0].get<uint64_t>() * p["grid"][1].get<uint64_t>() * p["grid"][2].get<uint64_t>());
    }

    // Blocks: as many as the grids hold, each inside a launch of its kernel.
    expect(double(block_spans.size()) == blocks_expected,
           "block spans: " + std::to_string(block_spans.size()) + ", blocks launched: " + std::to_string(uint64_t(blocks_expected)));
    for (const json& b : block_spans) {
        bool inside = false;
        for (const json& s : kernel_spans) {
            const double start = s["ts"], end = start + s["dur"].get<double>();
            inside |= b["args"]["kernel"] == s["name"] && b["ts"].get<double>() >= start - 1e-3 &&
                      b["ts"].get<double>() + b["dur"].get<double>() <= end + 1e-3;
        }
        expect(inside, "block span " + b.dump() + " lies outside every launch of its kernel");
    }

    // Copies: one span per copy engine transfer.
    expect(double(copy_spans.size()) == gpu["command_processor"]["copies"].get<double>(), "copy spans differ from the copies done");

    // Counters: each SM's issue rate and resident warps integrate to its statistics.
    double insts = 0, insts_expected = 0, warp_cycles = 0, warp_cycles_expected = 0;
    const bool timing = !kernels.empty() && kernels[0].contains("issue_slots");
    for (auto it = gpu.begin(); it != gpu.end(); ++it) {
        if (it.key().rfind("sm_", 0) != 0) continue;
        const std::string pid = std::to_string(100 + std::stoi(it.key().substr(3)));
        insts += integral(series[pid + "/issue rate (IPC)"], cycle_us, it.key() + " issue rate");
        const double w = integral(series[pid + "/resident warps"], cycle_us, it.key() + " resident warps");
        if (timing) warp_cycles += w, warp_cycles_expected += stat((*it)["warps"], "resident_warp_cycles");
    }
    for (const json& p : kernels) insts_expected += p["warp_instructions"].get<double>();
    expect(close(insts, insts_expected, 1e-6, 0.5),
           "the issue-rate counters integrate to " + std::to_string(insts) + " warp instructions, not " + std::to_string(insts_expected));
    expect(close(warp_cycles, warp_cycles_expected, 1e-6, 0.5), "the resident-warp counters integrate to " +
                                                                     std::to_string(warp_cycles) + " warp-cycles, not " +
                                                                     std::to_string(warp_cycles_expected));

    // The chip: DRAM bandwidth integrates to the bytes moved; hit rates are rates.
    if (gpu.contains("dram_ctrl")) {
        double bytes = 0;
        for (const auto& [ts, gb_s] : series["5/DRAM bandwidth (GB/s)"]) bytes += gb_s * interval * cycle_us * 1000;
        const double expected = stat(gpu["dram_ctrl"], "read_bytes") + stat(gpu["dram_ctrl"], "write_bytes");
        expect(close(bytes, expected, 1e-6, 0.5), "the DRAM counter integrates to " + std::to_string(bytes) + " bytes, not " +
                                                      std::to_string(expected));
        const auto& hits = series["5/L2 hit rate"];
        expect(stat(gpu["l2"], "hits") + stat(gpu["l2"], "misses") == 0 || !hits.empty(), "no L2 hit-rate samples");
        for (const auto& [ts, rate] : hits) expect(rate >= 0 && rate <= 1, "an L2 hit rate outside [0, 1]");
    }
    if (problems == 0)
        std::printf("trace_check: %zu launches, %zu blocks, %zu copies, %.0f warp instructions: the timeline agrees with the statistics\n",
                    kernel_spans.size(), block_spans.size(), copy_spans.size(), insts);
    return problems ? 1 : 0;
}
