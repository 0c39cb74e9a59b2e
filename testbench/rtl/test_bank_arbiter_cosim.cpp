// Co-simulation of the shared-memory bank arbiter: the verilated RTL (smem_bank_arbiter.sv, as a
// SystemC module) and the SystemC SharedMemory unit get the same warps, directed and
// constrained-random, on every generation's bank geometry and the other combinations of its inputs. A clocked scoreboard checks every pass
// (its lanes against SharedMemory::schedule, the cycle it arrives in), the pass count and the
// cycle of done against SharedMemory::passes, and req_ready in every cycle (back-to-back requests
// are taken in the cycle of the last pass). GPUSIM_COSIM_WARPS sets the random warps per
// geometry (default 150000: over 10^6 in all).
#define BOOST_TEST_MODULE bank_arbiter_cosim
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <functional>
#include <sstream>
#include <string>

#include <systemc>

#include "Vsmem_bank_arbiter_sc.h"
#include "common/addresses.h"
#include "common/smem_traffic.h"
#include "smem/shared_memory.h"

using namespace gpusim;
using gpusim::test::SmemAccess;

namespace {

// The directed cases: the bank rules' textbook accesses.
std::vector<SmemAccess> directed_accesses() {
    std::vector<SmemAccess> out;
    auto add = [&](uint64_t stride, uint32_t width, uint32_t mask, uint64_t base = 0) {
        SmemAccess a;
        a.addr = gpusim::test::strided(stride, base);
        a.width = width;
        a.mask = mask;
        out.push_back(a);
    };
    for (uint32_t width : {1u, 2u, 4u, 8u, 16u}) {
        for (uint64_t words : {0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64})
            add(words * width, width, ~0u);                  // element strides, broadcast at 0
        add(width, width, 0x0000FFFFu);                      // one half-warp
        add(width, width, 0xFFFF0000u);                      // the other
        add(width, width, 0x80000001u);                      // the first and last lanes
        add(width, width, 1u << 7);                          // one lane
        add(width, width, 0u);                               // none
        add(0, width, ~0u, 0x100);                           // everyone on one element
    }
    add(1, 1, ~0u, 3);                                       // char[tid + 3]: bytes across words
    add(4 * 32, 4, ~0u);                                     // a 32-bank column: every lane one bank
    add(4 * 16, 4, ~0u);                                     // a 16-bank column
    add(128, 8, ~0u);                                        // 8-byte words 128 apart (Kepler: one row pair)
    SmemAccess mixed;                                        // one word broadcast, the rest scattered
    mixed.width = 4;
    mixed.mask = ~0u;
    for (int l = 0; l < 32; ++l) mixed.addr[l] = l % 3 == 0 ? 0x40 : uint64_t(l) * 68;
    out.push_back(mixed);
    return out;
}

struct Tally {
    uint64_t directed = 0, random = 0, passes = 0, clocks = 0, errors = 0;
    std::vector<std::string> first_errors;
};

SC_MODULE(CoSim) {
    sc_core::sc_in<bool> clk;
    sc_core::sc_signal<bool> rst_n, cfg_banks32, cfg_wide_bank, cfg_half_warp, cfg_single_broadcast, cfg_split_wide;
    sc_core::sc_signal<bool> req_valid, req_ready, pass_valid, done;
    sc_core::sc_signal<uint32_t> req_size, req_mask, pass_lanes, pass_count;
    sc_core::sc_signal<sc_dt::sc_bv<1024>> req_addr;
    Vsmem_bank_arbiter_sc rtl;
    SharedMemory ref;
    Tally tally;

    SC_HAS_PROCESS(CoSim);
    CoSim(const sc_core::sc_module_name& n, const test::SmemGeneration& gen, uint64_t random, int* running)
        : sc_module(n), rtl("rtl"), ref("ref", gen.cfg), m_gen(gen), m_random(random), m_running(running),
          m_traffic(0x5eed + std::hash<std::string>{}(gen.name)) {
        rtl.clk(clk);
        rtl.rst_n(rst_n);
        rtl.cfg_banks32(cfg_banks32);
        rtl.cfg_wide_bank(cfg_wide_bank);
        rtl.cfg_half_warp(cfg_half_warp);
        rtl.cfg_single_broadcast(cfg_single_broadcast);
        rtl.cfg_split_wide(cfg_split_wide);
        rtl.req_valid(req_valid);
        rtl.req_ready(req_ready);
        rtl.req_size(req_size);
        rtl.req_mask(req_mask);
        rtl.req_addr(req_addr);
        rtl.pass_valid(pass_valid);
        rtl.pass_lanes(pass_lanes);
        rtl.done(done);
        rtl.pass_count(pass_count);
        m_directed = directed_accesses();
        SC_THREAD(drive);
        sensitive << clk.neg();
    }

private:
    struct InFlight {
        SmemAccess access;
        std::vector<LaneMask> expect;
        uint64_t accepted = 0;
        size_t seen = 0;
        bool directed = false;
        uint64_t index = 0;
        uint32_t clocks() const { return std::max<uint32_t>(uint32_t(expect.size()), 1); }
    };
    test::SmemGeneration m_gen;
    uint64_t m_random;
    int* m_running;
    test::SmemTraffic m_traffic;
    std::vector<SmemAccess> m_directed;
    std::deque<InFlight> m_flight;
    uint64_t m_issued = 0;
    uint64_t m_cycle = 0;

    void fail(const InFlight* f, const std::string& what) {
        ++tally.errors;
        if (tally.first_errors.size() >= 8) return;
        std::ostringstream s;
        s << m_gen.name << " cycle " << m_cycle << ": " << what;
        if (f) {
            s << " (" << (f->directed ? "directed" : "random") << " access " << f->index << ", " << f->access.width
              << " bytes, mask 0x" << std::hex << f->access.mask << std::dec << ", addresses";
            for (uint64_t a : f->access.addr) s << ' ' << a;
            s << ")";
        }
        tally.first_errors.push_back(s.str());
    }

    bool next_access(InFlight& f) {
        const uint64_t total = m_directed.size() + m_random;
        if (m_issued >= total) return false;
        f.directed = m_issued < m_directed.size();
        f.index = f.directed ? m_issued : m_issued - m_directed.size();
        f.access = f.directed ? m_directed[m_issued] : m_traffic.next();
        ++m_issued;
        f.expect = ref.schedule(f.access.addr.data(), f.access.mask, f.access.width);
        if (f.expect.size() != ref.passes(f.access.addr.data(), f.access.mask, f.access.width)) fail(&f, "schedule and passes() disagree");
        return true;
    }

    void present(const SmemAccess& a) {
        sc_dt::sc_bv<1024> bits;
        for (int l = 0; l < 32; ++l) bits.range(32 * l + 31, 32 * l) = uint32_t(a.addr[l]);
        req_addr.write(bits);
        req_mask.write(a.mask);
        req_size.write(uint32_t(__builtin_ctz(a.width)));
        req_valid.write(true);
    }

    // Outputs of the edge just past: a pass of the oldest request, its done.
    void check_outputs() {
        InFlight* f = m_flight.empty() ? nullptr : &m_flight.front();
        if (pass_valid.read()) {
            if (!f || f->seen >= f->expect.size()) {
                fail(f, "a pass nobody expects");
            } else {
                if (pass_lanes.read() != f->expect[f->seen])
                    fail(f, "pass " + std::to_string(f->seen + 1) + " serves lanes " + std::to_string(pass_lanes.read()) +
                                ", the SystemC unit " + std::to_string(f->expect[f->seen]));
                if (m_cycle != f->accepted + f->seen + 1) fail(f, "pass " + std::to_string(f->seen + 1) + " in the wrong cycle");
                ++f->seen;
            }
        } else if (f && f->seen < f->expect.size() && m_cycle > f->accepted) {
            fail(f, "no pass in a cycle where one was due");
        }
        if (done.read()) {
            if (!f) return fail(nullptr, "done with no request");
            if (f->seen != f->expect.size() || pass_count.read() != f->expect.size())
                fail(f, "done after " + std::to_string(pass_count.read()) + " passes, the SystemC unit counts " + std::to_string(f->expect.size()));
            if (m_cycle != f->accepted + f->clocks()) fail(f, "done in the wrong cycle");
            (f->directed ? tally.directed : tally.random) += 1;
            tally.passes += f->expect.size();
            m_flight.pop_front();
        } else if (f && m_cycle >= f->accepted + f->clocks()) {
            fail(f, "no done when due");
            m_flight.pop_front();
        }
    }

    void drive() {
        cfg_banks32.write(m_gen.cfg.banks == 32);
        cfg_wide_bank.write(m_gen.cfg.bank_width_bytes == 8);
        cfg_half_warp.write(m_gen.cfg.max_group_threads == 16);
        cfg_single_broadcast.write(m_gen.cfg.single_broadcast);
        cfg_split_wide.write(m_gen.cfg.split_wide);
        rst_n.write(false);
        wait();
        wait();
        rst_n.write(true);
        bool presented = false, more = true;
        uint64_t idle_rng = 1;
        for (;;) {
            wait();
            ++m_cycle;
            ++tally.clocks;
            if (presented) m_flight.back().accepted = m_cycle;
            presented = false;
            check_outputs();
            // The arbiter is free at the next edge when nothing is in flight, or the oldest
            // request's last pass is being served now.
            const bool free = m_flight.empty() ||
                              (m_flight.size() == 1 && m_flight.front().accepted + m_flight.front().clocks() == m_cycle + 1);
            if (req_ready.read() != free) fail(m_flight.empty() ? nullptr : &m_flight.front(), free ? "not ready when free" : "ready while busy");
            idle_rng = idle_rng * 6364136223846793005ull + 1442695040888963407ull;
            InFlight f;
            if (free && more && (idle_rng >> 60) != 0 && (more = next_access(f))) {
                present(f.access);
                m_flight.push_back(std::move(f));
                presented = true;
            } else {
                req_valid.write(false);
            }
            if (!more && m_flight.empty()) break;
        }
        if (--*m_running == 0) sc_core::sc_stop();
    }
};

std::vector<std::pair<std::string, Tally>> g_results;
uint64_t g_random_per_generation = 0;
double g_seconds = 0;

} // namespace

