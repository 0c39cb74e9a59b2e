#include "cli/config_command.h"

#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "gpu/config_reference.h"
#include "gpu/gpu_config.h"

namespace gpusim {

namespace {
constexpr int kBadConfig = 3;   // gpusim run's exit code for bad input (main.cpp)
} // namespace

int config_command(bool doc, const std::string& show, const std::vector<std::string>& sets) {
    if (doc == !show.empty()) throw std::runtime_error("gpusim config: give --doc, or --show NAME");
    if (doc) {
        if (!sets.empty()) throw std::runtime_error("gpusim config --doc: --set applies to --show");
        std::fputs(config_reference().c_str(), stdout);
        return 0;
    }
    GpuConfig c;
    try {
        c = load_config(show, parse_overrides(sets));
    } catch (const std::runtime_error& e) {
        fmt::print(stderr, "gpusim: error: {}\n", e.what());
        return kBadConfig;
    }
    nlohmann::ordered_json out;
    out["config"] = c.effective;
    out["sources"] = c.sources;
    fmt::print("{}\n", out.dump(1));
    return 0;
}

} // namespace gpusim
