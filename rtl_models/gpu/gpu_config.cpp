#include "gpu/gpu_config.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "protocol/memory_request.h"

#ifndef GPUSIM_CONFIG_DIR
#define GPUSIM_CONFIG_DIR "rtl_models/configs"
#endif

namespace gpusim {
namespace {

using nlohmann::json;

json parse_json(const std::string& path, std::string_view text) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {   // a syntax error, or a number too large for a double
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
        if constexpr (std::is_same_v<T, Dims2> || std::is_same_v<T, Dims3>) {
            // The JSON library converts each element unchecked: a float or a negative element
            // would be undefined behaviour, not an error.
            const bool ok = v->is_array() && v->size() == std::tuple_size_v<T> &&
                            std::all_of(v->begin(), v->end(), [](const json& e) {
                                return e.is_number_unsigned() && e.get<uint64_t>() <= UINT32_MAX;
                            });
            if (!ok) {
                m_errors.push_back(fmt::format("key '{}' must be an array of {} non-negative integers that fit 32 bits, got {}",
                                               path, std::tuple_size_v<T>, v->dump()));
                return;
            }
        }
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
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

    void check_unknown() { unknown_in(m_doc, ""); }

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

    // `section` may be nested: "ops.fp32".
    const json* find(const char* section, const char* key) const {
        const json* s = &m_doc;
        std::string path = section;
        size_t start = 0;
        while (!path.empty() && start <= path.size()) {
            size_t dot = path.find('.', start);
            std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
            if (!s->is_object() || !s->contains(part)) return nullptr;
            s = &(*s)[part];
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        if (!s->is_object() || !s->contains(key)) return nullptr;
        return &(*s)[key];
    }
    void unknown_in(const json& node, const std::string& prefix) {
        for (auto& [k, val] : node.items()) {
            std::string path = prefix.empty() ? k : prefix + "." + k;
            if (known(path)) continue;
            if (val.is_object() && known_prefix(path + ".")) unknown_in(val, path);
            else m_errors.push_back(fmt::format("unknown key '{}'", path));
        }
    }
    bool known_prefix(const std::string& p) const {
        return std::any_of(m_known.begin(), m_known.end(), [&](const std::string& k) { return k.compare(0, p.size(), p) == 0; });
    }
    bool known(const std::string& k) const { return std::find(m_known.begin(), m_known.end(), k) != m_known.end(); }
};

// `key` is a dotted path of any depth ("ops.fp32.latency"); the value must keep the key's type.
void apply_override(json& doc, const std::string& origin, const std::string& key, const std::string& value) {
    json* slot = &doc;
    size_t start = 0;
    for (;;) {
        size_t dot = key.find('.', start);
        std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!slot->is_object() || !slot->contains(part))
            throw std::runtime_error(fmt::format("--set: unknown config key '{}' in {}", key, origin));
        slot = &(*slot)[part];
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    json parsed;
    try {
        parsed = json::parse(value);
    } catch (const json::exception&) {
        parsed = value;  // a bare string
    }
    if (slot->is_string()) parsed = value;   // a string key takes the text as written ("7.5")
    if (parsed.type() != slot->type() && !(parsed.is_number() && slot->is_number()))
        throw std::runtime_error(fmt::format("--set {}={}: expected a {} value", key, value, slot->type_name()));
    *slot = parsed;
}

void read_cuda_facts(Reader& r, CudaFacts& f) {
    r.get("cuda", "constant_bytes", f.constant_bytes);
    r.get("cuda", "max_pitch_bytes", f.max_pitch_bytes);
    r.get("cuda", "texture_alignment", f.texture_alignment);
    r.get("cuda", "texture_pitch_alignment", f.texture_pitch_alignment);
    r.get("cuda", "surface_alignment", f.surface_alignment);
    r.get("cuda", "texture_1d", f.texture_1d);
    r.get("cuda", "texture_1d_linear", f.texture_1d_linear);
    r.get("cuda", "texture_1d_layered", f.texture_1d_layered);
    r.get("cuda", "texture_1d_mipmapped", f.texture_1d_mipmapped);
    r.get("cuda", "texture_2d", f.texture_2d);
    r.get("cuda", "texture_2d_linear", f.texture_2d_linear);
    r.get("cuda", "texture_2d_gather", f.texture_2d_gather);
    r.get("cuda", "texture_2d_layered", f.texture_2d_layered);
    r.get("cuda", "texture_2d_mipmapped", f.texture_2d_mipmapped);
    r.get("cuda", "texture_3d", f.texture_3d);
    r.get("cuda", "texture_3d_alt", f.texture_3d_alt);
    r.get("cuda", "texture_cubemap", f.texture_cubemap);
    r.get("cuda", "texture_cubemap_layered", f.texture_cubemap_layered);
    r.get("cuda", "surface_1d", f.surface_1d);
    r.get("cuda", "surface_1d_layered", f.surface_1d_layered);
    r.get("cuda", "surface_2d", f.surface_2d);
    r.get("cuda", "surface_2d_layered", f.surface_2d_layered);
    r.get("cuda", "surface_3d", f.surface_3d);
    r.get("cuda", "surface_cubemap", f.surface_cubemap);
    r.get("cuda", "surface_cubemap_layered", f.surface_cubemap_layered);
    r.get("cuda", "pci_device_id", f.pci_device_id);
    r.get("cuda", "ecc_enabled", f.ecc_enabled);
}

void read_cache(Reader& r, const char* section, CacheConfig& c) {
    r.get(section, "bytes", c.bytes);
    r.get(section, "line_bytes", c.line_bytes);
    r.get(section, "ways", c.ways);
    r.get(section, "latency", c.latency);
    r.require(c.bytes == 0 || (c.line_bytes >= 1 && c.ways >= 1), fmt::format("{}.line_bytes and {}.ways must be at least 1", section, section));
    r.require(c.line_bytes <= MemoryRequestPayload::kMaxBytes,
              fmt::format("{}.line_bytes must be at most {}", section, MemoryRequestPayload::kMaxBytes));
}

// The timing model's sections: scheduler, pipes, ops, smem, ccache, l1, l2, dram, barrier.
void read_timing(Reader& r, GpuConfig& c) {
    TimingConfig& t = c.sm.timing;
    std::string mode;
    r.get("sim", "mode", mode);
    r.require(mode == "functional" || mode == "timing", fmt::format("sim.mode must be \"functional\" or \"timing\", got \"{}\"", mode));
    t.enabled = mode == "timing";
    r.get("sim", "skip_idle_cycles", t.skip_idle);
    r.get("scheduler", "policy", t.scheduler.policy);
    r.get("scheduler", "dispatch", t.scheduler.dispatch);
    r.get("scheduler", "serial_dispatch", t.scheduler.serial_dispatch);
    r.get("scheduler", "active_warps", t.scheduler.active_warps);
    r.get("scheduler", "long_latency_cycles", t.scheduler.long_latency_cycles);
    r.require(t.scheduler.policy == "lrr" || t.scheduler.policy == "gto" || t.scheduler.policy == "two_level",
              "scheduler.policy must be lrr, gto or two_level");
    r.require(t.scheduler.dispatch >= 1, "scheduler.dispatch must be at least 1");
    for (int k = 0; k < kPipeKinds; ++k) {
        std::string sec = std::string("pipes.") + pipe_name(PipeKind(k));
        PipeConfig& p = t.pipes[k];
        r.get(sec.c_str(), "lanes", p.lanes);
        r.get(sec.c_str(), "per_scheduler", p.per_scheduler);
        r.get(sec.c_str(), "exclusive", p.exclusive);
        r.require(p.lanes >= 1, sec + ".lanes must be at least 1");
    }
    for (int k = 0; k < kOpClasses; ++k) {
        std::string sec = std::string("ops.") + op_class_name(OpClass(k));
        OpTiming& o = t.ops[k];
        std::string pipe;
        double interval = 1;
        r.get(sec.c_str(), "pipe", pipe);
        r.get(sec.c_str(), "interval", interval);
        r.get(sec.c_str(), "latency", o.latency);
        int found = -1;
        for (int p = 0; p < kPipeKinds; ++p)
            if (pipe == pipe_name(PipeKind(p))) found = p;
        r.require(found >= 0, fmt::format("{}.pipe '{}' is not one of alu, sfu, fp64, ldst, video, ctrl", sec, pipe));
        o.pipe = PipeKind(std::max(found, 0));
        const bool interval_ok = interval > 0 && interval <= 1000;   // also false for NaN
        r.require(interval_ok, sec + ".interval must be in (0, 1000]");
        if (interval_ok) o.interval_milli = uint32_t(interval * 1000 + 0.5);
    }
    SharedMemoryConfig& sm = t.smem;
    r.get("smem", "banks", sm.banks);
    r.get("smem", "interleave_bytes", sm.interleave_bytes);
    r.get("smem", "bank_width_bytes", sm.bank_width_bytes);
    r.get("smem", "max_group_threads", sm.max_group_threads);
    r.get("smem", "single_broadcast", sm.single_broadcast);
    r.get("smem", "split_wide", sm.split_wide);
    r.get("smem", "latency", sm.latency);
    r.get("smem", "pass_cycles", sm.pass_cycles);
    r.get("smem", "impl", sm.impl);
    r.get("smem", "rtl_vcd", sm.rtl_vcd);
    r.require(sm.impl == "systemc" || sm.impl == "rtl", fmt::format("smem.impl '{}' is not one of systemc, rtl", sm.impl));
    if (sm.impl == "rtl") {
#ifndef GPUSIM_HAVE_RTL
        r.require(false, "smem.impl 'rtl': this build has no RTL twin (Verilator 5 was not found when it was configured; setup.sh installs it)");
#endif
        // The RTL covers the bank geometries of the four generations (rtl_models/rtl/smem_bank_arbiter.sv).
        r.require(sm.interleave_bytes == 4 && (sm.banks == 16 || sm.banks == 32) && (sm.bank_width_bytes == 4 || sm.bank_width_bytes == 8)
                      && (sm.max_group_threads == 16 || sm.max_group_threads == 32),
                  "smem.impl 'rtl' needs smem.interleave_bytes 4, smem.banks 16 or 32, smem.bank_width_bytes 4 or 8 and smem.max_group_threads 16 or 32");
        // cc 1.x's rules come with its 4-byte banks only.
        r.require(sm.bank_width_bytes == 4 || (!sm.single_broadcast && !sm.split_wide),
                  "smem.impl 'rtl': smem.single_broadcast and smem.split_wide (cc 1.x) need smem.bank_width_bytes 4");
    }
    r.require(sm.banks >= 1 && sm.banks <= 64 && sm.interleave_bytes >= 1 && sm.bank_width_bytes >= 1,
              "smem.banks must be 1 to 64; smem.interleave_bytes and smem.bank_width_bytes at least 1");
    read_cache(r, "ccache", t.ccache.cache);
    r.get("ccache", "group_threads", t.ccache.group_threads);
    r.get("ccache", "pass_cycles", t.ccache.pass_cycles);
    r.require(t.ccache.cache.bytes > 0, "ccache.bytes must be positive");
    read_cache(r, "tex", t.tex.cache);
    r.get("tex", "pass_cycles", t.tex.pass_cycles);
    r.require(t.tex.cache.bytes > 0, "tex.bytes must be positive");
    LdstConfig& ldst = t.ldst;
    DramConfig& dram = c.dram;
    read_cache(r, "l1", ldst.l1);
    r.get("l1", "caches_global", ldst.l1_caches_global);
    r.get("l1", "mshrs", ldst.l1.mshrs);
    read_cache(r, "l2", c.l2.cache);
    r.get("l2", "atomic_cycles", c.l2.atomic_cycles);
    r.get("dram", "latency", dram.latency);
    r.get("dram", "channels", dram.channels);
    r.get("dram", "bandwidth_gb_s", dram.bandwidth_gb_s);
    r.get("dram", "interleave_bytes", dram.interleave_bytes);
    r.get("sim", "dram_window_cycles", dram.window_cycles);
    r.require(dram.window_cycles >= 1, "sim.dram_window_cycles must be at least 1");
    r.require(dram.channels >= 1 && dram.bandwidth_gb_s > 0 && dram.interleave_bytes >= 1,
              "dram.channels, dram.bandwidth_gb_s and dram.interleave_bytes must be positive");
    // GB/s over MHz is 1000 bytes per cycle.
    dram.cycle_ns = ldst.cycle_ns = c.l2.cycle_ns = c.cycle_ns();
    dram.quantum_cycles = c.quantum_cycles;
    dram.bytes_per_cycle = dram.bandwidth_gb_s * 1000.0 / c.core_clock_mhz / std::max(dram.channels, 1u);
    c.l2.window_cycles = dram.window_cycles;
    const CacheConfig& l2 = c.l2.cache;
    ldst.min_request_latency = l2.bytes && l2.line_bytes && l2.ways ? l2.latency : dram.latency;
    r.get("memory", "coalescing", ldst.coalescing);
    r.get("memory", "transaction_cycles", ldst.transaction_cycles);
    r.require(ldst.coalescing == "cc10" || ldst.coalescing == "cc12" || ldst.coalescing == "cc20" ||
                  ldst.coalescing == "cc35", "memory.coalescing must be cc10, cc12, cc20 or cc35");
    r.get("barrier", "release_latency", t.barrier_latency);
}

} // namespace

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

GpuConfig load_config(const std::string& name_or_path, const std::vector<std::pair<std::string, std::string>>& overrides) {
    bool is_path = name_or_path.find('/') != std::string::npos || name_or_path.find(".json") != std::string::npos;
    std::string path = is_path ? name_or_path : config_dir() + "/" + name_or_path + ".json";
    if (!is_path) {
        std::ifstream probe(path);
        if (!probe) throw std::runtime_error(fmt::format("unknown config '{}' (no {})", name_or_path, path));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open config file", path));
    std::ostringstream text;
    text << in.rdbuf();
    return parse_config(path, text.str(), overrides);
}

GpuConfig parse_config(const std::string& path, std::string_view text,
                       const std::vector<std::pair<std::string, std::string>>& overrides) {
    json doc = parse_json(path, text);
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
    r.get("chip", "max_grid", c.max_grid);
    r.get("chip", "max_block", c.max_block);
    read_cuda_facts(r, c.cuda);
    r.get("memory", "size_bytes", c.memory_bytes);
    r.get("memory", "latency_ns", c.memory_latency_ns);
    r.get("memory", "clock_mhz", c.memory_clock_mhz);
    r.get("memory", "bus_width_bits", c.memory_bus_bits);
    r.get("memory", "managed_page_bytes", c.managed_page_bytes);
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
    r.get("pcie", "access_latency_ns", c.pcie.access_latency_ns);
    r.get("pcie", "burst_bytes", c.pcie.burst_bytes);
    r.get("pcie", "copy_engines", c.pcie.copy_engines);
    r.get("pcie", "overlap", c.pcie.overlap);
    r.get("pcie", "staging_gb_s", c.pcie.staging_gb_s);
    r.get("chip", "channels", c.channels);
    r.get("chip", "stream_priorities", c.stream_priorities);
    r.get("chip", "malloc_heap_bytes", c.malloc_heap_bytes);
    r.get("sim", "quantum_cycles", c.quantum_cycles);
    r.get("sim", "warp_slice", c.sm.warp_slice);
    r.get("sim", "threads", c.threads);
    r.get("sim", "max_cycles", c.sm.max_cycles);
    r.get("sim", "timeout_seconds", c.sm.timeout_seconds);
    r.get("sim", "memcheck", c.sm.memcheck);
    r.get("sim", "racecheck", c.sm.racecheck);
    r.get("sim", "racecheck_shadow_mib", c.sm.racecheck_shadow_mib);
    std::string memory_model = "sc";
    r.get("sim", "memory_model", memory_model);
    r.require(memory_model == "sc" || memory_model == "relaxed",
              fmt::format("sim.memory_model must be \"sc\" or \"relaxed\", got \"{}\"", memory_model));
    c.sm.relaxed = memory_model == "relaxed";
    r.get("sim", "memory_seed", c.sm.stores.seed);
    r.get("sim", "store_buffer_entries", c.sm.stores.entries);
    r.get("sim", "store_max_delay", c.sm.stores.max_delay);
    r.get("sim", "invalidation_entries", c.sm.stores.stale_entries);
    r.get("sim", "load_max_delay", c.sm.stores.load_max_delay);
    r.require(c.sm.stores.entries >= 1 && c.sm.stores.stale_entries >= 1, "sim.store_buffer_entries and sim.invalidation_entries must be at least 1");
    std::string sfu_approx = "hardware";  // a missing key is reported once, by get()
    r.get("sfu", "approx", sfu_approx);
    r.require(sfu_approx == "hardware" || sfu_approx == "ideal",
              fmt::format("sfu.approx must be \"hardware\" or \"ideal\", got \"{}\"", sfu_approx));
    c.sm.sfu_ideal = sfu_approx == "ideal";
    read_timing(r, c);
    r.check_unknown();
    r.require(c.num_sms >= 1, "chip.num_sms must be at least 1");
    r.require(c.sm.timeout_seconds >= 0, "sim.timeout_seconds must not be negative");
    r.require(c.core_clock_mhz > 0, "chip.core_clock_mhz must be positive");
    r.require(c.sm.max_warps >= 1 && c.sm.max_ctas >= 1, "sm.max_warps and sm.max_ctas must be at least 1");
    r.require(c.sm.warp_schedulers >= 1, "sm.warp_schedulers must be at least 1");
    r.require(c.pcie.bandwidth_gb_s > 0 && c.pcie.burst_bytes > 0 && c.pcie.staging_gb_s > 0,
              "pcie.bandwidth_gb_s, pcie.staging_gb_s and pcie.burst_bytes must be positive");
    r.require(c.pcie.copy_engines >= 1, "pcie.copy_engines must be at least 1");
    r.require(c.channels >= 1 && c.channels <= 1024, "chip.channels must be between 1 and 1024");
    r.require(c.managed_page_bytes >= 4096 && c.managed_page_bytes <= (2u << 20) &&
                  (c.managed_page_bytes & (c.managed_page_bytes - 1)) == 0,
              "memory.managed_page_bytes must be a power of two from 4096 to 2097152");
    r.require(c.stream_priorities >= 1 && c.stream_priorities <= 256, "chip.stream_priorities must be between 1 and 256");
    r.require(c.quantum_cycles >= 1 && c.sm.warp_slice >= 1, "sim.quantum_cycles and sim.warp_slice must be at least 1");
    r.require(c.max_threads_per_block >= 1 && c.max_threads_per_block <= c.sm.max_threads,
              "chip.max_threads_per_block must be between 1 and sm.max_threads");
    r.require(c.max_grid[0] >= 1 && c.max_grid[1] >= 1 && c.max_grid[2] >= 1 && c.max_grid[0] <= 2147483647u &&
                  c.max_block[0] >= 1 && c.max_block[1] >= 1 && c.max_block[2] >= 1,
              "chip.max_grid and chip.max_block must be at least 1 in each dimension (grid x at most 2^31-1)");
    r.finish();
    c.effective = doc;
    return c;
}

uint32_t GpuConfig::host_threads() const {
    return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace gpusim