BOOST_AUTO_TEST_CASE(rtl_and_systemc_unit_agree_on_every_pass_lane_and_cycle) {
    uint64_t random = 0, directed = 0, passes = 0, clocks = 0;
    for (const auto& [name, t] : g_results) {
        for (const auto& e : t.first_errors) BOOST_TEST_MESSAGE(e);
        BOOST_TEST(t.errors == 0u, name << ": " << t.errors << " disagreements");
        BOOST_TEST(t.directed == directed_accesses().size(), name);
        BOOST_TEST(t.random == g_random_per_generation, name);
        random += t.random, directed += t.directed, passes += t.passes, clocks += t.clocks;
    }
    BOOST_TEST(g_results.size() == test::smem_geometries().size());
    BOOST_TEST_MESSAGE("co-simulation: " << directed << " directed and " << random << " random warps, " << passes << " passes, "
                                         << clocks << " clocks, " << g_seconds << " host seconds");
}

int sc_main(int argc, char** argv) {
    const char* env = std::getenv("GPUSIM_COSIM_WARPS");
    g_random_per_generation = env ? std::strtoull(env, nullptr, 10) : 150000;
    sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
    int running = 0;
    std::vector<std::unique_ptr<CoSim>> benches;
    for (const auto& gen : test::smem_geometries()) {
        benches.push_back(std::make_unique<CoSim>(("cosim_" + gen.name).c_str(), gen, g_random_per_generation, &running));
        benches.back()->clk(clk);
        ++running;
    }
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    g_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (size_t i = 0; i < benches.size(); ++i) g_results.emplace_back(test::smem_geometries()[i].name, benches[i]->tally);
    std::printf("co-simulation: %.2f host seconds\n", g_seconds);
    return boost::unit_test::unit_test_main([] { return true; }, argc, argv);
}
