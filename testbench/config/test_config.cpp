// Testbench of the config (rtl_models/config, and the chip's loader rtl_models/gpu/gpu_config):
// keys declared with their type, range and default check and fill a config; a config derives from
// a base and inherits its sources; --set reaches any declared key; the reference lists them all.
#define BOOST_TEST_MODULE config
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "config/config_schema.h"
#include "gpu/config_outline.h"
#include "gpu/config_reference.h"
#include "gpu/gpu_config.h"

using namespace gpusim;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Toy {
    uint32_t lanes = 0;
    double clock = 0;
    std::string policy;
    bool fast = false;
    std::array<uint32_t, 2> dims{};
    uint32_t page = 0;
};

ConfigSchema toy_schema() {
    ConfigSchema s;
    s.section("toy", {"Toy", "", "", "", nullptr});
    s.use("toy");
    ConfigSection<Toy> t(s, "toy", [](void* r) -> Toy& { return *static_cast<Toy*>(r); });
    t.key("lanes", &Toy::lanes, "lanes", "").within(1, 64);
    t.key("clock", &Toy::clock, "MHz", "").above(0);
    t.key("policy", &Toy::policy, "name", "").one_of({"lrr", "gto"}).or_default("gto");
    t.key("fast", &Toy::fast, "", "").or_default(false);
    t.key("dims", &Toy::dims, "[x, y]", "").at_least(1);
    t.key("page", &Toy::page, "bytes", "").power_of_two().within(4096, 65536);
    t.check([](const Toy& c, std::vector<std::string>& p) {
        if (c.dims[0] > c.lanes) p.push_back("toy.dims[0] must be at most toy.lanes");
    });
    return s;
}

std::vector<std::string> fill(const std::string& text, Toy& out) {
    json doc = json::parse(text);
    return toy_schema().fill(doc, &out);
}

bool has(const std::vector<std::string>& problems, const std::string& p) {
    return std::find(problems.begin(), problems.end(), p) != problems.end();
}

// A folder of config files for one test.
fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("gpusim_test_config_" + std::to_string(::getpid())) / name;
    fs::create_directories(dir);
    return dir;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

std::string error_of(const std::string& path, const std::vector<std::pair<std::string, std::string>>& sets = {}) {
    try {
        load_config(path, sets);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_CASE(declared_keys_fill_the_struct_and_defaults_fill_the_document) {
    Toy t;
    json doc = json::parse(R"({"toy": {"lanes": 16, "clock": 1401.5, "dims": [4, 8], "page": 8192}})");
    BOOST_TEST(toy_schema().fill(doc, &t).empty());
    BOOST_TEST(t.lanes == 16u);
    BOOST_TEST(t.clock == 1401.5);
    BOOST_TEST(t.policy == "gto");                     // the default
    BOOST_TEST(!t.fast);
    BOOST_TEST(t.dims[1] == 8u);
    BOOST_TEST(doc["toy"]["policy"] == "gto");         // the document now holds what was filled in
}

BOOST_AUTO_TEST_CASE(every_problem_is_named) {
    Toy t;
    const auto p = fill(R"({"toy": {"lanes": 0, "clock": -1, "policy": "fifo", "fast": 1, "dims": [1, 2, 3],
                                    "page": 5000, "colour": 2}, "extra": {}})", t);
    BOOST_TEST(has(p, "toy.lanes must be 1 to 64, got 0"));
    BOOST_TEST(has(p, "toy.clock must be > 0, got -1"));
    BOOST_TEST(has(p, "toy.policy must be \"lrr\" or \"gto\", got \"fifo\""));
    BOOST_TEST(has(p, "key 'toy.fast' has the wrong type (number)"));
    BOOST_TEST(has(p, "key 'toy.dims' must be an array of 2 non-negative integers that fit 32 bits, got [1,2,3]"));
    BOOST_TEST(has(p, "toy.page must be a power of two, 4096 to 65536, got 5000"));
    BOOST_TEST(has(p, "unknown key 'toy.colour'"));
    BOOST_TEST(has(p, "unknown key 'extra'"));
    const auto missing = fill(R"({"toy": {"lanes": 4}})", t);
    BOOST_TEST(has(missing, "missing key 'toy.clock'"));
    BOOST_TEST(!has(missing, "missing key 'toy.policy'"));   // it has a default
    const auto negative = fill(R"({"toy": {"lanes": -4, "clock": 1, "dims": [1, 1], "page": 4096}})", t);
    BOOST_TEST(has(negative, "key 'toy.lanes' must be a non-negative integer that fits 32 bits, got -4"));
}

