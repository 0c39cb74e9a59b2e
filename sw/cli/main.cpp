// gpusim: runs launch manifests on the GPU model, checks PTX modules, and benchmarks the simulator.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <systemc>

#include "cli/bench_copies.h"
#include "cli/bench_table.h"
#include "cli/child_process.h"
#include "cli/config_command.h"
#include "cli/junit.h"
#include "cli/microbench.h"
#include "cli/run_slurm.h"
#include "cli/sweep.h"
#include "loader/loader.h"
#include "ptx/parser.h"
#include "runtime/console_reports.h"
#include "runtime/manifest.h"
#include "runtime/profile_summary.h"

using namespace gpusim;
namespace fs = std::filesystem;

namespace {

struct Options {
    std::string config;                   // overrides the manifest's config when set
    std::vector<std::string> sets;
    std::string mode;                     // empty: the config's sim.mode
    std::string timeout;                  // host seconds per launch: --set sim.timeout_seconds
    std::string threads;                  // host threads: --set sim.threads
    bool memcheck = false;                // --set sim.memcheck=true
    bool racecheck = false;               // --set sim.racecheck=true
    std::vector<std::string> manifests;
    std::string known;               // JSON file: launches whose mismatch is a documented difference
    std::string dump;                // folder for the buffers that differ from their references
    std::string stats;               // JSON file for the statistics of every unit
    std::string junit;               // JUnit XML file: a test case per manifest launch
    std::string trace;               // timeline file (Chrome trace-event JSON)
    uint64_t trace_interval = 1000;  // cycles between the timeline's counter samples
    VcdOptions vcd;                  // waveform file (VCD) and the signals it records
    bool summary = false, no_summary = false;   // the per-kernel summary (default: in timing mode)
    bool slurm = false;              // run the manifests as one Slurm job array
    std::string partition;           // its partition
    std::string junit_record;        // (internal) the JUnit record of a run, for the --slurm caller
    bool quiet = false;
};

// The options a run passes on to each manifest's run of a Slurm job array.
std::vector<std::string> forwarded(const Options& o) {
    std::vector<std::string> a;
    auto option = [&](const char* name, const std::string& value) {
        if (!value.empty()) a.insert(a.end(), {name, value});
    };
    option("--config", o.config);
    for (const std::string& s : o.sets) option("--set", s);
    option("--mode", o.mode);
    option("--timeout", o.timeout);
    option("--threads", o.threads);
    option("--known", o.known);
    option("--dump", o.dump);
    if (o.memcheck) a.push_back("--memcheck");
    if (o.racecheck) a.push_back("--racecheck");
    if (o.summary) a.push_back("--summary");
    if (o.no_summary) a.push_back("--no-summary");
    return a;
}

// Known differences: {"cases": {"kernel": "why the model differs from the reference", ...}}. A
// listed kernel's mismatch is reported as KNOWN and does not fail the run; a listed kernel that
// matches is reported too, so the list cannot go stale silently.
std::map<std::string, std::string> load_known(const std::string& path) {
    std::map<std::string, std::string> out;
    if (path.empty()) return out;
    std::ifstream f(path);
    if (!f) throw std::runtime_error(fmt::format("{}: error: cannot open known-differences file", path));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(f);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: error: invalid JSON: {}", path, e.what()));
    }
    if (!j.is_object() || !j.contains("cases") || !j["cases"].is_object())
        throw std::runtime_error(fmt::format("{}: error: expected {{\"cases\": {{\"kernel\": \"reason\", ...}}}}", path));
    for (auto& [k, v] : j["cases"].items()) {
        if (!v.is_string() || v.get<std::string>().empty()) throw std::runtime_error(fmt::format("{}: error: case \"{}\" needs a reason", path, k));
        out[k] = v.get<std::string>();
    }
    return out;
}

