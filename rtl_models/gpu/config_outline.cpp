// The parts of the config reference (docs/config.md), in order: each part's title and prose. The
// keys themselves are declared by their units (gpu_keys.cpp assigns them to these parts).
#include "gpu/config_outline.h"

#include <fmt/format.h>

#include "config/config_schema.h"

namespace gpusim {

namespace {

// A row of ops.<class>: "alu 1 / 22" (pipe, interval / latency).
std::string op_cell(const nlohmann::json& g) {
    const auto num = [&](const char* k) { return g.contains(k) ? g[k].dump() : std::string("?"); };
    return fmt::format("{} {} / {}", g.value("pipe", std::string("?")), num("interval"), num("latency"));
}

// A row of pipes.<pipe>: lanes, "×sched" when each scheduler has its copy, "excl." when exclusive.
std::string pipe_cell(const nlohmann::json& g) {
    std::string s = g.contains("lanes") ? g["lanes"].dump() : "?";
    if (g.value("per_scheduler", false)) s += " ×sched";
    if (g.value("exclusive", false)) s += " excl.";
    return s;
}

} // namespace

void declare_outline(ConfigSchema& schema) {
    schema.section("identity", {"Identification", "", "", "", nullptr});
    schema.section("chip", {"Chip (`chip.*`)",
                            "The SM array, the launch limits and the command processor.", "", "", nullptr});
    schema.section("cuda", {"What CUDA reports (`cuda.*`)",
                            "Values a program reads through `cudaGetDeviceProperties` and `cudaDeviceGetAttribute` that no "
                            "unit of the model uses (yet: the texture unit will check its limits). A layered limit is "
                            "[width, layers]; 0 means the generation lacks the feature. [cudart.md](cudart.md) says how every "
                            "attribute is answered.",
                            "", "", nullptr});
    schema.section("memory", {"Device memory (`memory.*`)",
                              "The device memory the runtime allocates from, as CUDA reports it. Its timing in timing mode is "
                              "the device memory controllers' (`dram.*`).",
                              "", "", nullptr});
    schema.section("pcie", {"Host link and copy engines (`pcie.*`)",
                            "[host_link.md](host_link.md) describes the modules these keys drive.", "", "", nullptr});
    schema.section("sm", {"Streaming multiprocessor (`sm.*`)",
                          "These feed `SmCore::occupancy_limit`. CTAs per SM = min(`max_ctas`, ⌊`max_warps` / warps per "
                          "CTA⌋, ⌊`max_threads` / threads per CTA⌋, ⌊`registers` / (min(regs/thread, `max_regs_per_thread`) "
                          "× 32 × warps per CTA)⌋, ⌊`shared_bytes` / shared per CTA⌋). It is at least 1: a CTA that fits "
                          "none of these still runs alone.",
                          "regs/thread is `sm.register_estimate`'s: the PTX virtual registers the kernel declares, with "
                          "64-bit registers counting as 2 (`declared`, several times ptxas's allocation), or the most "
                          "words live at once (`live`, close to it: docs/correlation.md), at least `register_floor`, "
                          "rounded up to `register_granularity`. `gpusim check --resources` prints both for each kernel.",
                          "", nullptr});
    schema.section("sim", {"How the simulation runs (`sim.*`)",
                           "These control how the simulator runs, not what hardware it models; none has a hardware "
                           "counterpart, and every one has a default.",
                           "", "", nullptr});
    schema.section("checks", {"Checks (`sim.memcheck`, `sim.racecheck`)", "[checks.md](checks.md) describes both.", "", "",
                              nullptr});
    schema.section("memory_model", {"Memory model (`sim.memory_model` and the store buffer)",
                                    "The relaxed model's knobs are model choices ([memory_model.md](memory_model.md)).", "",
                                    "", nullptr});
    schema.section("scheduler", {"Warp schedulers (`scheduler.*`)",
                                 "The timing model reads these and the keys below in every config, also in functional mode "
                                 "(they are validated either way). [timing.md](timing.md) describes what each unit does with "
                                 "them.",
                                 "", "", nullptr});
    schema.section("pipes", {"Pipes (`pipes.<pipe>.*`)",
                             "Each pipe: lanes per copy, `×sched` when each warp scheduler has its own copy, `excl.` when "
                             "exclusive.",
                             "", "Pipe", pipe_cell});
    schema.section("ops", {"Operation classes (`ops.<class>.*`)",
                           "Each class: its pipe, interval / latency. Which PTX instructions fall in each class: "
                           "`rtl_models/isa/op_class.h`.",
                           "", "Class", op_cell});
    schema.section("sfu", {"Special function unit (`sfu.*`)", "", "", "", nullptr});
    schema.section("smem", {"Shared memory (`smem.*`)", "", "", "", nullptr});
    schema.section("ccache", {"Constant cache (`ccache.*`)", "", "", "", nullptr});
    schema.section("tex", {"Texture cache (`tex.*`)",
                           "Per SM, on the path of `tex`, `tld4` and the surface instructions to the L2 (timing mode only).",
                           "", "", nullptr});
    schema.section("ldst", {"LD/ST unit and L1 (`memory.coalescing`, `memory.transaction_cycles`, `l1.*`)", "", "", "",
                            nullptr});
    schema.section("l2", {"L2 cache (`l2.*`)", "", "", "", nullptr});
    schema.section("dram", {"Device memory controllers (`dram.*`)", "", "", "", nullptr});
    schema.section("barrier", {"Barriers (`barrier.*`)", "", "", "", nullptr});
}

} // namespace gpusim
