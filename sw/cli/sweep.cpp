#include "cli/sweep.h"

#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/junit.h"
#include "cli/sweep_slurm.h"
#include "cli/sweep_spec.h"
#include "cli/sweep_task.h"
#include "runtime/fnv1a.h"
#include "runtime/manifest.h"

namespace gpusim::sweep {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read", p.string()));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// What a workload's results depend on besides the config: the manifest and every file it reads
// (its PTX module, its buffers' data, its references), or the program's binary and arguments; and
// the simulator (gpusim, and the runtime library for a program).
std::string workload_identity(const Workload& w, const std::string& simulator) {
    if (!w.manifest.empty()) {
        std::string id = fmt::format("manifest|{:x}", fnv1a(file_bytes(w.manifest)));
        for (const std::string& f : input_files(load_manifest(w.manifest))) id += fmt::format("|{:x}", fnv1a(file_bytes(f)));
        return id + "|" + simulator;
    }
    std::string args;
    for (const auto& a : w.args) args += a + '\x1f';
    const uint64_t library = fnv1a(file_bytes(fs::path(GPUSIM_CUDART_DIR) / "libcudart.so.13"));
    return fmt::format("program|{:x}|{}|{:x}|{}", fnv1a(file_bytes(w.program)), args, library, simulator);
}

std::string config_identity(const Spec& s) {
    return fs::exists(s.config) && fs::is_regular_file(s.config) ? fmt::format("file {:x}", fnv1a(file_bytes(s.config))) : s.config;
}

// Starts a task's process, its output going to its log; returns the child's pid.
pid_t start(const Command& c, const Task& t) {
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid > 0) return pid;
    const int fd = open(t.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    std::vector<std::string> env = c.env;
    for (std::string& e : env) putenv(e.data());
    std::vector<std::string> argv = c.argv;
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s\n", args[0]);
    _exit(127);
}

// Runs the tasks that are not cached, `jobs` at a time.
void run_tasks(const Spec& s, const std::vector<Point>& points, std::vector<Task>& tasks, unsigned jobs) {
    std::map<pid_t, size_t> running;
    std::map<pid_t, std::chrono::steady_clock::time_point> began;
    size_t next = 0, done = 0;
    auto report = [&](const Task& t, const char* what) {
        ++done;
        fmt::print("[{}/{}] {} {}: {}\n", done, tasks.size(), s.workloads[t.workload].name, point_label(s, points[t.point]), what);
        std::fflush(stdout);
    };
    for (;;) {
        while (running.size() < std::max(jobs, 1u) && next < tasks.size()) {
            Task& t = tasks[next];
            if (t.cached) {
                report(t, "cached");
                ++next;
                continue;
            }
            const pid_t pid = start(command_of(s, points[t.point], t), t);
            running[pid] = next++;
            began[pid] = std::chrono::steady_clock::now();
        }
        if (running.empty()) return;
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) throw std::runtime_error("waitpid failed");
        auto it = running.find(pid);
        if (it == running.end()) continue;
        Task& t = tasks[it->second];
        running.erase(it);
        t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began[pid]).count();
        t.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        const fs::path partial = t.partial();
        // Only a finished run enters the cache, under its final name (an interrupted one leaves a .partial).
        if (t.exit == 0 && fs::exists(partial)) fs::rename(partial, t.stats);
        else if (t.exit == 0) t.exit = 127;
        report(t, t.exit == 0 ? fmt::format("{:.2f} s", t.seconds).c_str()
                              : fmt::format("failed (exit {}; see {})", t.exit, t.log.string()).c_str());
    }
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// results.json and results.csv: a row per workload and point, with the metrics of its statistics.
json write_results(const Spec& s, const std::vector<Point>& points, const std::vector<Task>& tasks, const fs::path& out) {
    json doc = {{"spec", s.path}, {"name", s.name}, {"config", s.config}, {"mode", s.mode}, {"parameters", json::array()},
                {"workloads", json::array()}, {"metrics", json::array()}, {"rows", json::array()}};
    for (const Parameter& p : s.parameters) doc["parameters"].push_back(p.key);
    for (const Workload& w : s.workloads) doc["workloads"].push_back(w.name);
    for (const Metric& m : s.metrics) doc["metrics"].push_back({{"name", m.name}, {"path", m.path}});
    std::ofstream csv(out / "results.csv");
    csv << "workload";
    for (const Parameter& p : s.parameters) csv << "," << csv_field(p.key);
    for (const Metric& m : s.metrics) csv << "," << csv_field(m.name);
    csv << ",status\n";
    for (const Task& t : tasks) {
        json row = {{"workload", s.workloads[t.workload].name}, {"parameters", json::object()}, {"metrics", json::object()},
                    {"cached", t.cached}, {"seconds", t.seconds}, {"stats", t.stats.string()}};
        csv << csv_field(s.workloads[t.workload].name);
        for (size_t k = 0; k < s.parameters.size(); ++k) {
            row["parameters"][s.parameters[k].key] = points[t.point][k];
            csv << "," << csv_field(points[t.point][k]);
        }
        json stats;
        if (t.exit == 0) stats = json::parse(file_bytes(t.stats));
        for (const Metric& m : s.metrics) {
            double v = 0;
            const bool ok = t.exit == 0 && metric_value(stats, m.path, v);
            row["metrics"][m.name] = ok ? json(v) : json(nullptr);
            csv << "," << (ok ? fmt::format("{}", v) : "");
        }
        const std::string status = t.exit == 0 ? "ok" : fmt::format("failed (exit {})", t.exit);
        row["status"] = status;
        csv << "," << status << "\n";
        doc["rows"].push_back(std::move(row));
    }
    std::ofstream(out / "results.json") << doc.dump(2) << "\n";
    return doc;
}