// Moves the failures of known kernels out of the outcome; returns a line per known kernel.
std::vector<std::string> apply_known(ManifestOutcome& r, const std::map<std::string, std::string>& known) {
    std::vector<std::string> lines;
    if (known.empty()) return lines;
    std::vector<std::string> failures, kernels;
    std::set<std::string> differed;
    for (size_t k = 0; k < r.failures.size(); ++k) {
        const std::string& kernel = k < r.failed_kernels.size() ? r.failed_kernels[k] : "";
        if (known.count(kernel)) { differed.insert(kernel); continue; }
        failures.push_back(r.failures[k]);
        kernels.push_back(kernel);
    }
    for (auto& [kernel, why] : known)
        lines.push_back(fmt::format("{} {}: {}", differed.count(kernel) ? "known difference" : "MATCHES NOW (remove it from the known list)", kernel, why));
    r.failures = failures;
    r.failed_kernels = kernels;
    r.passed = failures.empty();
    return lines;
}

// --mode, --timeout, --threads, --memcheck and --racecheck are shorthands for --set sim.mode=...,
// sim.timeout_seconds=..., sim.threads=..., sim.memcheck=true and sim.racecheck=true; explicit
// --set entries come after them and win.
std::vector<std::pair<std::string, std::string>> parse_sets(const Options& o) {
    auto out = parse_overrides(o.sets);
    if (!o.threads.empty()) out.insert(out.begin(), {"sim.threads", o.threads});
    if (o.racecheck) out.insert(out.begin(), {"sim.racecheck", "true"});
    if (o.memcheck) out.insert(out.begin(), {"sim.memcheck", "true"});
    if (!o.timeout.empty()) out.insert(out.begin(), {"sim.timeout_seconds", o.timeout});
    if (!o.mode.empty()) out.insert(out.begin(), {"sim.mode", o.mode});
    return out;
}

std::string short_name(const std::string& manifest) {
    fs::path p(manifest);
    std::string stem = p.stem().string();
    return stem == "manifest" ? p.parent_path().filename().string() : stem;
}

// One JSON document: the run's totals, the effective config, a digest of each buffer after the run and
// every unit's statistics.
void write_stats(const std::string& file, const std::string& manifest, const GpuConfig& cfg, const ManifestOutcome& r,
                 const nlohmann::json& units, const std::vector<KernelProfile>& kernels, nlohmann::json sampling) {
    const LaunchStats& t = r.totals;
    nlohmann::json doc;
    doc["manifest"] = manifest;
    doc["config"] = cfg.effective;
    doc["totals"] = {{"cycles", t.cycles}, {"warp_instructions", t.warp_instructions},
                     {"thread_instructions", t.thread_instructions}, {"host_seconds", t.host_seconds}};
    doc["buffers"] = r.digests;
    doc["gpu"] = units;
    nlohmann::json& launches = doc["kernels"] = nlohmann::json::array();
    for (const KernelProfile& k : kernels) launches.push_back(k.metrics());
    if (!sampling.is_null()) doc["sampling"] = std::move(sampling);
    std::ofstream out(file);
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write the statistics file", file));
    out << doc.dump(2) << "\n";
}

// Exit codes, one per kind of outcome; a run of several manifests exits with the most severe.
enum Exit : int {
    kPass = 0,
    kMismatch = 1,     // a comparison with a reference failed
    kUsage = 2,        // an error outside any manifest (the command line)
    kBadInput = 3,     // the manifest, the config, --set, a PTX module or a launch is invalid
    kDeviceFault = 4,  // a kernel faulted: memory, trap, assert, a bad call
    kHang = 5,         // the watchdog stopped a kernel that did not end (sim.max_cycles)
    kCrash = 6,        // the simulator itself died: a bug to report
    kRace = 7,         // --racecheck found hazards (the run finished)
};

// How bad an outcome is, for the exit code of a run of several manifests: a race ranks above a
// mismatch (it may be its cause) and below every failure to run.
int severity(int rc) {
    static constexpr int kOrder[] = {kPass, kMismatch, kRace, kUsage, kBadInput, kDeviceFault, kHang, kCrash};
    for (int k = 0; k < int(std::size(kOrder)); ++k)
        if (kOrder[k] == rc) return k;
    return int(std::size(kOrder));
}

int exit_of(const RuntimeError& e) {
    if (e.code() == Error::LaunchTimeout) return kHang;
    return e.sticky() ? kDeviceFault : kBadInput;
}