BOOST_AUTO_TEST_CASE(checks_across_keys_run_after_each_key) {
    Toy t;
    const auto p = fill(R"({"toy": {"lanes": 2, "clock": 1, "dims": [4, 1], "page": 4096}})", t);
    BOOST_REQUIRE(p.size() == 1u);
    BOOST_TEST(p[0] == "toy.dims[0] must be at most toy.lanes");
}

BOOST_AUTO_TEST_CASE(a_key_states_its_range_and_default_in_words) {
    const ConfigSchema s = toy_schema();
    BOOST_TEST(s.find("toy.lanes")->range() == "1 to 64");
    BOOST_TEST(s.find("toy.clock")->range() == "> 0");
    BOOST_TEST(s.find("toy.policy")->range() == "lrr or gto");
    BOOST_TEST(s.find("toy.page")->range() == "a power of two, 4096 to 65536");
    BOOST_TEST(s.find("toy.policy")->required() == false);
    BOOST_TEST(s.find("toy.lanes")->required());
    BOOST_TEST(s.is_prefix("toy"));
    BOOST_TEST(!s.is_prefix("toy.lanes"));
    ConfigSchema twice;
    twice.section("a", {"A", "", "", "", nullptr});
    BOOST_CHECK_THROW(twice.section("a", {"A", "", "", "", nullptr}), std::logic_error);
    BOOST_CHECK_THROW(twice.use("b"), std::logic_error);
}

BOOST_AUTO_TEST_CASE(the_bundled_configs_load_and_derive) {
    const auto names = bundled_configs();
    BOOST_REQUIRE(names.size() >= 4u);
    BOOST_TEST(names.front() == "tesla-g80");
    const GpuConfig gf100 = load_config("fermi-gf100"), gk110 = load_config("kepler-gk110");
    // GK110 states what differs from its base, GF100, and inherits the rest.
    BOOST_TEST(gk110.sm.warp_schedulers == 4u);
    BOOST_TEST(gk110.sm.timing.smem.banks == gf100.sm.timing.smem.banks);
    BOOST_TEST(gk110.name == "kepler-gk110");
    // Its own source for a value it states; the base's for one it inherits.
    BOOST_TEST(gk110.sources.contains("chip.num_sms"));
    BOOST_TEST(gk110.sources["chip.num_sms"] != gf100.sources["chip.num_sms"]);
    BOOST_TEST(gk110.sources["smem.banks"] == gf100.sources["smem.banks"]);
    // Derived values: the bandwidth per channel and cycle, the least latency beyond the SM.
    BOOST_TEST(gf100.dram.bytes_per_cycle == gf100.dram.bandwidth_gb_s * 1000.0 / gf100.core_clock_mhz / gf100.dram.channels);
    BOOST_TEST(gf100.sm.timing.ldst.min_request_latency == gf100.l2.cache.latency);
    const GpuConfig g80 = load_config("tesla-g80");   // no L2: device memory's latency
    BOOST_TEST(g80.sm.timing.ldst.min_request_latency == g80.dram.latency);
    // Defaults fill the simulator's knobs the files leave out.
    BOOST_TEST(gf100.effective["sim"]["warp_slice"] == 64);
}

