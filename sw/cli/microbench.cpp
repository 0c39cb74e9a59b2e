#include "tex/texture_header.h"
#include "cli/microbench.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runtime/runtime.h"

namespace gpusim {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr double kOpsPerThread = 256;   // every microbenchmark times 256 operations per thread

json read_suite(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open microbenchmark suite", path));
    try {
        return json::parse(in);
    } catch (const json::exception& e) {
        throw std::runtime_error(fmt::format("{}: error: invalid JSON: {}", path, e.what()));
    }
}

KernelArg make_arg(const json& a) {
    if (a.contains("u32")) return KernelArg::of<uint32_t>(a["u32"].get<uint32_t>(), "u32");
    if (a.contains("u64")) return KernelArg::of<uint64_t>(a["u64"].get<uint64_t>(), "u64");
    if (a.contains("f32")) return KernelArg::of<float>(a["f32"].get<float>(), "f32");
    if (a.contains("f64")) return KernelArg::of<double>(a["f64"].get<double>(), "f64");
    throw std::runtime_error("microbenchmark argument must be {\"u32\"|\"u64\"|\"f32\"|\"f64\": value}");
}

// Runs one kernel of the suite and returns the cycles thread 0 measured.
class Bench {
public:
    Bench(Runtime& rt, const ModuleHandle& mod) : m_rt(rt), m_mod(mod) { m_out = rt.malloc(1 << 19); }

    // Warps of the last run that shared block 0's SM.
    uint32_t warps_on_sm() const { return m_warps_on_sm; }

    // Blocks launched: `blocks_per_sm` ("max": the SM's CTA limit) on every SM, else one.
    uint32_t blocks_per_sm(const json& run) const {
        if (!run.contains("blocks_per_sm")) return 1;
        const json& b = run["blocks_per_sm"];
        return b.is_string() ? m_rt.config().sm.max_ctas : b.get<uint32_t>();
    }

    double cycles(const json& run) {
        const std::string name = run.at("kernel");
        auto k = m_mod.kernels.find(name);
        if (k == m_mod.kernels.end()) throw std::runtime_error(fmt::format("microbenchmark kernel '{}' is not in the module", name));
        std::vector<KernelArg> args{KernelArg::of<uint64_t>(m_out, "u64")};
        if (run.contains("chain_bytes")) args.push_back(KernelArg::of<uint64_t>(global_chain(run["chain_bytes"]), "u64"));
        if (run.contains("const_chain")) const_chain(run["const_chain"]);
        if (run.contains("tex_chain")) args.push_back(KernelArg::of<uint64_t>(texture_chain(run["tex_chain"]), "u64"));
        if (run.contains("arg")) args.push_back(make_arg(run["arg"]));
        uint32_t block = run.value("block", 1u);
        uint32_t grid = run.contains("blocks_per_sm") ? blocks_per_sm(run) * m_rt.config().num_sms : 1;
        int launches = run.value("warmup", false) ? 2 : 1;
        for (int n = 0; n < launches; ++n) m_rt.launch(k->second, {grid, 1, 1}, {block, 1, 1}, 0, args);
        // Every warp recorded (start, end, SM): the span of the warps on block 0's SM.
        uint32_t warps = (block + 31) / 32 * grid;
        std::vector<int64_t> t(4 * size_t(warps));
        m_rt.memcpy_to_host(t.data(), m_out, t.size() * sizeof(int64_t));
        int64_t first = t[0], last = t[1];
        m_warps_on_sm = 0;
        for (uint32_t w = 0; w < warps; ++w) {
            if (t[4 * w + 2] != t[2]) continue;
            first = std::min(first, t[4 * w]);
            last = std::max(last, t[4 * w + 1]);
            ++m_warps_on_sm;
        }
        return double(last - first);
    }

private:
    Runtime& m_rt;
    const ModuleHandle& m_mod;
    DevicePtr m_out;
    uint32_t m_warps_on_sm = 0;