// index.html: the spec, the table and the plots.
void write_index(const json& doc, const fs::path& out) {
    std::string table = "<tr><th>workload</th>";
    for (const auto& p : doc["parameters"]) table += "<th>" + xml_escape(p.get<std::string>()) + "</th>";
    for (const auto& m : doc["metrics"]) table += "<th>" + xml_escape(m["name"].get<std::string>()) + "</th>";
    table += "<th>status</th></tr>\n";
    for (const auto& r : doc["rows"]) {
        table += "<tr><td>" + xml_escape(r["workload"].get<std::string>()) + "</td>";
        for (const auto& p : doc["parameters"]) table += "<td>" + xml_escape(r["parameters"][p.get<std::string>()].get<std::string>()) + "</td>";
        for (const auto& m : doc["metrics"]) {
            const json& v = r["metrics"][m["name"].get<std::string>()];
            table += "<td class=num>" + (v.is_number() ? fmt::format("{:.6g}", v.get<double>()) : std::string("-")) + "</td>";
        }
        table += "<td>" + xml_escape(r["status"].get<std::string>()) + "</td></tr>\n";
    }
    std::string plots;
    if (fs::exists(out / "plots"))
        for (const auto& e : fs::directory_iterator(out / "plots"))
            if (e.path().extension() == ".svg") plots += fmt::format("<figure><img src=\"plots/{}\"></figure>\n", e.path().filename().string());
    std::ofstream html(out / "index.html");
    html << fmt::format(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gpusim sweep {0}</title>\n"
        "<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;"
        "padding:.2em .6em}}td.num{{text-align:right}}img{{max-width:48em}}</style></head><body>\n"
        "<h1>Sweep {0}</h1>\n<p>{1} mode, config {2}; {3} rows. Data: <a href=\"results.csv\">results.csv</a>, "
        "<a href=\"results.json\">results.json</a>.</p>\n{4}<table>\n{5}</table>\n</body></html>\n",
        xml_escape(doc["name"].get<std::string>()), xml_escape(doc["mode"].get<std::string>()),
        xml_escape(doc["config"].get<std::string>()), doc["rows"].size(), plots, table);
}

// The plots, by the Python script beside this source (matplotlib); a missing Python or
// matplotlib costs the plots only.
void make_plots(const fs::path& out) {
    const fs::path script = fs::path(GPUSIM_SOURCE_DIR) / "sw" / "cli" / "sweep_plot.py";
    // Debian's Python, which python3-matplotlib installs into, before another one on the PATH.
    const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    const std::string cmd = fmt::format("{} '{}' '{}'", python, script.string(), out.string());
    std::fflush(stdout);
    if (std::system(cmd.c_str()) != 0)
        fmt::print(stderr, "gpusim sweep: no plots ({} failed: is python3-matplotlib installed?)\n", cmd);
}

} // namespace

int run(const Options& o) {
    const Spec s = load_spec(o.collect.empty() ? o.spec : submitted_spec(o.collect));
    const std::vector<Point> points = expand(s);
    const fs::path out = !o.collect.empty() ? fs::path(o.collect)
                         : o.out.empty()    ? fs::path(o.spec).parent_path() / ("sweep-" + s.name)
                                            : fs::path(o.out);
    fs::create_directories(out / "cache");
    fs::create_directories(out / "logs");
    const std::string simulator = fmt::format("{:x}", fnv1a(file_bytes(self_exe())));
    std::vector<Task> tasks;
    for (size_t w = 0; w < s.workloads.size(); ++w) {
        const std::string identity = workload_identity(s.workloads[w], simulator);
        for (size_t p = 0; p < points.size(); ++p) {
            std::string what = fmt::format("{}|{}|{}", config_identity(s), s.mode, identity);
            for (const std::string& ov : overrides(s, points[p])) what += "|" + ov;
            Task t;
            t.workload = w;
            t.point = p;
            t.key = fmt::format("{:016x}", fnv1a(what));
            t.stats = out / "cache" / (t.key + ".json");
            t.log = out / "logs" / (s.workloads[w].name + "-" + t.key + ".log");
            t.cached = fs::exists(t.stats);
            if (t.cached) t.exit = 0;
            tasks.push_back(t);
        }
    }
    fmt::print("sweep {}: {} points x {} workloads, {} cached, {}\n", s.name, points.size(), s.workloads.size(),
               std::count_if(tasks.begin(), tasks.end(), [](const Task& t) { return t.cached; }),
               o.slurm ? "on Slurm" : !o.collect.empty() ? "collecting" : fmt::format("{} at a time", o.jobs));
    if (o.slurm || !o.collect.empty()) {
        const std::string job = o.slurm ? submit_array(s, points, tasks, out, o.partition) : submitted_job(out);
        if (!o.wait) {
            fmt::print("gather the results with: gpusim sweep --collect {}\n", out.string());
            return 0;
        }
        wait_for_array(job);
        read_exits(tasks, out);
    } else {
        run_tasks(s, points, tasks, o.jobs);
    }
    const json doc = write_results(s, points, tasks, out);
    if (o.plots) make_plots(out);
    write_index(doc, out);
    const bool failed = std::any_of(tasks.begin(), tasks.end(), [](const Task& t) { return t.exit != 0; });
    fmt::print("results: {}/results.csv, {}/index.html{}\n", out.string(), out.string(), failed ? " (some points failed)" : "");
    return failed ? 1 : 0;
}

} // namespace gpusim::sweep
