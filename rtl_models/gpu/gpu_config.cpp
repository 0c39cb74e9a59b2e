#include "gpu/gpu_config.h"

#include "memory/sparse_store.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <type_traits>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "config/config_schema.h"
#include "gpu/config_outline.h"

#ifndef GPUSIM_CONFIG_DIR
#define GPUSIM_CONFIG_DIR "rtl_models/configs"
#endif

namespace gpusim {
namespace {

using nlohmann::json;

GpuConfig resolve_config(const std::string& path, std::string_view text, const std::vector<std::pair<std::string, std::string>>& overrides);

json parse_json(const std::string& path, std::string_view text) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {   // a syntax error, or a number too large for a double
        throw std::runtime_error(fmt::format("{}: error: invalid JSON: {}", path, e.what()));
    }
}

std::string read_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw std::runtime_error(fmt::format("{}: error: cannot open config file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open config file", path));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool names_a_file(const std::string& s) { return s.find('/') != std::string::npos || s.find(".json") != std::string::npos; }

// Overlays `top` on `base`: objects merge key by key, anything else replaces.
void merge(json& base, const json& top) {
    for (auto it = top.begin(); it != top.end(); ++it) {
        if (it->is_object() && base.contains(it.key()) && base[it.key()].is_object()) merge(base[it.key()], *it);
        else base[it.key()] = *it;
    }
}

// The dotted names of every value a document states.
void stated(const json& node, const std::string& prefix, std::vector<std::string>& out) {
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object()) stated(*it, path, out);
        else out.push_back(path);
    }
}

// A config document with its base's values and sources under it. A derived config states its own
// name and description; a base's source of a key stays only where the derived config does not
// state that key (a source of a group of keys, "ops.sfu", stays until the config gives its own).
struct Resolved {
    json doc;
    json sources = json::object();
};

Resolved resolve(const std::string& path, json doc, int depth, std::vector<std::string>& problems) {
    Resolved r;
    if (doc.contains("sources")) {
        if (doc["sources"].is_object()) r.sources = doc["sources"];
        else problems.push_back("key 'sources' must be an object of key names and texts");
        doc.erase("sources");
    }
    if (!doc.contains("base")) {
        r.doc = std::move(doc);
        return r;
    }
    if (!doc["base"].is_string()) {
        problems.push_back("key 'base' must be the name or file of another config");
        doc.erase("base");
        r.doc = std::move(doc);
        return r;
    }
    const std::string base = doc["base"].get<std::string>();
    doc.erase("base");
    if (depth >= 8) throw std::runtime_error(fmt::format("{}: error: config bases nest too deep (a circle?) at '{}'", path, base));
    const std::string base_path = names_a_file(base) ? (std::filesystem::path(path).parent_path() / base).string()
                                                     : config_dir() + "/" + base + ".json";
    json base_doc = parse_json(base_path, read_file(base_path));
    if (!base_doc.is_object()) throw std::runtime_error(fmt::format("{}: error: invalid config:\n  expected an object", base_path));
    Resolved under = resolve(base_path, std::move(base_doc), depth + 1, problems);
    under.doc.erase("name");
    under.doc.erase("description");
    std::vector<std::string> own;
    stated(doc, "", own);
    for (const std::string& k : own) under.sources.erase(k);
    merge(under.doc, doc);
    merge(under.sources, r.sources);
    return under;
}

// `key` is any declared key ("ops.fp32.latency"); the value must have the key's type.
void apply_override(json& doc, const std::string& origin, const std::string& key, const std::string& value) {
    const ConfigKey* k = config_schema().find(key);
    if (!k) throw std::runtime_error(fmt::format("--set: unknown config key '{}' in {}", key, origin));
    json parsed;
    if (k->type == ConfigKey::Type::String) {
        parsed = value;   // a string key takes the text as written ("7.5")
    } else {
        try {
            parsed = json::parse(value);
        } catch (const json::exception&) {
            parsed = value;   // a bare string
        }
    }
    const bool ok = k->type == ConfigKey::Type::Bool ? parsed.is_boolean()
                  : k->type == ConfigKey::Type::IntegerArray ? parsed.is_array()
                  : k->type == ConfigKey::Type::String ? parsed.is_string() : parsed.is_number();
    if (!ok) throw std::runtime_error(fmt::format("--set {}={}: expected a {} value", key, value, k->json_kind()));
    if (!set_config_value(doc, key, parsed))
        throw std::runtime_error(fmt::format("--set {}={}: {} holds a value where the key's section should be", key, value, origin));
}

// Each source names a key or a group of keys (a prefix: "ops.sfu") and is a text.
void check_sources(const json& sources, std::vector<std::string>& problems) {
    const ConfigSchema& schema = config_schema();
    for (auto it = sources.begin(); it != sources.end(); ++it) {
        if (!schema.find(it.key()) && !schema.is_prefix(it.key()))
            problems.push_back(fmt::format("sources: unknown key '{}'", it.key()));
        else if (!it->is_string())
            problems.push_back(fmt::format("sources: '{}' must be a text", it.key()));
    }
}

} // namespace

