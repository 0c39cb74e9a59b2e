#include "cli/sweep_spec.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace gpusim::sweep {

namespace fs = std::filesystem;
using ordered = nlohmann::ordered_json;

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& where, const std::string& what) {
    throw std::runtime_error(fmt::format("{}: error: {}: {}", path, where, what));
}

// A parameter value as --set takes it: numbers and booleans as JSON writes them, strings as they are.
std::string as_set_value(const std::string& path, const std::string& where, const ordered& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number() || v.is_boolean()) return v.dump();
    bad(path, where, "expected a number, a boolean or a string");
}

std::string resolve(const fs::path& base, const std::string& p) {
    if (p.empty() || fs::path(p).is_absolute()) return p;
    return (base / p).lexically_normal().string();
}

std::string field(const std::string& path, const std::string& where, const ordered& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string() || it->get<std::string>().empty()) bad(path, where, fmt::format("needs \"{}\" (a string)", key));
    return it->get<std::string>();
}

} // namespace

Spec load_spec(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open the sweep spec", path));
    std::stringstream text;
    text << in.rdbuf();
    ordered doc;
    try {
        doc = ordered::parse(text.str());
    } catch (const ordered::exception& e) {
        throw std::runtime_error(fmt::format("{}: error: invalid JSON: {}", path, e.what()));
    }
    if (!doc.is_object()) bad(path, "spec", "expected an object");
    static const char* const known[] = {"name", "description", "config", "mode", "set", "parameters", "combine", "workloads", "metrics"};
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (std::find(std::begin(known), std::end(known), it.key()) == std::end(known))
            bad(path, it.key(), "unknown key (expected name, description, config, mode, set, parameters, combine, workloads, metrics)");
    const fs::path base = fs::path(path).parent_path();
    Spec s;
    s.path = path;
    s.name = doc.value("name", fs::path(path).stem().string());
    s.config = doc.value("config", s.config);
    // A config given as a file is relative to the spec; a name is one of the bundled configs.
    if (s.config.find('/') != std::string::npos || fs::path(s.config).extension() == ".json") s.config = resolve(base, s.config);
    s.mode = doc.value("mode", s.mode);
    if (s.mode != "functional" && s.mode != "timing") bad(path, "mode", "expected functional or timing");
    if (doc.contains("set")) {
        if (!doc["set"].is_object()) bad(path, "set", "expected an object of config keys and values");
        for (auto it = doc["set"].begin(); it != doc["set"].end(); ++it)
            s.fixed.push_back({it.key(), as_set_value(path, "set." + it.key(), it.value())});
    }
    const ordered& params = doc.value("parameters", ordered::object());
    if (!params.is_object() || params.empty()) bad(path, "parameters", "expected an object of config keys, each with a list of values");
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (!it->is_array() || it->empty()) bad(path, "parameters." + it.key(), "expected a non-empty list of values");
        Parameter p{it.key(), {}};
        for (size_t k = 0; k < it->size(); ++k)
            p.values.push_back(as_set_value(path, fmt::format("parameters.{}[{}]", it.key(), k), (*it)[k]));
        s.parameters.push_back(std::move(p));
    }
    const std::string combine = doc.value("combine", "cartesian");
    if (combine != "cartesian" && combine != "zip") bad(path, "combine", "expected cartesian or zip");
    s.zip = combine == "zip";
    if (s.zip)
        for (const Parameter& p : s.parameters)
            if (p.values.size() != s.parameters[0].values.size())
                bad(path, "parameters." + p.key, "zipped parameters need value lists of one length");
    const ordered& workloads = doc.value("workloads", ordered::array());
    if (!workloads.is_array() || workloads.empty()) bad(path, "workloads", "expected a non-empty list");
    for (size_t k = 0; k < workloads.size(); ++k) {
        const ordered& w = workloads[k];
        const std::string where = fmt::format("workloads[{}]", k);
        if (!w.is_object()) bad(path, where, "expected an object");
        Workload wl;
        wl.name = field(path, where, w, "name");
        if (w.contains("manifest") == w.contains("program")) bad(path, where, "needs exactly one of \"manifest\" and \"program\"");
        if (w.contains("manifest")) wl.manifest = resolve(base, field(path, where, w, "manifest"));
        if (w.contains("program")) wl.program = resolve(base, field(path, where, w, "program"));
        if (w.contains("args")) {
            if (!w["args"].is_array()) bad(path, where + ".args", "expected a list of strings");
            for (const auto& a : w["args"]) {
                if (!a.is_string()) bad(path, where + ".args", "expected a list of strings");
                wl.args.push_back(a.get<std::string>());
            }
        }
        for (const Workload& other : s.workloads)
            if (other.name == wl.name) bad(path, where, fmt::format("a second workload named \"{}\"", wl.name));
        s.workloads.push_back(std::move(wl));
    }
    const ordered& metrics = doc.value("metrics", ordered::object());
    if (!metrics.is_object() || metrics.empty()) bad(path, "metrics", "expected an object of names and statistics paths");
    for (auto it = metrics.begin(); it != metrics.end(); ++it) {
        if (!it->is_string()) bad(path, "metrics." + it.key(), "expected a statistics path such as \"totals.cycles\"");
        s.metrics.push_back({it.key(), it->get<std::string>()});
    }
    return s;
}

std::vector<Point> expand(const Spec& spec) {
    std::vector<Point> out;
    if (spec.zip) {
        for (size_t i = 0; i < spec.parameters[0].values.size(); ++i) {
            Point p;
            for (const Parameter& param : spec.parameters) p.push_back(param.values[i]);
            out.push_back(std::move(p));
        }
        return out;
    }
    out.push_back({});
    for (const Parameter& param : spec.parameters) {
        std::vector<Point> next;
        for (const Point& p : out)
            for (const std::string& v : param.values) {
                Point q = p;
                q.push_back(v);
                next.push_back(std::move(q));
            }
        out = std::move(next);
    }
    return out;
}

namespace {
bool value_at(const nlohmann::json& j, const std::vector<std::string>& parts, size_t k, double& out) {
    if (k == parts.size()) {
        const nlohmann::json* v = &j;
        if (j.is_object() && j.contains("value")) v = &j["value"];
        if (!v->is_number()) return false;
        out = v->get<double>();
        return true;
    }
    const std::string& part = parts[k];
    if (part == "*") {
        if (!j.is_object() && !j.is_array()) return false;
        double sum = 0;
        bool any = false;
        for (const auto& member : j) {
            double v = 0;
            if (value_at(member, parts, k + 1, v)) sum += v, any = true;
        }
        out = sum;
        return any;
    }
    if (j.is_array()) {
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return false;
        const size_t index = std::stoul(part);
        return index < j.size() && value_at(j[index], parts, k + 1, out);
    }
    return j.is_object() && j.contains(part) && value_at(j[part], parts, k + 1, out);
}
} // namespace

bool metric_value(const nlohmann::json& stats, const std::string& path, double& value) {
    std::vector<std::string> parts;
    std::stringstream in(path);
    for (std::string part; std::getline(in, part, '.');) parts.push_back(part);
    return value_at(stats, parts, 0, value);
}

} // namespace gpusim::sweep
