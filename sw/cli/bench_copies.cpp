#include "cli/bench_copies.h"

#include <chrono>
#include <cstring>
#include <functional>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/child_process.h"
#include "runtime/runtime.h"

namespace gpusim {

namespace {

double seconds_of(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Pageable host memory as a program has it: malloc'd, its pages not yet touched.
struct Pageable {
    std::unique_ptr<uint8_t[]> bytes;
    explicit Pageable(uint64_t n) : bytes(new uint8_t[n]) {}
    uint8_t* get() const { return bytes.get(); }
};

} // namespace

std::vector<CopyRate> measure_copies(const GpuConfig& cfg, uint64_t bytes) {
    Runtime rt(cfg);
    std::vector<CopyRate> out;
    // The first run of `copy` goes into fresh memory, the second into the same, now touched.
    const auto measure = [&](const std::string& kind, const std::function<void()>& copy) {
        CopyRate r;
        r.kind = kind;
        r.fresh_gb_s = double(bytes) / seconds_of(copy) / 1e9;
        r.touched_gb_s = double(bytes) / seconds_of(copy) / 1e9;
        out.push_back(r);
    };
    Pageable source(bytes), sink(bytes);
    std::memset(source.get(), 0x5a, bytes);   // a program's input is written before it is uploaded
    uint8_t* pinned_source = static_cast<uint8_t*>(rt.malloc_host(bytes));
    uint8_t* pinned_sink = static_cast<uint8_t*>(rt.malloc_host(bytes));
    std::memset(pinned_source, 0xa5, bytes);
    const DevicePtr a = rt.malloc(bytes), b = rt.malloc(bytes), c = rt.malloc(bytes), d = rt.malloc(bytes);
    measure("host to device, pageable", [&] { rt.memcpy_to_device(a, source.get(), bytes); });
    measure("host to device, pinned", [&] { rt.memcpy_to_device(b, pinned_source, bytes); });
    measure("device to host, pageable", [&] { rt.memcpy_to_host(sink.get(), a, bytes); });
    measure("device to host, pinned", [&] { rt.memcpy_to_host(pinned_sink, b, bytes); });
    measure("device to device", [&] { rt.memcpy_device(c, a, bytes); });
    measure("memset", [&] { rt.memset(d, 0x11, bytes); });
    if (std::memcmp(sink.get(), source.get(), bytes) != 0 || std::memcmp(pinned_sink, pinned_source, bytes) != 0)
        throw std::runtime_error("gpusim bench: a copy did not bring back the bytes it took");
    rt.free_host(pinned_source);
    rt.free_host(pinned_sink);
    return out;
}

std::vector<CopyRate> measure_copies_apart(const GpuConfig& cfg, uint64_t bytes) {
    const std::string text = run_in_child([&] {
        nlohmann::json rows = nlohmann::json::array();
        try {
            for (const CopyRate& r : measure_copies(cfg, bytes)) rows.push_back({r.kind, r.fresh_gb_s, r.touched_gb_s});
        } catch (const std::exception& e) {
            fmt::print(stderr, "copies: {}\n", e.what());
        }
        return rows.dump();
    });
    std::vector<CopyRate> out;
    const nlohmann::json rows = nlohmann::json::parse(text, nullptr, false);
    if (rows.is_array())
        for (const auto& r : rows) out.push_back(CopyRate{r[0].get<std::string>(), r[1].get<double>(), r[2].get<double>()});
    return out;
}

void print_copy_table(const std::vector<CopyRate>& rates, uint64_t bytes) {
    fmt::print("\n{:<26} | {:>30}\n", fmt::format("copies of {} MiB", bytes >> 20), "host GB/s");
    fmt::print("{:<26} | {:>14} {:>15}\n", "kind", "fresh memory", "touched memory");
    for (const CopyRate& r : rates) fmt::print("{:<26} | {:>14.2f} {:>15.2f}\n", r.kind, r.fresh_gb_s, r.touched_gb_s);
    std::fflush(stdout);
}

} // namespace gpusim