BOOST_AUTO_TEST_CASE(a_derived_config_states_only_what_differs) {
    const fs::path dir = scratch("derive");
    write(dir / "base.json", R"({"name": "base", "description": "b", "base": "fermi-gf100",
                                 "chip": {"num_sms": 4}, "sources": {"chip.num_sms": "four", "sm.max_ctas": "eight"}})");
    write(dir / "mine.json", R"({"name": "mine", "description": "m", "base": "base.json",
                                 "sm": {"max_ctas": 16}, "sources": {"sm.max_warps": "ours"}})");
    const GpuConfig c = load_config((dir / "mine.json").string());
    BOOST_TEST(c.name == "mine");
    BOOST_TEST(c.num_sms == 4u);                      // from its base
    BOOST_TEST(c.sm.max_ctas == 16u);                 // its own
    BOOST_TEST(c.sm.registers == 32768u);             // from the base's base
    BOOST_TEST(c.sources["chip.num_sms"] == "four");
    BOOST_TEST(!c.sources.contains("sm.max_ctas"));   // it states the value: the base's source is not its
    BOOST_TEST(c.sources["sm.max_warps"] == "ours");
    // A derived config's own name and description are required.
    write(dir / "nameless.json", R"({"base": "fermi-gf100"})");
    const std::string e = error_of((dir / "nameless.json").string());
    BOOST_TEST(e.find("missing key 'name'") != std::string::npos);
    BOOST_TEST(e.find("missing key 'description'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_bases_and_sources_are_errors) {
    const fs::path dir = scratch("bad");
    write(dir / "loop.json", R"({"name": "loop", "description": "", "base": "loop.json"})");
    BOOST_TEST(error_of((dir / "loop.json").string()).find("config bases nest too deep") != std::string::npos);
    write(dir / "lost.json", R"({"name": "lost", "description": "", "base": "no-such-config"})");
    BOOST_TEST(error_of((dir / "lost.json").string()).find("no-such-config.json: error: cannot open config file") != std::string::npos);
    write(dir / "src.json", R"({"name": "s", "description": "", "base": "fermi-gf100",
                               "sources": {"chip.colour": "x", "ops.sfu": "y", "sm.max_warps": 3}})");
    const std::string e = error_of((dir / "src.json").string());
    BOOST_TEST(e.find("sources: unknown key 'chip.colour'") != std::string::npos);
    BOOST_TEST(e.find("ops.sfu") == std::string::npos);   // a group of keys is a valid source key
    BOOST_TEST(e.find("sources: 'sm.max_warps' must be a text") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(set_reaches_every_declared_key) {
    const GpuConfig c = load_config("fermi-gf100", {{"ops.sfu.latency", "99"}, {"sim.mode", "timing"},
                                                     {"chip.compute_capability", "7.5"}, {"sim.memcheck", "true"}});
    BOOST_TEST(c.sm.timing.ops[int(OpClass::Sfu)].latency == 99u);
    BOOST_TEST(c.sm.timing.enabled);
    BOOST_TEST(c.compute_capability == "7.5");        // a text key takes the text as written
    BOOST_TEST(c.sm.checks.memcheck);
    BOOST_TEST(error_of("fermi-gf100", {{"chip.colour", "1"}}).find("--set: unknown config key 'chip.colour'") != std::string::npos);
    BOOST_TEST(error_of("fermi-gf100", {{"sim.memcheck", "1"}}) == "--set sim.memcheck=1: expected a boolean value");
    BOOST_TEST(error_of("fermi-gf100", {{"sm.max_warps", "0"}}).find("sm.max_warps must be ≥ 1, got 0") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_reference_lists_every_key_and_config) {
    const std::string doc = config_reference();
    for (const ConfigKey& k : config_schema().keys()) {
        if (k.name.rfind("ops.", 0) == 0 || k.name.rfind("pipes.", 0) == 0) continue;   // a row per class or pipe
        BOOST_TEST(doc.find("`" + k.name + "`") != std::string::npos, k.name);
    }
    for (const char* row : {"| `int_add` |", "| `fp64` |", "`ops.<class>.latency`", "`pipes.<pipe>.lanes`"})
        BOOST_TEST(doc.find(row) != std::string::npos, row);
    for (const char* column : {"| G80 |", "| GT200 |", "| GF100 |", "| GK110 |"})
        BOOST_TEST(doc.find(column) != std::string::npos, column);
}
