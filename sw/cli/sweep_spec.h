// The spec of a design-space sweep (`gpusim sweep SPEC`, docs/sweeps.md): config parameters with
// value lists, combined as a cartesian product or zipped; workloads (manifests, and CUDA programs
// run through the replacement libcudart); the metrics to collect, as paths into each run's
// statistics file; and the mode.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim::sweep {

struct Parameter {
    std::string key;                   // a config key, as --set takes it
    std::vector<std::string> values;   // as --set values
};

struct Workload {
    std::string name;
    std::string manifest;              // a launch manifest, or
    std::string program;               // a CUDA program (with its arguments)
    std::vector<std::string> args;
};

struct Metric {
    std::string name;
    std::string path;                  // dotted path into the statistics file; "*" sums over members
};

struct Spec {
    std::string path;                  // the spec file (relative paths in it are relative to its folder)
    std::string name;
    std::string config = "fermi-gf100";
    std::string mode = "timing";
    std::vector<std::pair<std::string, std::string>> fixed;   // "set": overrides of every point
    std::vector<Parameter> parameters;
    bool zip = false;                  // "combine": "zip" pairs the lists; "cartesian" (default) crosses them
    std::vector<Workload> workloads;
    std::vector<Metric> metrics;
};

// One configuration of the sweep: a value for each parameter, in the spec's order.
using Point = std::vector<std::string>;

// Reads and checks a spec; throws std::runtime_error naming the file and the bad entry.
Spec load_spec(const std::string& path);
// The configurations the parameters make, in order (the last parameter varies fastest).
std::vector<Point> expand(const Spec& spec);
// A metric's value in a statistics document; false when the path leads nowhere numeric.
bool metric_value(const nlohmann::json& stats, const std::string& path, double& value);

} // namespace gpusim::sweep