// The JUnit record of a manifest's launches (junit.h); `known` marks the expected differences.
void record_launches(JunitRecord& rec, const ManifestOutcome& r, const std::map<std::string, std::string>& known) {
    JunitRecord& launches = rec["launches"] = JunitRecord::array();
    for (const LaunchOutcome& l : r.per_launch) {
        JunitRecord j = {{"kernel", l.kernel}, {"finished", l.finished}, {"cycles", l.stats.cycles},
                         {"warp_instructions", l.stats.warp_instructions}, {"seconds", l.stats.host_seconds},
                         {"failures", l.failures}};
        if (auto it = known.find(l.kernel); it != known.end() && !l.failures.empty()) j["known"] = it->second;
        launches.push_back(std::move(j));
    }
}

// A manifest's JUnit record before (or without) any launch.
JunitRecord bare_record(const Options& o, const std::string& path, int exit, const std::string& error) {
    JunitRecord rec = {{"suite", short_name(path)}, {"manifest", path}, {"config", o.config}, {"mode", o.mode},
                       {"exit", exit}, {"launches", JunitRecord::array()}};
    if (!error.empty()) rec["error"] = error;
    return rec;
}

// Runs one manifest in this process; returns one of Exit, and describes the run in `rec`.
int run_one(const Options& o, const std::string& path, bool bench, JunitRecord& rec) {
    rec = bare_record(o, path, kPass, "");
    ManifestOutcome r;
    std::map<std::string, std::string> known;
    try {
        Manifest m = load_manifest(path);
        GpuConfig cfg = load_config(o.config.empty() ? m.config : o.config, parse_sets(o));
        rec["config"] = cfg.name;
        rec["mode"] = cfg.sm.timing.enabled ? "timing" : "functional";
        Runtime rt(cfg, o.vcd);
        known = load_known(o.known);
        const bool summary = !bench && !o.no_summary && (o.summary || cfg.sm.timing.enabled);
        if (summary || !o.stats.empty()) rt.enable_profiling();
        if (!o.trace.empty()) rt.enable_trace(o.trace, o.trace_interval);
        if (!bench) rt.enable_progress_if_wanted();
        run_manifest(rt, m, r, o.dump, !o.stats.empty());
        record_launches(rec, r, known);
        std::vector<std::string> known_lines = bench ? std::vector<std::string>{} : apply_known(r, known);
        const LaunchStats& t = r.totals;
        if (!o.stats.empty()) write_stats(o.stats, path, cfg, r, rt.unit_stats(), rt.kernel_profiles(), rt.sampling_report());
        rt.finish_waveform();
        if (bench) {
            double s = t.host_seconds > 0 ? t.host_seconds : 1e-9;
            fmt::print("{:<14} {:>12} {:>14} {:>9.3f} {:>10.2f} {:>10.1f}\n", short_name(path), t.warp_instructions,
                       t.thread_instructions, t.host_seconds, t.warp_instructions / s / 1e6, t.thread_instructions / s / 1e6);
        } else {
            fmt::print("{:<6} {:<14} {:>8} {:>12} {:>14} {:>9.3f}\n", r.passed ? "PASS" : "FAIL", short_name(path), t.cycles,
                       t.warp_instructions, t.thread_instructions, t.host_seconds);
            for (const auto& f : r.failures) fmt::print("       {}\n", f);
            for (const auto& k : known_lines) fmt::print("       {}\n", k);
            if (summary) fmt::print("{}", profile_summaries(rt.kernel_profiles()));
        }
        std::fflush(stdout);
        if (const uint64_t hazards = rt.race_hazards()) {
            fmt::print(stderr, "racecheck: {} hazard{} found in {}\n", hazards, hazards == 1 ? "" : "s", path);
            rec["hazards"] = hazards;
            rec["exit"] = int(kRace);
            return kRace;
        }
        rec["exit"] = int(r.passed ? kPass : kMismatch);
        return r.passed ? kPass : kMismatch;
    } catch (const std::exception& e) {
        std::fflush(stdout);
        fmt::print(stderr, "{}\n", e.what());
        if (!bench) fmt::print("{:<6} {:<14}\n", "ERROR", short_name(path));
        std::fflush(stdout);
        const auto* runtime = dynamic_cast<const RuntimeError*>(&e);
        const int rc = runtime ? exit_of(*runtime) : kBadInput;
        record_launches(rec, r, known);
        rec["exit"] = rc;
        rec["error"] = e.what();
        return rc;
    }
}

