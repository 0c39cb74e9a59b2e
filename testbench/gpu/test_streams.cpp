// Streams as hardware: copy and kernel times measured with events on the simulated clock, and
// overlap between streams exactly as the copy engines and the PCIe link predict. Each scenario
// runs in a child process with its own GPU model (SystemC elaborates once per process).
#define BOOST_TEST_MODULE streams
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>
#include <systemc>

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <vector>

#include "runtime/runtime.h"

using namespace gpusim;
namespace tt = boost::test_tools;

namespace {

const std::string kSrc = GPUSIM_SOURCE_DIR;
constexpr uint64_t kBytes = 4 << 20;
constexpr uint32_t kN = kBytes / 4;

// Runs `body` on a fresh model of `config` (with overrides) in a child process; returns the
// numbers it produced.
std::vector<double> in_child(const std::string& config, const std::vector<std::pair<std::string, std::string>>& sets,
                             const std::function<std::vector<double>(Runtime&)>& body) {
    int fd[2];
    BOOST_REQUIRE(pipe(fd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        std::vector<double> out;
        try {
            Runtime rt(load_config(config, sets));
            out = body(rt);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "child: %s\n", e.what());
            _exit(1);
        }
        ssize_t n = write(fd[1], out.data(), out.size() * sizeof(double));
        _exit(n == ssize_t(out.size() * sizeof(double)) ? 0 : 1);
    }
    close(fd[1]);
    std::vector<double> out(64);
    ssize_t got = 0, n;
    while ((n = read(fd[0], reinterpret_cast<char*>(out.data()) + got, out.size() * sizeof(double) - size_t(got))) > 0) got += n;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    BOOST_REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    out.resize(size_t(got) / sizeof(double));
    return out;
}

// Simulated time of what `work` queues, between two events on the default stream.
double timed(Runtime& rt, const std::function<void()>& work) {
    EventId a = rt.create_event(), b = rt.create_event();
    rt.record_event(a, 0);
    work();
    rt.record_event(b, 0);
    rt.synchronize_event(b);
    double t = rt.event_time_ns(b) - rt.event_time_ns(a);
    rt.destroy_event(a);
    rt.destroy_event(b);
    return t;
}

struct Pipeline {
    Runtime& rt;
    const KernelInfo& saxpy;
    DevicePtr x, y, z;
    void* pinned;
    StreamId s1, s2;

    explicit Pipeline(Runtime& r)
        : rt(r), saxpy(r.load_module(kSrc + "/regress/kernels/saxpy/saxpy.ptx").kernels.at("saxpy")),
          x(r.malloc(kBytes)), y(r.malloc(kBytes)), z(r.malloc(kBytes)), pinned(r.malloc_host(kBytes)),
          s1(r.create_stream()), s2(r.create_stream()) {}