    // 256 pointers, each `stride` bytes after the previous one (every load misses the caches).
    DevicePtr global_chain(uint64_t stride) {
        DevicePtr base = m_rt.malloc(stride * 257);
        for (uint64_t k = 0; k < 257; ++k) {
            uint64_t next = base + (k + 1) * stride;
            m_rt.memcpy_to_device(base + k * stride, &next, sizeof next);
        }
        return base;
    }
    // A linear texture of 32-bit ints (element-type reads) whose element k*stride holds the index
    // of element ((k+1) % count)*stride; returns the texture's handle.
    DevicePtr texture_chain(const json& c) {
        const uint64_t stride = c.at("stride"), count = c.at("count");
        std::vector<int32_t> chain(stride * count, 0);
        for (uint64_t k = 0; k < count; ++k) chain[k * stride] = int32_t((k + 1) % count * stride);
        const DevicePtr data = m_rt.malloc(chain.size() * 4);
        m_rt.memcpy_to_device(data, chain.data(), chain.size() * 4);
        tex::Header h;
        h.magic = tex::kTextureMagic;
        h.shape = tex::Shape::Buffer;
        h.kind = tex::ChannelKind::Signed;
        h.channels = 1;
        h.channel_bytes = h.texel_bytes = 4;
        h.width = uint32_t(chain.size());
        h.base = data;
        h.pitch = h.slice = chain.size() * 4;
        const DevicePtr handle = m_rt.malloc(sizeof h);
        m_rt.memcpy_to_device(handle, &h, sizeof h);
        return handle;
    }
    // c_table: element start + k*stride holds the byte offset of element start + ((k+1) % count)*stride.
    void const_chain(const json& c) {
        auto sym = m_mod.symbols.find("c_table");
        if (sym == m_mod.symbols.end()) throw std::runtime_error("the microbenchmark module has no c_table");
        uint64_t start = c.at("start"), stride = c.at("stride"), count = c.at("count");
        for (uint64_t k = 0; k < count; ++k) {
            uint64_t next = (start + (k + 1) % count * stride) * 8;
            m_rt.memcpy_to_device(sym->second.first + (start + k * stride) * 8, &next, sizeof next);
        }
    }
};

// The figure a benchmark reports: cycles per warp instruction per SM (throughput), cycles per
// dependent operation (latency), or either relative to a base run.
double figure(Bench& b, const json& bm) {
    const std::string metric = bm.at("metric");
    double c = b.cycles(bm);
    if (metric == "throughput") return c / (b.warps_on_sm() * kOpsPerThread);
    if (metric == "latency") return c / kOpsPerThread;
    if (metric == "latency_minus") return (c - b.cycles(bm.at("base"))) / kOpsPerThread;
    if (metric == "ratio") return c / b.cycles(bm.at("base"));
    throw std::runtime_error(fmt::format("unknown microbenchmark metric '{}'", metric));
}

struct Row {
    std::string name, what, model, published, source, result;
};

// Runs the suite under one config, in this process; writes a JSON result file for the parent.
int run_config(const json& suite, const fs::path& dir, const std::string& config, const std::vector<std::string>& sets,
               const std::string& result_file) {
    auto overrides = parse_overrides(sets);
    overrides.insert(overrides.begin(), {"sim.mode", "timing"});
    GpuConfig cfg = load_config(config, overrides);
    Runtime rt(cfg);
    const ModuleHandle& mod = rt.load_module((dir / suite.at("module").get<std::string>()).string());
    Bench bench(rt, mod);
    json rows = json::array();
    int failed = 0;
    for (const json& bm : suite.at("benchmarks")) {
        double value = figure(bench, bm);
        json row = {{"name", bm.at("name")}, {"what", bm.at("what")}, {"model", value}};
        if (bm.contains("expect") && bm["expect"].contains(config)) {
            const json& e = bm["expect"][config];
            double want = e.at(0), tol = e.size() > 2 ? e.at(2).get<double>() : suite.value("tolerance", 0.05);
            bool ok = std::fabs(value - want) <= tol * std::fabs(want) + 1e-9;
            row["published"] = want;
            row["source"] = e.at(1);
            row["tolerance"] = tol;
            row["ok"] = ok;
            failed += ok ? 0 : 1;
        }
        rows.push_back(row);
    }
    std::ofstream(result_file) << rows.dump();
    return failed ? 1 : 0;
}

std::string fmt_num(double v) { return std::fabs(v - std::round(v)) < 1e-6 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v); }

} // namespace

int run_microbench(const std::string& suite_path, const std::vector<std::string>& configs_in, const std::vector<std::string>& sets,
                   const std::string& table) {
    json suite = read_suite(suite_path);
    const fs::path dir = fs::path(suite_path).parent_path();
    std::vector<std::string> configs = configs_in;
    if (configs.empty()) configs = suite.at("configs").get<std::vector<std::string>>();
    int failed = 0;
    std::string md;
    for (const std::string& config : configs) {
        std::string result = (fs::temp_directory_path() / fmt::format("gpusim_microbench_{}_{}.json", getpid(), config)).string();
        std::fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) throw std::runtime_error("fork failed");
        if (pid == 0) {  // SystemC elaborates once per process: one child per config
            int rc = 2;
            try {
                rc = run_config(suite, dir, config, sets, result);
            } catch (const std::exception& e) {
                fmt::print(stderr, "{}: {}\n", config, e.what());
            }
            std::fflush(stdout);
            _exit(rc);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) == 2) {
            fmt::print("{}: ERROR (the run did not complete)\n", config);
            ++failed;
            continue;
        }
        json rows = json::parse(std::ifstream(result));
        std::remove(result.c_str());
        fmt::print("{}\n{:<22} {:>10} {:>10} {:>6}  {}\n", config, "benchmark", "model", "published", "result", "source");
        md += fmt::format("\n### {}\n\n| benchmark | what | model | published | tolerance | source |\n|---|---|---|---|---|---|\n", config);
        for (const json& r : rows) {
            bool checked = r.contains("published");
            std::string res = !checked ? "-" : r["ok"].get<bool>() ? "PASS" : "FAIL";
            if (checked && !r["ok"].get<bool>()) ++failed;
            std::string pub = checked ? fmt_num(r["published"]) : "";
            std::string src = checked ? r["source"].get<std::string>() : "no published figure (model only)";
            fmt::print("{:<22} {:>10} {:>10} {:>6}  {}\n", r["name"].get<std::string>(), fmt_num(r["model"]), pub, res, src);
            md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", r["name"].get<std::string>(), r["what"].get<std::string>(),
                              fmt_num(r["model"]), checked ? pub : "-",
                              checked ? fmt::format("±{:.0f}%", r["tolerance"].get<double>() * 100) : "-", src);
        }
    }
    if (!table.empty()) std::ofstream(table) << md;
    fmt::print("{}\n", failed ? fmt::format("{} figures outside their tolerance", failed) : std::string("every checked figure is within its tolerance"));
    return failed ? 1 : 0;
}

} // namespace gpusim