// SystemC elaborates once per process, so each manifest runs in a child process of its own. With
// --junit the child hands its record back through a file beside the report.
int run_isolated(const Options& o, const std::string& path, bool bench, JunitRecord& rec) {
    std::fflush(stdout);
    std::fflush(stderr);
    const std::string handoff = o.junit.empty() ? "" : fmt::format("{}.{}.part", o.junit, getpid());
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        int rc = run_one(o, path, bench, rec);
        if (!handoff.empty()) std::ofstream(handoff) << rec.dump();
        std::fflush(stdout);
        _exit(rc);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!handoff.empty()) {
        std::ifstream in(handoff);
        rec = JunitRecord::parse(in, nullptr, false);
        std::filesystem::remove(handoff);
    }
    if (WIFEXITED(status)) {
        if (!rec.is_object()) rec = bare_record(o, path, WEXITSTATUS(status), "the run left no report");
        return WEXITSTATUS(status);
    }
    const std::string crash = fmt::format("crashed with signal {}", WTERMSIG(status));
    fmt::print("{:<6} {:<14} ({})\n", "ERROR", short_name(path), crash);
    rec = bare_record(o, path, kCrash, "the simulator " + crash);
    return kCrash;
}

// One point of the bench table: the manifest in `mode` on `threads` host threads, in a child
// process (SystemC elaborates once per process) that hands its totals back through a pipe.
BenchPoint bench_point(Options o, const std::string& path, const std::string& mode, uint32_t threads) {
    o.mode = mode;
    o.threads = std::to_string(threads);
    const auto start = std::chrono::steady_clock::now();
    const std::string bytes = run_in_child([&] {
        BenchPoint p;
        try {
            Manifest m = load_manifest(path);
            GpuConfig cfg = load_config(o.config.empty() ? m.config : o.config, parse_sets(o));
            Runtime rt(cfg, o.vcd);
            ManifestOutcome r;
            run_manifest(rt, m, r, "");
            p = BenchPoint{r.passed, r.totals.warp_instructions, r.totals.thread_instructions, r.totals.host_seconds};
            if (!r.passed)
                for (const auto& f : r.failures) fmt::print(stderr, "{} ({}, {} threads): {}\n", short_name(path), mode, threads, f);
        } catch (const std::exception& e) {
            fmt::print(stderr, "{} ({}, {} threads): {}\n", short_name(path), mode, threads, e.what());
        }
        return std::string(reinterpret_cast<const char*>(&p), sizeof p);
    });
    BenchPoint p;
    if (bytes.size() == sizeof p) std::memcpy(&p, bytes.data(), sizeof p);
    p.process_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return p;
}

