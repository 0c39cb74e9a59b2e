// Checks a waveform (gpusim run --vcd, GPUSIM_VCD) against the statistics file of the same run
// (--stats, GPUSIM_STATS):
//   - each SM's issue signal integrates to its warp instructions, its active warps to its
//     resident warp-cycles, and its blocks rise at most once per block it ran;
//   - the compute engine's grid signal is high once per launch, from its start for its cycles;
//   - the copy engines' busy signals rise at most once per copy;
//   - the DRAM busy-channel count equals the busy bits of the channels at every time, is busy iff
//     bytes moved, and every queue and count returns to 0 by the end.
// With --only, the file must hold exactly the signals named (relative to the GPU, comma-separated)
// and only those are checked. Exit 0 when all agree; each disagreement is one line on stderr.
//   vcd_check WAVE.vcd STATS.json [--only NAME,NAME...]
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/vcd_reader.h"

using json = nlohmann::json;

namespace {

int problems = 0;

void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "vcd_check: %s\n", what.c_str());
    ++problems;
}

// One signal: its changes in time order (time in ps, value).
struct Wave {
    std::vector<std::pair<uint64_t, uint64_t>> changes;
    // The integral of the value over [0, end), in ps times value.
    double integral(uint64_t end) const {
        double sum = 0;
        for (size_t k = 0; k < changes.size(); ++k) {
            const uint64_t until = k + 1 < changes.size() ? changes[k + 1].first : end;
            sum += double(changes[k].second) * double(until - changes[k].first);
        }
        return sum;
    }
    // How much the value went up in all, over its changes.
    uint64_t rises() const {
        uint64_t r = 0, prev = 0;
        for (const auto& [t, v] : changes) r += v > prev ? v - prev : 0, prev = v;
        return r;
    }
    uint64_t last() const { return changes.empty() ? 0 : changes.back().second; }
    uint64_t peak() const {
        uint64_t p = 0;
        for (const auto& c : changes) p = std::max(p, c.second);
        return p;
    }
    uint64_t at(uint64_t t) const {
        uint64_t v = 0;
        for (const auto& [when, value] : changes) {
            if (when > t) break;
            v = value;
        }
        return v;
    }
};

struct Vcd {
    std::map<std::string, Wave> waves;   // by name relative to the GPU ("sm_0.issued")
    uint64_t end = 0;                     // the last time stamp
    std::string timescale;
};

// The GPU's signals lie under its platform's scope and its own ("top.gpu.sm_0.issued").
Vcd load_vcd(const char* path) {
    const gpusim::test::VcdFile file = gpusim::test::read_vcd(path);
    Vcd vcd;
    vcd.end = file.end;
    vcd.timescale = file.timescale;
    for (const auto& [name, changes] : file.changes) {
        const size_t platform = name.find('.'), gpu = name.find('.', platform + 1);
        vcd.waves[name.substr(gpu + 1)].changes = changes;
    }
    return vcd;
}

double stat(const json& unit, const char* key) { return unit.contains(key) ? unit[key]["value"].get<double>() : 0.0; }

bool close(double a, double b, double abs) { return std::fabs(a - b) <= abs; }

} // namespace

