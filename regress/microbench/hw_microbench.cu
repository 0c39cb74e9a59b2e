// Runs the timing microbenchmarks of microbench.json on a real NVIDIA GPU, with the same kernels
// (microbench.ptx, JIT-compiled by the driver), the same launches and the same arithmetic on the
// recorded clock64() spans as `gpusim microbench` (sw/cli/microbench.cpp), so that the chip's
// figures and the model's are measured alike. Prints a table and writes the figures as JSON:
//   hw_microbench SUITE.json RESULT.json
// Built and run through the device tool (regress/microbench/README.md), never in CI.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

constexpr double kOpsPerThread = 256;  // as sw/cli/microbench.cpp: 256 timed operations per thread

void check(CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return;
    const char* s = nullptr;
    cuGetErrorString(r, &s);
    throw std::runtime_error(std::string(what) + ": " + (s ? s : "unknown error"));
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Kernel parameters are passed by address: the values live here until the launch returns.
struct Args {
    std::vector<uint64_t> words;
    std::vector<void*> pointers;
    void add_u64(uint64_t v) { words.push_back(v); }
    void** finish() {
        pointers.clear();
        for (auto& w : words) pointers.push_back(&w);
        return pointers.data();
    }
};

void add_arg(Args& args, const json& a) {
    uint64_t bits = 0;
    if (a.contains("u32")) bits = a["u32"].get<uint32_t>();
    else if (a.contains("u64")) bits = a["u64"].get<uint64_t>();
    else if (a.contains("f32")) { float f = a["f32"].get<float>(); std::memcpy(&bits, &f, 4); }
    else if (a.contains("f64")) { double d = a["f64"].get<double>(); std::memcpy(&bits, &d, 8); }
    else throw std::runtime_error("microbenchmark argument must be {\"u32\"|\"u64\"|\"f32\"|\"f64\": value}");
    args.add_u64(bits);  // little-endian: a 32-bit parameter reads the low half
}

class Bench {
public:
    explicit Bench(CUmodule mod) : m_mod(mod) {
        CUdevice dev;
        check(cuCtxGetDevice(&dev), "cuCtxGetDevice");
        check(cuDeviceGetAttribute(&m_sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), "SM count");
        check(cuDeviceGetAttribute(&m_max_blocks, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev), "blocks per SM");
        check(cuMemAlloc(&m_out, 1 << 19), "cuMemAlloc");
    }
    uint32_t warps_on_sm() const { return m_warps_on_sm; }

    double cycles(const json& run) {
        CUfunction f;
        const std::string name = run.at("kernel");
        check(cuModuleGetFunction(&f, m_mod, name.c_str()), name.c_str());
        Args args;
        args.add_u64(m_out);
        if (run.contains("chain_bytes")) args.add_u64(global_chain(run["chain_bytes"]));
        if (run.contains("const_chain") && !const_chain(run["const_chain"])) return -1;
        if (run.contains("tex_chain")) args.add_u64(texture_chain(run["tex_chain"]));
        if (run.contains("arg")) add_arg(args, run["arg"]);
        const uint32_t block = run.value("block", 1u);
        uint32_t per_sm = 1;
        if (run.contains("blocks_per_sm")) per_sm = run["blocks_per_sm"].is_string() ? m_max_blocks : run["blocks_per_sm"].get<uint32_t>();
        const uint32_t grid = run.contains("blocks_per_sm") ? per_sm * m_sms : 1;
        const int launches = run.value("warmup", false) ? 2 : 1;
        for (int n = 0; n < launches; ++n) {
            check(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, nullptr, args.finish(), nullptr), "cuLaunchKernel");
            check(cuCtxSynchronize(), name.c_str());
        }
        const uint32_t warps = (block + 31) / 32 * grid;
        std::vector<int64_t> t(4 * size_t(warps));
        check(cuMemcpyDtoH(t.data(), m_out, t.size() * sizeof(int64_t)), "cuMemcpyDtoH");
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
    CUmodule m_mod;
    CUdeviceptr m_out = 0;
    int m_sms = 0, m_max_blocks = 0;
    uint32_t m_warps_on_sm = 0;

    CUdeviceptr global_chain(uint64_t stride) {
        CUdeviceptr base;
        check(cuMemAlloc(&base, stride * 257), "cuMemAlloc chain");
        for (uint64_t k = 0; k < 257; ++k) {
            uint64_t next = base + (k + 1) * stride;
            check(cuMemcpyHtoD(base + k * stride, &next, sizeof next), "chain");
        }
        return base;
    }
    // False where the chain runs past c_table: the model's constant bank lets it, the chip's
    // driver does not (the figure is then not measured).
    bool const_chain(const json& c) {
        CUdeviceptr table;
        size_t bytes;
        check(cuModuleGetGlobal(&table, &bytes, m_mod, "c_table"), "c_table");
        const uint64_t start = c.at("start"), stride = c.at("stride"), count = c.at("count");
        if ((start + (count - 1) * stride + 1) * 8 > bytes) return false;
        for (uint64_t k = 0; k < count; ++k) {
            uint64_t next = (start + (k + 1) % count * stride) * 8;
            check(cuMemcpyHtoD(table + (start + k * stride) * 8, &next, sizeof next), "const chain");
        }
        return true;
    }
    // A linear texture of 32-bit ints, element k*stride holding the index of element ((k+1) % count)*stride.
    uint64_t texture_chain(const json& c) {
        const uint64_t stride = c.at("stride"), count = c.at("count");
        std::vector<int32_t> chain(stride * count, 0);
        for (uint64_t k = 0; k < count; ++k) chain[k * stride] = int32_t((k + 1) % count * stride);
        CUdeviceptr data;
        check(cuMemAlloc(&data, chain.size() * 4), "cuMemAlloc texture");
        check(cuMemcpyHtoD(data, chain.data(), chain.size() * 4), "texture data");
        CUDA_RESOURCE_DESC res{};
        res.resType = CU_RESOURCE_TYPE_LINEAR;
        res.res.linear.devPtr = data;
        res.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
        res.res.linear.numChannels = 1;
        res.res.linear.sizeInBytes = chain.size() * 4;
        CUDA_TEXTURE_DESC tex{};
        CUtexObject obj;
        check(cuTexObjectCreate(&obj, &res, &tex, nullptr), "cuTexObjectCreate");
        return obj;
    }
};

double figure(Bench& b, const json& bm) {
    const std::string metric = bm.at("metric");
    const double c = b.cycles(bm);
    if (c < 0) return -1;
    if (metric == "throughput") return c / (b.warps_on_sm() * kOpsPerThread);
    if (metric == "latency") return c / kOpsPerThread;
    const double base = metric == "latency_minus" || metric == "ratio" ? b.cycles(bm.at("base")) : 0;
    if (base < 0) return -1;
    if (metric == "latency_minus") return (c - base) / kOpsPerThread;
    if (metric == "ratio") return c / base;
    throw std::runtime_error("unknown microbenchmark metric '" + metric + "'");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: hw_microbench SUITE.json RESULT.json\n");
        return 2;
    }
    try {
        const std::string suite_path = argv[1];
        const json suite = json::parse(read_text(suite_path));
        const std::string dir = suite_path.substr(0, suite_path.find_last_of('/') + 1);
        const std::string ptx = read_text(dir + suite.at("module").get<std::string>());
        check(cuInit(0), "cuInit");
        CUdevice dev;
        CUcontext ctx;
        check(cuDeviceGet(&dev, 0), "cuDeviceGet");
        check(cuDevicePrimaryCtxRetain(&ctx, dev), "context");
        check(cuCtxSetCurrent(ctx), "context");
        CUmodule mod;
        check(cuModuleLoadData(&mod, ptx.c_str()), "cuModuleLoadData");
        char device_name[256] = {};
        cuDeviceGetName(device_name, sizeof device_name, dev);
        Bench bench(mod);
        json rows = json::array();
        for (const json& bm : suite.at("benchmarks")) {
            const double v = figure(bench, bm);
            if (v < 0) {
                std::printf("%-22s %12s  not measured: its constant chain runs past c_table\n", bm.at("name").get<std::string>().c_str(), "-");
                continue;
            }
            std::printf("%-22s %12.4f  %s\n", bm.at("name").get<std::string>().c_str(), v, bm.at("what").get<std::string>().c_str());
            rows.push_back({{"name", bm.at("name")}, {"value", v}, {"warps_on_sm", bench.warps_on_sm()}});
        }
        std::ofstream(argv[2]) << json{{"device", device_name}, {"figures", rows}}.dump(1) << "\n";
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hw_microbench: %s\n", e.what());
        return 1;
    }
    return 0;
}