int run_all(const Options& o, bool bench) {
    if (!o.mode.empty() && o.mode != "functional" && o.mode != "timing")
        throw std::runtime_error(fmt::format("--mode {}: expected functional or timing", o.mode));
    if (!o.stats.empty() && o.manifests.size() != 1)
        throw std::runtime_error("--stats writes one manifest's statistics: give exactly one manifest");
    if (!o.trace.empty() && o.manifests.size() != 1)
        throw std::runtime_error("--trace writes one manifest's timeline: give exactly one manifest");
    if (!o.vcd.path.empty() && o.manifests.size() != 1)
        throw std::runtime_error("--vcd writes one manifest's waveform: give exactly one manifest");
    if (o.slurm && (!o.stats.empty() || !o.trace.empty() || !o.vcd.path.empty()))
        throw std::runtime_error("--slurm runs each manifest on a node: --stats, --trace and --vcd are for a run here");
    if (bench)
        fmt::print("{:<14} {:>12} {:>14} {:>9} {:>10} {:>10}\n", "kernel", "warp-insts", "thread-insts", "host-s",
                   "Mwinst/s", "Mtinst/s");
    else
        fmt::print("{:<6} {:<14} {:>8} {:>12} {:>14} {:>9}\n", "result", "kernel", "cycles", "warp-insts", "thread-insts", "host-s");
    int passed = 0, failed = 0, worst = kPass;
    std::vector<JunitRecord> records;
    auto count = [&](int rc, JunitRecord rec) {
        (rc == kPass ? passed : failed)++;
        if (severity(rc) > severity(worst)) worst = rc;
        records.push_back(std::move(rec));
    };
    if (o.slurm) {
        const std::vector<SlurmRun> runs = run_on_slurm(forwarded(o), o.manifests, o.partition);
        for (size_t k = 0; k < runs.size(); ++k) {
            if (runs[k].exit < 0) {
                fmt::print("{:<6} {:<14} (did not run on Slurm)\n", "ERROR", short_name(o.manifests[k]));
                count(kCrash, bare_record(o, o.manifests[k], kCrash, "the Slurm task did not run"));
                continue;
            }
            fmt::print("{}", runs[k].rows);
            count(runs[k].exit, runs[k].record.is_object() ? runs[k].record
                                                          : bare_record(o, o.manifests[k], runs[k].exit, "the run left no report"));
        }
    }
    for (const auto& m : o.slurm ? std::vector<std::string>{} : o.manifests) {
        JunitRecord rec;
        const int rc = o.manifests.size() == 1 ? run_one(o, m, bench, rec) : run_isolated(o, m, bench, rec);
        count(rc, std::move(rec));
    }
    if (!bench) fmt::print("{} passed, {} failed\n", passed, failed);
    if (!o.junit.empty()) {
        std::ofstream out(o.junit);
        out << junit_xml(records);
        if (!out) throw std::runtime_error(fmt::format("{}: cannot write the JUnit report", o.junit));
    }
    if (!o.junit_record.empty() && records.size() == 1) std::ofstream(o.junit_record) << records[0].dump() << "\n";
    return worst;
}

// Each kernel's resources, as ptxas -v reports them: registers per thread (the PTX's virtual
// registers, and the most live at once: sm.register_estimate), shared and local memory.
void print_resources(const ptx::Module& mod) {
    const loader::VariableAddresses addresses(mod.globals.size(), 0);
    for (const auto& fn : mod.functions) {
        if (!fn.is_entry) continue;
        const auto img = loader::decode_kernel(mod, fn, addresses);
        const std::string live = img->live_regs_per_thread ? std::to_string(img->live_regs_per_thread) : "-";
        fmt::print("{}: {}: registers: {} declared, {} live; shared {} bytes; local {} bytes\n", mod.file, fn.name,
                   img->regs_per_thread, live, img->static_shared_bytes, img->local_bytes);
    }
}

int check(const std::vector<std::string>& files, bool resources) {
    int bad = 0;
    for (const auto& f : files) {
        try {
            ptx::Module mod = ptx::parse_file(f);
            auto errors = loader::check_module(mod);
            for (const auto& e : errors) fmt::print("{}\n", e.what());
            if (errors.empty()) fmt::print("{}: every instruction is supported\n", f);
            if (errors.empty() && resources) print_resources(mod);
            bad += errors.empty() ? 0 : 1;
        } catch (const std::exception& e) {
            fmt::print("{}\n", e.what());
            ++bad;
        }
    }
    return bad ? 1 : 0;
}

