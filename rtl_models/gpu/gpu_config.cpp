#include "gpu/gpu_config.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#ifndef GPUSIM_CONFIG_DIR
#define GPUSIM_CONFIG_DIR "rtl_models/configs"
#endif

namespace gpusim {
namespace {

using nlohmann::json;

json read_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open config file", path));
    try {
        return json::parse(in);
    } catch (const json::parse_error& e) {
        throw std::runtime_error(fmt::format("{}: error: invalid JSON: {}", path, e.what()));
    }
}

// Walks the schema of known keys; each reader takes its value and reports type errors.
class Reader {
public:
    Reader(const std::string& origin, const json& doc) : m_origin(origin), m_doc(doc) {}

    template <class T>
    void get(const char* section, const char* key, T& out) {
        std::string path = section[0] ? fmt::format("{}.{}", section, key) : key;
        m_known.push_back(path);
        const json* v = find(section, key);
        if (!v) { m_errors.push_back(fmt::format("missing key '{}'", path)); return; }
        if constexpr (std::is_integral_v<T>) {
            if (!v->is_number_unsigned() || v->get<uint64_t>() > std::numeric_limits<T>::max()) {
                m_errors.push_back(fmt::format("key '{}' must be a non-negative integer that fits {} bits, got {}", path,
                                               sizeof(T) * 8, v->dump()));
                return;
            }
        }
        try {
            out = v->get<T>();
        } catch (const json::exception&) {
            m_errors.push_back(fmt::format("key '{}' has the wrong type ({})", path, v->type_name()));
        }
    }

    void check_unknown() {
        for (auto& [sec, val] : m_doc.items()) {
            if (!val.is_object()) { if (!known(sec)) m_errors.push_back(fmt::format("unknown key '{}'", sec)); continue; }
            for (auto& [k, _] : val.items())
                if (!known(sec + "." + k)) m_errors.push_back(fmt::format("unknown key '{}.{}'", sec, k));
        }
    }

    void require(bool ok, const std::string& what) { if (!ok) m_errors.push_back(what); }

    void finish() const {
        if (m_errors.empty()) return;
        std::string msg = fmt::format("{}: error: invalid config:", m_origin);
        for (const auto& e : m_errors) msg += "\n  " + e;
        throw std::runtime_error(msg);
    }

private:
    std::string m_origin;
    const json& m_doc;
    std::vector<std::string> m_known;
    std::vector<std::string> m_errors;

    const json* find(const char* section, const char* key) const {
        const json* s = section[0] ? (m_doc.contains(section) ? &m_doc[section] : nullptr) : &m_doc;
        if (!s || !s->is_object() || !s->contains(key)) return nullptr;
        return &(*s)[key];
    }
    bool known(const std::string& k) const { return std::find(m_known.begin(), m_known.end(), k) != m_known.end(); }
};

void apply_override(json& doc, const std::string& origin, const std::string& key, const std::string& value) {
    auto dot = key.find('.');
    json* slot = nullptr;
    if (dot == std::string::npos) {
        if (!doc.contains(key)) throw std::runtime_error(fmt::format("--set: unknown config key '{}' in {}", key, origin));
        slot = &doc[key];
    } else {
        std::string sec = key.substr(0, dot), k = key.substr(dot + 1);
        if (!doc.contains(sec) || !doc[sec].is_object() || !doc[sec].contains(k))
            throw std::runtime_error(fmt::format("--set: unknown config key '{}' in {}", key, origin));
        slot = &doc[sec][k];
    }
    json parsed;
    try {
        parsed = json::parse(value);
    } catch (const json::exception&) {
        parsed = value;  // a bare string
    }
    if (parsed.type() != slot->type() && !(parsed.is_number() && slot->is_number()))
        throw std::runtime_error(fmt::format("--set {}={}: expected a {} value", key, value, slot->type_name()));
    *slot = parsed;
}

} // namespace

std::string config_dir() {
    if (const char* d = std::getenv("GPUSIM_CONFIG_DIR")) return d;
    return GPUSIM_CONFIG_DIR;
}

GpuConfig load_config(const std::string& name_or_path, const std::vector<std::pair<std::string, std::string>>& overrides) {
    bool is_path = name_or_path.find('/') != std::string::npos || name_or_path.find(".json") != std::string::npos;
    std::string path = is_path ? name_or_path : config_dir() + "/" + name_or_path + ".json";
    if (!is_path) {
        std::ifstream probe(path);
        if (!probe) throw std::runtime_error(fmt::format("unknown config '{}' (no {})", name_or_path, path));
    }
    json doc = read_json(path);
    for (const auto& [k, v] : overrides) apply_override(doc, path, k, v);

    GpuConfig c;
    Reader r(path, doc);
    r.get("", "name", c.name);
    r.get("", "description", c.description);
    r.get("chip", "compute_capability", c.compute_capability);
    r.get("chip", "num_sms", c.num_sms);
    r.get("chip", "core_clock_mhz", c.core_clock_mhz);
    r.get("chip", "max_threads_per_block", c.max_threads_per_block);
    r.get("chip", "max_shared_per_block", c.max_shared_per_block);
    r.get("chip", "max_grid_x", c.max_grid_x);
    r.get("memory", "size_bytes", c.memory_bytes);
    r.get("memory", "latency_ns", c.memory_latency_ns);
    r.get("sm", "max_warps", c.sm.max_warps);
    r.get("sm", "max_ctas", c.sm.max_ctas);
    r.get("sm", "max_threads", c.sm.max_threads);
    r.get("sm", "registers", c.sm.registers);
    r.get("sm", "max_regs_per_thread", c.sm.max_regs_per_thread);
    r.get("sm", "shared_bytes", c.sm.shared_bytes);
    r.get("sm", "warp_schedulers", c.sm.warp_schedulers);
    r.get("sm", "stack_bytes", c.sm.stack_bytes);
    r.get("pcie", "bandwidth_gb_s", c.pcie.bandwidth_gb_s);
    r.get("pcie", "latency_ns", c.pcie.latency_ns);
    r.get("pcie", "burst_bytes", c.pcie.burst_bytes);
    r.get("sim", "quantum_cycles", c.quantum_cycles);
    r.get("sim", "warp_slice", c.sm.warp_slice);
    r.check_unknown();
    r.require(c.num_sms >= 1, "chip.num_sms must be at least 1");
    r.require(c.core_clock_mhz > 0, "chip.core_clock_mhz must be positive");
    r.require(c.sm.max_warps >= 1 && c.sm.max_ctas >= 1, "sm.max_warps and sm.max_ctas must be at least 1");
    r.require(c.sm.warp_schedulers >= 1, "sm.warp_schedulers must be at least 1");
    r.require(c.pcie.bandwidth_gb_s > 0 && c.pcie.burst_bytes > 0, "pcie.bandwidth_gb_s and pcie.burst_bytes must be positive");
    r.require(c.quantum_cycles >= 1 && c.sm.warp_slice >= 1, "sim.quantum_cycles and sim.warp_slice must be at least 1");
    r.require(c.max_threads_per_block >= 1 && c.max_threads_per_block <= c.sm.max_threads,
              "chip.max_threads_per_block must be between 1 and sm.max_threads");
    r.finish();
    c.effective = doc;
    return c;
}

} // namespace gpusim