void derive_values(GpuConfig& c) {
    // Keys that mean something only together.
    if ((c.l2.slice_read_bytes > 0 || c.l2.slice_write_bytes > 0) && c.l2.slices == 0)
        throw std::runtime_error("invalid config: l2.slice_read_bytes and l2.slice_write_bytes need l2.slices (the slices whose ports they are)");
    for (const auto& [key, bytes] : {std::pair<const char*, uint64_t>{"memory.allocation_chunk_bytes", c.allocation_chunk_bytes},
                                     {"memory.heap_mapped_before_bytes", c.heap_mapped_before_bytes},
                                     {"memory.heap_mapped_after_bytes", c.heap_mapped_after_bytes}})
        if (bytes % SparseStore::kPageSize)
            throw std::runtime_error(fmt::format("invalid config: {} must be a multiple of the page table's {} bytes, got {}", key,
                                                 SparseStore::kPageSize, bytes));
    LdstConfig& ldst = c.sm.timing.ldst;
    DramConfig& dram = c.dram;
    dram.cycle_ns = ldst.cycle_ns = c.l2.cycle_ns = c.cycle_ns();
    dram.quantum_cycles = c.quantum_cycles;
    // GB/s over MHz is 1000 bytes per cycle.
    dram.bytes_per_cycle = dram.bandwidth_gb_s * 1000.0 / c.core_clock_mhz / std::max(dram.channels, 1u);
    c.l2.window_cycles = dram.window_cycles;
    c.l2.quantum_cycles = c.quantum_cycles;
    const CacheConfig& l2 = c.l2.cache;
    ldst.atomic_per_sector = c.l2.slices > 0;
    c.l2.fault_latency_cycles = uint64_t(c.managed_fault_ns / c.cycle_ns() + 0.5);
    c.l2.fault_page_cycles = uint64_t(c.managed_page_ns / c.cycle_ns() + 0.5);
    ldst.min_request_latency = l2.bytes && l2.line_bytes && l2.ways ? l2.latency : dram.latency;
}

std::vector<std::pair<std::string, std::string>> parse_overrides(const std::vector<std::string>& sets) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& s : sets) {
        auto eq = s.find('=');
        if (eq == std::string::npos || eq == 0) throw std::runtime_error(fmt::format("--set expects key=value, got '{}'", s));
        out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
    }
    return out;
}

std::string config_dir() {
    if (const char* d = std::getenv("GPUSIM_CONFIG_DIR")) return d;
    return GPUSIM_CONFIG_DIR;
}

std::vector<std::string> bundled_configs() {
    std::vector<std::pair<double, std::string>> found;
    for (const auto& e : std::filesystem::directory_iterator(config_dir())) {
        if (e.path().extension() != ".json") continue;
        const GpuConfig c = load_config(e.path().stem().string());
        found.emplace_back(std::stod(c.compute_capability), e.path().stem().string());
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> names;
    for (auto& f : found) names.push_back(f.second);
    return names;
}

GpuConfig load_config(const std::string& name_or_path, const std::vector<std::pair<std::string, std::string>>& overrides) {
    const std::string path = names_a_file(name_or_path) ? name_or_path : config_dir() + "/" + name_or_path + ".json";
    if (!names_a_file(name_or_path) && !std::filesystem::exists(path))
        throw std::runtime_error(fmt::format("unknown config '{}' (no {})", name_or_path, path));
    return parse_config(path, read_file(path), overrides);
}

GpuConfig parse_config(const std::string& path, std::string_view text,
                       const std::vector<std::pair<std::string, std::string>>& overrides) {
    try {
        return resolve_config(path, text, overrides);
    } catch (const json::exception& e) {   // a value of a shape no check foresaw
        throw std::runtime_error(fmt::format("{}: error: invalid config: {}", path, e.what()));
    }
}

namespace {

GpuConfig resolve_config(const std::string& path, std::string_view text, const std::vector<std::pair<std::string, std::string>>& overrides) {
    std::vector<std::string> problems;
    json doc = parse_json(path, text);
    if (!doc.is_object()) throw std::runtime_error(fmt::format("{}: error: invalid config:\n  expected an object", path));
    Resolved r = resolve(path, std::move(doc), 0, problems);
    for (const auto& [k, v] : overrides) apply_override(r.doc, path, k, v);
    check_sources(r.sources, problems);

    GpuConfig c;
    for (std::string& p : config_schema().fill(r.doc, &c)) problems.push_back(std::move(p));
    if (!problems.empty()) {
        std::string msg = fmt::format("{}: error: invalid config:", path);
        for (const auto& e : problems) msg += "\n  " + e;
        throw std::runtime_error(msg);
    }
    derive_values(c);
    c.effective = std::move(r.doc);
    c.sources = std::move(r.sources);
    return c;
}

} // namespace

uint32_t GpuConfig::host_threads() const {
    return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace gpusim