std::vector<std::string> default_bench() {
    std::vector<std::string> out;
    fs::path dir = fs::path(GPUSIM_CONFIG_DIR) / ".." / ".." / "regress" / "bench";
    if (fs::exists(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".json") out.push_back(fs::weakly_canonical(e.path()).string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

int sc_main(int argc, char** argv) {
    use_console_reports();
    CLI::App app{"gpusim: a SystemC/TLM-2.0 model of a Fermi-class GPU that runs PTX kernels"};
    app.require_subcommand(1);
    Options o;
    std::vector<std::string> ptx_files;

    auto add_common = [&](CLI::App* c) {
        c->add_option("--config", o.config, "GPU config name or JSON file (default: the manifest's, else fermi-gf100)");
        c->add_option("--set", o.sets, "override a config parameter, e.g. --set sm.warp_schedulers=4 (repeatable)")
            ->allow_extra_args(false);
        c->add_option("--mode", o.mode, "functional or timing (default: the config's sim.mode)");
        c->add_option("--timeout", o.timeout, "stop a kernel after this many host seconds (sim.timeout_seconds)");
        c->add_option("--threads", o.threads, "host threads for the SMs (both modes), 0 for one per core (sim.threads; default 0)");
        c->add_option("--stats", o.stats, "write every unit's statistics to this JSON file (one manifest)");
        c->add_flag("--memcheck", o.memcheck, "check every global access against its allocation's exact bounds (sim.memcheck)");
        c->add_flag("--racecheck", o.racecheck, "report shared- and global-memory races (sim.racecheck)");
    };
    CLI::App* run = app.add_subcommand("run", "run launch manifests, compare outputs with references");
    add_common(run);
    run->add_flag("--summary", o.summary, "print each kernel's performance summary (default in timing mode)");
    run->add_flag("--no-summary", o.no_summary, "do not print the performance summaries");
    run->add_option("manifests", o.manifests, "manifest files")->required()->check(CLI::ExistingFile);
    run->add_option("--known", o.known, "JSON file of launches whose mismatch is a documented difference")
        ->check(CLI::ExistingFile);
    run->add_option("--trace", o.trace, "write a timeline of the run for ui.perfetto.dev (Chrome trace-event JSON; one manifest)");
    run->add_option("--trace-interval", o.trace_interval, "cycles between the timeline's counter samples (default 1000)")
        ->check(CLI::PositiveNumber);
    run->add_option("--vcd", o.vcd.path, "write the chosen unit signals as a waveform for GTKWave (FILE.vcd; timing mode, one manifest)");
    CLI::Option* vcd_signals = run->add_option("--vcd-signals", o.vcd.signals,
        "signals for --vcd: comma-separated globs such as 'sm_0.*,l2.queue' (default '*'; docs/profiling.md)");
    run->add_flag("--slurm", o.slurm, "run the manifests as one Slurm job array (one run per manifest), then report as here");
    run->add_option("--partition", o.partition, "with --slurm: the partition (default: the cluster's)");
    run->add_option("--junit-record", o.junit_record, "")->group("");   // internal: a --slurm task's JUnit record
    run->add_option("--junit", o.junit, "write a JUnit XML report: a test suite per manifest, a test case per launch");
    run->add_option("--dump", o.dump, "write each buffer that differs from its reference into this folder");
    CLI::App* bench = app.add_subcommand("bench", "measure simulated instructions per host second");
    add_common(bench);
    bench->add_option("manifests", o.manifests, "manifest files (default: regress/bench/*.json)")->check(CLI::ExistingFile);
    uint32_t repeat = 1;
    bench->add_option("--repeat", repeat, "without --mode and --threads: run each point this many times and keep the fastest (default 1)")
        ->check(CLI::PositiveNumber);
    uint64_t copy_mib = 256;
    bool copies_only = false;
    bench->add_option("--copy-mib", copy_mib, "without --mode and --threads: the size of each copy of the copy table (default 256; 0 leaves the table out)");
    bench->add_flag("--copies-only", copies_only, "only the copy table: each kind of copy's host throughput");
    CLI::App* mb = app.add_subcommand("microbench", "run the timing microbenchmarks and compare them with published figures");
    std::string mb_suite, mb_table;
    std::vector<std::string> mb_configs;
    mb->add_option("suite", mb_suite, "microbenchmark suite (regress/microbench/microbench.json)")->required()->check(CLI::ExistingFile);
    mb->add_option("--config", mb_configs, "configs to run (default: those the suite names)");
    mb->add_option("--table", mb_table, "also write the results as a Markdown table to this file");
    mb->add_option("--set", o.sets, "override a config parameter in every config (repeatable)");
    CLI::App* sw = app.add_subcommand("sweep", "run a design-space sweep: config parameters over workloads, with a CSV, plots and a report");
    sweep::Options so;
    sw->add_option("spec", so.spec, "sweep spec (JSON; docs/sweeps.md)")->check(CLI::ExistingFile);
    sw->add_option("-j,--jobs", so.jobs, "points run at once (default 1)")->check(CLI::PositiveNumber);
    sw->add_option("-o,--out", so.out, "results folder (default: sweep-NAME beside the spec)");
    sw->add_flag("!--no-plots", so.plots, "skip the plots (python3-matplotlib)");
    sw->add_flag("--slurm", so.slurm, "run the points as one Slurm job array (sbatch --array)");
    sw->add_option("--partition", so.partition, "the Slurm partition (default: the cluster's)");
    sw->add_flag("!--no-wait", so.wait, "with --slurm: return once the array is submitted (gather later with --collect)");
    sw->add_option("--collect", so.collect, "wait for the array submitted from this results folder and write its results")
        ->check(CLI::ExistingDirectory);
    CLI::App* cfg = app.add_subcommand("config", "print the config reference (--doc) or a config as the model resolves it (--show NAME)");
    bool cfg_doc = false;
    std::string cfg_show;
    cfg->add_flag("--doc", cfg_doc, "the reference of every config key (docs/config.md)");
    cfg->add_option("--show", cfg_show, "a config name or JSON file: its resolved values and sources, as JSON");
    cfg->add_option("--set", o.sets, "override a config parameter of --show (repeatable)");
    CLI::App* chk = app.add_subcommand("check", "list the instructions of PTX modules that the model cannot execute");
    chk->add_option("ptx", ptx_files, "PTX files")->required()->check(CLI::ExistingFile);
    bool resources = false;
    chk->add_flag("--resources", resources, "also print each kernel's registers (declared and live), shared and local memory");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    try {
        std::function<void()> copy_table;
        if (chk->parsed()) return check(ptx_files, resources);
        if (cfg->parsed()) return config_command(cfg_doc, cfg_show, o.sets);
        if (sw->parsed()) {
            if (so.spec.empty() == so.collect.empty()) throw std::runtime_error("gpusim sweep: give a spec, or --collect DIR");
            if (!so.collect.empty() && so.slurm) throw std::runtime_error("gpusim sweep: --collect gathers an array; it submits none");
            return sweep::run(so);
        }
        if (vcd_signals->count() && o.vcd.path.empty()) throw std::runtime_error("--vcd-signals chooses the signals of --vcd FILE");
        if (mb->parsed()) return run_microbench(mb_suite, mb_configs, o.sets, mb_table);
        if (bench->parsed() && (copies_only || (o.mode.empty() && o.threads.empty() && copy_mib))) {
            // Copies cost the host the same in either mode; the config sets the copy engines' bursts.
            const uint64_t bytes = std::max<uint64_t>(copy_mib, 1) << 20;
            const GpuConfig cfg = load_config(o.config.empty() ? "fermi-gf100" : o.config, parse_sets(o));
            const std::vector<CopyRate> rates = measure_copies_apart(cfg, bytes);
            if (rates.empty()) return kBadInput;
            if (copies_only) {
                print_copy_table(rates, bytes);
                return kPass;
            }
            copy_table = [rates, bytes] { print_copy_table(rates, bytes); };
        }
        if (bench->parsed() && o.manifests.empty()) o.manifests = default_bench();
        if (bench->parsed() && o.manifests.empty()) throw std::runtime_error("no benchmark manifests found");
        // Without a mode or a thread count, both modes on 1 and on every host thread (at least 2).
        if (bench->parsed() && o.mode.empty() && o.threads.empty()) {
            const uint32_t threads = std::max(2u, std::thread::hardware_concurrency());
            const auto point = [&](const std::string& m, const std::string& mode, uint32_t n) { return bench_point(o, m, mode, n); };
            const bool ok = bench_table(o.manifests, threads, repeat, point);
            if (copy_table) copy_table();
            return ok ? kPass : kMismatch;
        }
        return run_all(o, bench->parsed());
    } catch (const std::exception& e) {
        fmt::print(stderr, "gpusim: error: {}\n", e.what());
        return 2;
    }
}

// Our own entry point so the SystemC banner can be switched off before the kernel starts.
int main(int argc, char** argv) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