    void upload(StreamId s) { rt.copy_to_device(z, pinned, kBytes, s); }
    void download(StreamId s) { rt.copy_to_host(pinned, z, kBytes, s); }
    void kernel(StreamId s) {
        rt.launch_async(saxpy, {kN / 256, 1, 1}, {256, 1, 1}, 0,
                        {KernelArg::of(kN, "u32"), KernelArg::of(2.0f, "f32"), KernelArg::of(x, "u64"), KernelArg::of(y, "u64")}, s);
    }
    // copy alone, kernel alone, both in one stream, each in its own stream
    std::vector<double> copy_and_kernel() {
        return {timed(rt, [&] { upload(s1); }), timed(rt, [&] { kernel(s2); }),
                timed(rt, [&] { upload(s1); kernel(s1); }), timed(rt, [&] { upload(s1); kernel(s2); })};
    }
    // upload alone, download alone, both in two streams
    std::vector<double> both_directions() {
        return {timed(rt, [&] { upload(s1); }), timed(rt, [&] { download(s2); }),
                timed(rt, [&] { upload(s1); download(s2); })};
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(pinned_and_pageable_copies_take_the_time_the_link_model_predicts) {
    auto t = in_child("fermi-gf100", {}, [](Runtime& rt) {
        DevicePtr d = rt.malloc(kBytes);
        void* pinned = rt.malloc_host(kBytes);
        std::vector<uint8_t> pageable(kBytes, 7);
        return std::vector<double>{timed(rt, [&] { rt.copy_to_device(d, pinned, kBytes, 0); }),
                                   timed(rt, [&] { rt.copy_to_device(d, pageable.data(), kBytes, 0); }),
                                   timed(rt, [&] { rt.copy_to_host(pinned, d, kBytes, 0); })};
    });
    BOOST_REQUIRE(t.size() == 3u);
    // 1 us descriptor setup, then 4 MiB at 6.4 GB/s; pageable also stages each burst at 6.0 GB/s.
    const double pinned = 1000.0 + kBytes / 6.4, pageable = 1000.0 + kBytes / 6.4 + kBytes / 6.0;
    BOOST_TEST(t[0] == pinned, tt::tolerance(1e-3));
    BOOST_TEST(t[1] == pageable, tt::tolerance(1e-3));
    BOOST_TEST(t[2] == pinned, tt::tolerance(1e-3));
}

BOOST_AUTO_TEST_CASE(a_copy_overlaps_a_kernel_in_another_stream) {
    auto t = in_child("fermi-gf100", {}, [](Runtime& rt) { return Pipeline(rt).copy_and_kernel(); });
    BOOST_REQUIRE(t.size() == 4u);
    const double copy = t[0], kernel = t[1];
    BOOST_TEST(kernel > 0.0);
    BOOST_TEST(t[2] == copy + kernel, tt::tolerance(1e-3));              // one stream: one after the other
    BOOST_TEST(t[3] == std::max(copy, kernel), tt::tolerance(1e-3));     // two streams: side by side
}

BOOST_AUTO_TEST_CASE(g80_cannot_overlap_copies_with_kernels) {
    auto t = in_child("tesla-g80", {}, [](Runtime& rt) { return Pipeline(rt).copy_and_kernel(); });
    BOOST_REQUIRE(t.size() == 4u);
    BOOST_TEST(t[3] == t[0] + t[1], tt::tolerance(1e-3));
}

BOOST_AUTO_TEST_CASE(two_copy_engines_move_both_directions_at_once) {
    auto one = in_child("fermi-gf100", {}, [](Runtime& rt) { return Pipeline(rt).both_directions(); });
    auto two = in_child("fermi-gf100", {{"pcie.copy_engines", "2"}}, [](Runtime& rt) { return Pipeline(rt).both_directions(); });
    BOOST_REQUIRE(one.size() == 3u);
    BOOST_REQUIRE(two.size() == 3u);
    BOOST_TEST(one[2] == one[0] + one[1], tt::tolerance(1e-3));           // one engine: serialized
    BOOST_TEST(two[2] == std::max(two[0], two[1]), tt::tolerance(1e-3));  // full duplex link, an engine each way
}

BOOST_AUTO_TEST_CASE(same_direction_copies_share_the_link) {
    auto t = in_child("kepler-gk110", {{"pcie.copy_engines", "4"}}, [](Runtime& rt) {
        Pipeline p(rt);
        return std::vector<double>{timed(rt, [&] { p.upload(p.s1); }), timed(rt, [&] { p.upload(p.s1); p.upload(p.s2); })};
    });
    BOOST_REQUIRE(t.size() == 2u);
    // Two uploads on two engines: the link carries both, so twice the bytes take twice the time
    // (each descriptor's 1 us setup overlaps).
    BOOST_TEST(t[1] == 1000.0 + 2 * kBytes / 12.6, tt::tolerance(1e-3));
}

BOOST_AUTO_TEST_CASE(stream_wait_event_orders_work_across_streams) {
    auto t = in_child("fermi-gf100", {}, [](Runtime& rt) {
        Pipeline p(rt);
        StreamId side = rt.create_stream(true);
        EventId e = rt.create_event();
        std::vector<float> ones(kN, 1.0f);
        rt.memcpy_to_device(p.x, ones.data(), kBytes);
        rt.memcpy_to_device(p.y, ones.data(), kBytes);
        p.kernel(p.s1);                          // y = 2x + y = 3
        rt.record_event(e, p.s1);
        rt.stream_wait_event(side, e);
        std::vector<float> back(kN, 0.0f);
        rt.copy_to_host(back.data(), p.y, kBytes, side);   // pageable: returns when complete
        return std::vector<double>{back[0], back[kN - 1], double(rt.stream_done(p.s1))};
    });
    BOOST_REQUIRE(t.size() == 3u);
    BOOST_TEST(t[0] == 3.0);
    BOOST_TEST(t[1] == 3.0);
    BOOST_TEST(t[2] == 1.0);
}

BOOST_AUTO_TEST_CASE(legacy_configure_setup_launch) {
    auto t = in_child("fermi-gf100", {}, [](Runtime& rt) {
        Pipeline p(rt);
        std::vector<float> xs(kN, 2.0f), ys(kN, 1.0f);
        rt.memcpy_to_device(p.x, xs.data(), kBytes);
        rt.memcpy_to_device(p.y, ys.data(), kBytes);
        const uint32_t n = kN;
        const float a = 0.5f;
        rt.configure_call({kN / 128, 1, 1}, {128, 1, 1}, 0, 0);
        rt.setup_argument(&n, 4, 0);
        rt.setup_argument(&a, 4, 4);
        rt.setup_argument(&p.x, 8, 8);
        rt.setup_argument(&p.y, 8, 16);
        rt.launch_configured(p.saxpy);
        rt.memcpy_to_host(ys.data(), p.y, kBytes);
        double missing = 0;
        rt.configure_call({1, 1, 1}, {32, 1, 1}, 0, 0);
        rt.setup_argument(&n, 4, 0);
        try {
            rt.launch_configured(p.saxpy);
        } catch (const RuntimeError& e) {
            missing = std::string(e.what()).find("argument 1 (bytes 4..7) was not set up") != std::string::npos;
        }
        return std::vector<double>{ys[0], ys[kN - 1], missing};
    });
    BOOST_REQUIRE(t.size() == 3u);
    BOOST_TEST(t[0] == 2.0);
    BOOST_TEST(t[1] == 2.0);
    BOOST_TEST(t[2] == 1.0);
}

int sc_main(int argc, char** argv) { return boost::unit_test::unit_test_main(&init_unit_test, argc, argv); }