int main(int argc, char** argv) {
    if (argc != 3 && !(argc == 5 && std::string(argv[3]) == "--only")) {
        std::fprintf(stderr, "usage: vcd_check WAVE.vcd STATS.json [--only NAME,NAME...]\n");
        return 2;
    }
    const Vcd vcd = load_vcd(argv[1]);
    json stats;
    {
        std::ifstream in(argv[2]);
        stats = json::parse(in);
    }
    const json& gpu = stats["gpu"];
    const json& kernels = stats["kernels"];
    expect(vcd.timescale == "1 ps", "timescale is " + vcd.timescale + ", not 1 ps");
    // SystemC keeps the cycle rounded to its 1 ps resolution.
    const double cycle_ps = std::round(1e6 / stats["config"]["chip"]["core_clock_mhz"].get<double>());
    auto has = [&](const std::string& n) { return vcd.waves.count(n) != 0; };
    if (argc == 5) {
        std::set<std::string> want;
        std::stringstream list(argv[4]);
        for (std::string n; std::getline(list, n, ',');) want.insert(n);
        for (const auto& [name, w] : vcd.waves) expect(want.count(name), "the file holds " + name + ", which was not asked for");
        for (const std::string& n : want) expect(has(n), "the file lacks " + n);
    }

    // A launch may begin between two cycles: the SM's first changes, dated by its cycle, are then
    // written when SystemC time gets there, less than a cycle late. Integrals may miss up to one
    // cycle of the signal's peak per launch.
    const double late_cycles = double(kernels.size());
    size_t checked = 0;
    // A signal's integral over the run, in cycles, against a statistic.
    auto integrates = [&](const std::string& name, double want, const char* unit) {
        if (!has(name)) return;
        const Wave& w = vcd.waves.at(name);
        const double got = w.integral(vcd.end) / cycle_ps;
        expect(close(got, want, late_cycles * double(w.peak()) + 1e-6),
               name + " integrates to " + std::to_string(got) + " " + unit + ", not " + std::to_string(want));
        ++checked;
    };
    uint64_t blocks = 0, blocks_expected = 0;
    bool any_block_signal = false;
    for (auto it = gpu.begin(); it != gpu.end(); ++it) {
        if (it.key().rfind("sm_", 0) != 0) continue;
        const std::string sm = it.key();
        double insts = 0;
        for (const auto& c : (*it)["issue"]) insts += c["value"].get<double>();
        integrates(sm + ".issued", insts, "warp instructions");
        integrates(sm + ".active_warps", stat((*it)["warps"], "resident_warp_cycles"), "warp-cycles");
        if (has(sm + ".blocks")) {
            blocks += vcd.waves.at(sm + ".blocks").rises();
            any_block_signal = true;
            ++checked;
        }
        for (const char* s : {".blocks", ".active_warps", ".issued", ".l1.queue"})
            if (has(sm + s)) expect(vcd.waves.at(sm + s).last() == 0, sm + s + " does not end at 0");
    }
    for (const json& k : kernels) blocks_expected += k["grid"][0].get<uint64_t>() * k["grid"][1].get<uint64_t>() * k["grid"][2].get<uint64_t>();
    // Totals over all SMs and engines only when the file holds them all.
    const bool whole = argc == 3;
    // A block that ends as the next one arrives leaves the count as it was: at most one rise per block.
    if (whole && any_block_signal)
        expect(blocks <= blocks_expected && (blocks > 0) == (blocks_expected > 0),
               "the SMs' block signals rise " + std::to_string(blocks) + " times, for " + std::to_string(blocks_expected) + " blocks");

    if (has("compute_engine.grid")) {
        // Each launch's grid id once, from its start for its cycles (a launch that follows another
        // at once changes the id without passing 0).
        const Wave& g = vcd.waves.at("compute_engine.grid");
        std::vector<std::pair<uint64_t, uint64_t>> highs;   // (start, end) in ps
        for (size_t k = 0; k < g.changes.size(); ++k)
            if (g.changes[k].second != 0)
                highs.push_back({g.changes[k].first, k + 1 < g.changes.size() ? g.changes[k + 1].first : vcd.end});
        expect(highs.size() == kernels.size(), "the grid signal is high " + std::to_string(highs.size()) + " times, for " +
                                                  std::to_string(kernels.size()) + " launches");
        for (size_t k = 0; k < std::min(highs.size(), kernels.size()); ++k) {
            const double start_ps = kernels[k]["start_ns"].get<double>() * 1000;
            const double cycles = double(highs[k].second - highs[k].first) / cycle_ps;
            expect(close(double(highs[k].first), start_ps, cycle_ps), "launch " + std::to_string(k) + " rises at " +
                                                                          std::to_string(highs[k].first) + " ps, not " +
                                                                          std::to_string(start_ps));
            expect(close(cycles, kernels[k]["cycles"].get<double>(), 1.0), "launch " + std::to_string(k) + " is high for " +
                                                                               std::to_string(cycles) + " cycles, not " +
                                                                               kernels[k]["cycles"].dump());
        }
        ++checked;
    }

    uint64_t copies = 0;
    bool any_copy_signal = false;
    for (const auto& [name, w] : vcd.waves)
        if (name.rfind("copy_engine_", 0) == 0) copies += w.rises(), any_copy_signal = true, ++checked;
    // Copies that follow each other on an engine keep it busy: at most one rise per copy.
    const double copies_done = gpu["command_processor"]["copies"].get<double>();
    if (whole && any_copy_signal)
        expect(double(copies) <= copies_done && (copies > 0) == (copies_done > 0),
               "the copy engines' busy signals rise " + std::to_string(copies) + " times, for " +
                   gpu["command_processor"]["copies"].dump() + " copies");

    if (has("dram_ctrl.busy_channels")) {
        const Wave& total = vcd.waves.at("dram_ctrl.busy_channels");
        std::vector<const Wave*> channels;
        for (int c = 0; has("dram_ctrl.channel_" + std::to_string(c) + ".busy"); ++c)
            channels.push_back(&vcd.waves.at("dram_ctrl.channel_" + std::to_string(c) + ".busy"));
        if (!channels.empty()) {
            std::set<uint64_t> times;
            for (const Wave* w : channels)
                for (const auto& [t, v] : w->changes) times.insert(t);
            for (const auto& [t, v] : total.changes) times.insert(t);
            size_t disagree = 0;
            for (uint64_t t : times) {
                uint64_t sum = 0;
                for (const Wave* w : channels) sum += w->at(t);
                disagree += sum != total.at(t);
            }
            expect(disagree == 0, std::to_string(disagree) + " times at which busy_channels is not the number of busy channels");
        }
        const bool moved = stat(gpu["dram_ctrl"], "read_bytes") + stat(gpu["dram_ctrl"], "write_bytes") > 0;
        expect(moved == (total.integral(vcd.end) > 0), "DRAM busy time and bytes moved disagree");
        expect(total.last() == 0, "dram_ctrl.busy_channels does not end at 0");
        ++checked;
    }
    if (has("l2.queue")) {
        const Wave& q = vcd.waves.at("l2.queue");
        const bool requests = stat(gpu["l2"], "reads") + stat(gpu["l2"], "writes") + stat(gpu["l2"], "atomics") > 0;
        expect(requests == (q.integral(vcd.end) > 0), "the L2 queue and the L2's requests disagree");
        expect(q.last() == 0, "l2.queue does not end at 0");
        ++checked;
    }
    if (problems == 0)
        std::printf("vcd_check: %zu signals checked over %.0f cycles: the waveform agrees with the statistics\n", checked,
                    double(vcd.end) / cycle_ps);
    return problems ? 1 : 0;
}
