// The timing units on their own: bank rules per generation, coalescing, the constant cache, pipe
// occupancy, scheduling policies; and the SM core in timing mode (determinism, latency, stats).
#define BOOST_TEST_MODULE timing_units
#include <boost/test/unit_test.hpp>

#include "alu/pipe.h"
#include "ccache/constant_cache.h"
#include "common/run_kernel.h"
#include "ldst/coalescer.h"
#include "scheduler/warp_scheduler.h"
#include "smem/shared_memory.h"

#include <array>

using namespace gpusim;

namespace {

SharedMemoryConfig fermi_smem() { return SharedMemoryConfig{}; }
SharedMemoryConfig tesla_smem() {
    SharedMemoryConfig c;
    c.banks = 16;
    c.max_group_threads = 16;
    c.single_broadcast = true;
    c.split_wide = true;
    return c;
}
SharedMemoryConfig kepler_smem() {
    SharedMemoryConfig c;
    c.bank_width_bytes = 8;
    return c;
}

// Addresses base + lane * stride.
std::array<uint64_t, 32> strided(uint64_t stride, uint64_t base = 0) {
    std::array<uint64_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[l] = base + uint64_t(l) * stride;
    return a;
}

} // namespace

BOOST_AUTO_TEST_CASE(fermi_banks_conflict_by_gcd_of_stride_and_broadcast_any_word) {
    SharedMemory s("smem_f", fermi_smem());
    for (uint64_t words : {1, 2, 3, 4, 8, 16, 32}) {
        auto a = strided(words * 4);
        uint64_t g = words, m = 32;
        while (m) { uint64_t r = g % m; g = m; m = r; }
        BOOST_TEST(s.passes(a.data(), ~0u, 4) == g, "stride " << words);
    }
    auto same = strided(0, 64);
    BOOST_TEST(s.passes(same.data(), ~0u, 4) == 1u);          // one word: broadcast
    auto bytes = strided(1);
    BOOST_TEST(s.passes(bytes.data(), ~0u, 1) == 1u);         // char[tid]: no conflict
    auto dbl = strided(8);
    BOOST_TEST(s.passes(dbl.data(), ~0u, 8) == 2u);           // double[tid]: one pass per half-warp
    BOOST_TEST(s.ideal_passes(~0u, 8) == 2u);
    auto u4 = strided(4);
    BOOST_TEST(s.passes(u4.data(), 0x0000FFFFu, 4) == 1u);
}

BOOST_AUTO_TEST_CASE(tesla_banks_serve_half_warps_with_one_broadcast_word) {
    SharedMemory s("smem_t", tesla_smem());
    auto unit = strided(4);
    BOOST_TEST(s.passes(unit.data(), ~0u, 4) == 2u);          // two half-warps
    auto s2 = strided(8);
    BOOST_TEST(s.passes(s2.data(), ~0u, 4) == 4u);            // 2-way in each half
    auto s16 = strided(64);
    BOOST_TEST(s.passes(s16.data(), ~0u, 4) == 32u);          // all in one bank: 16-way per half
    auto bytes = strided(1);
    BOOST_TEST(s.passes(bytes.data(), ~0u, 1) == 8u);         // char[tid]: 4-way per half-warp
    auto dbl = strided(8);
    BOOST_TEST(s.passes(dbl.data(), ~0u, 8) == 8u);           // two word requests, each 2-way, per half
}

BOOST_AUTO_TEST_CASE(kepler_words_32_apart_share_a_bank_row) {
    SharedMemory s("smem_k", kepler_smem());
    auto s2 = strided(8);
    BOOST_TEST(s.passes(s2.data(), ~0u, 4) == 1u);
    auto s4 = strided(16);
    BOOST_TEST(s.passes(s4.data(), ~0u, 4) == 2u);
    auto dbl = strided(8);
    BOOST_TEST(s.passes(dbl.data(), ~0u, 8) == 1u);
}

BOOST_AUTO_TEST_CASE(coalescing_per_generation) {
    std::vector<Transaction> t;
    auto unit = strided(4, 0x1000);
    BOOST_TEST(coalesce(CoalescingRule::Cc20, unit.data(), ~0u, 4, true, t) == 1u);
    BOOST_TEST(t.size() == 1u);
    BOOST_TEST(t[0].bytes == 128u);
    t.clear();
    coalesce(CoalescingRule::Cc35, unit.data(), ~0u, 4, false, t);
    BOOST_TEST(t.size() == 4u);                                // 32-byte segments
    t.clear();
    BOOST_TEST(coalesce(CoalescingRule::Cc10, unit.data(), ~0u, 4, false, t) == 2u);
    BOOST_TEST(t.size() == 2u);                                // one 64-byte segment per half-warp
    t.clear();
    auto shifted = strided(4, 0x1004);                         // misaligned: cc 1.0 gives up
    coalesce(CoalescingRule::Cc10, shifted.data(), ~0u, 4, false, t);
    BOOST_TEST(t.size() == 32u);
    t.clear();
    coalesce(CoalescingRule::Cc12, shifted.data(), ~0u, 4, false, t);
    BOOST_TEST(t.size() == 3u);                                // 128 B for the first half, 64 + 32 B for the second
    t.clear();
    auto one_half = strided(4, 0x1000);
    coalesce(CoalescingRule::Cc12, one_half.data(), 0x000000FFu, 4, false, t);
    BOOST_TEST(t.size() == 1u);
    BOOST_TEST(t[0].bytes == 32u);                             // 8 words: shrunk to a 32-byte segment
    t.clear();
    auto scattered = strided(4096);
    coalesce(CoalescingRule::Cc20, scattered.data(), ~0u, 4, true, t);
    BOOST_TEST(t.size() == 32u);
}

BOOST_AUTO_TEST_CASE(constant_cache_serializes_distinct_addresses_per_group) {
    ConstantCacheConfig c;
    c.cache = {8192, 64, 2, 40};
    ConstantCache warp_wide("cc_f", c);
    std::array<uint64_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[l] = uint64_t(l % 4) * 4;
    auto r = warp_wide.access(a.data(), ~0u);
    BOOST_TEST(r.passes == 4u);
    BOOST_TEST(r.misses == 1u);                                // one line
    BOOST_TEST(warp_wide.access(a.data(), ~0u).misses == 0u);
    c.group_threads = 16;
    ConstantCache half("cc_t", c);
    BOOST_TEST(half.access(a.data(), ~0u).passes == 8u);       // each half-warp sees 4 addresses
    BOOST_TEST(warp_wide.latency(3) == 40u + 2 * c.pass_cycles);
}

BOOST_AUTO_TEST_CASE(pipe_occupancy_is_exact_for_fractional_rates) {
    PipeConfig wide{192, false, false};
    Pipe kepler("alu_k", wide, 4);
    int taken = 0;
    while (kepler.free_at(0, 10)) { kepler.accept(0, 10, 1200); ++taken; }   // 160 lanes' worth
    BOOST_TEST(taken == 5);
    PipeConfig half{16, true, false};
    Pipe fermi("alu_f", half, 2);
    BOOST_TEST(fermi.accept(1, 0, 1000) == 2u);
    BOOST_TEST(!fermi.free_at(1, 1));
    BOOST_TEST(fermi.free_at(1, 2));
    BOOST_TEST(fermi.free_at(0, 0));                           // the other scheduler's half is free
    PipeConfig sfu{2, false, false};
    Pipe g80("sfu_g", sfu, 1);
    BOOST_TEST(g80.accept(0, 0, 1000) == 16u);
}

namespace {
std::vector<uint32_t> listed(WarpScheduler& s) {
    CandidateOrder o = s.candidates();
    std::vector<uint32_t> v;
    for (size_t k = 0; k < o.count; ++k) v.push_back(o[k]);
    return v;
}
} // namespace

BOOST_AUTO_TEST_CASE(scheduling_policies_order_candidates) {
    SchedulerConfig c;
    c.policy = "lrr";
    WarpScheduler lrr("lrr", c);
    for (uint32_t w : {0u, 2u, 4u}) lrr.add(w, w);
    lrr.issued(2, 0, 1);
    BOOST_TEST((listed(lrr) == std::vector<uint32_t>{4, 0, 2}));
    c.policy = "gto";
    WarpScheduler gto("gto", c);
    for (uint32_t w : {4u, 0u, 2u}) gto.add(w, 10 - w);        // warp 4 is the oldest
    BOOST_TEST((listed(gto) == std::vector<uint32_t>{4, 2, 0}));
    gto.issued(0, 0, 1);
    BOOST_TEST((listed(gto) == std::vector<uint32_t>{0, 4, 2}));
    c.policy = "two_level";
    c.active_warps = 2;
    WarpScheduler two("two", c);
    for (uint32_t w : {1u, 3u, 5u}) two.add(w, w);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{1, 3}));
    two.long_stall(1);
    BOOST_TEST((listed(two) == std::vector<uint32_t>{3, 5}));
    c.policy = "fifo";
    BOOST_CHECK_THROW(WarpScheduler("bad", c), std::runtime_error);
}

namespace {

// A timing-mode SM core with a small, round-number configuration.
SmConfig timing_config() {
    SmConfig c;
    c.timing.enabled = true;
    c.timing.pipes[int(PipeKind::Alu)] = {16, true, false};
    c.timing.pipes[int(PipeKind::Ldst)] = {16, false, false};
    c.timing.pipes[int(PipeKind::Ctrl)] = {16, false, false};
    for (auto& op : c.timing.ops) op = {PipeKind::Alu, 1000, 10};
    c.timing.ops[int(OpClass::Memory)] = {PipeKind::Ldst, 1000, 0};
    c.timing.ops[int(OpClass::Branch)] = {PipeKind::Ctrl, 1000, 2};
    c.timing.ops[int(OpClass::Barrier)] = {PipeKind::Ctrl, 1000, 0};
    c.timing.ccache.cache = {8192, 64, 2, 5};
    c.timing.memory.l1 = {0, 128, 4, 0};
    c.timing.memory.l2 = {0, 128, 8, 0};
    c.timing.memory.dram_latency = 100;
    return c;
}

// Stores %clock before and after 64 dependent adds; the delta lands in out[0] (as u64).
const char* kChain = R"(
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<4>; .reg .u64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 1;
  mov.u64 %rd2, %clock64;
  CHAIN
  mov.u64 %rd3, %clock64;
  sub.u64 %rd4, %rd3, %rd2;
  st.global.u64 [%rd1], %rd4;
  st.global.u32 [%rd1+8], %r1;
  ret;
})";

std::string chain_kernel() {
    std::string body = kChain, adds;
    for (int k = 0; k < 64; ++k) adds += "add.u32 %r1, %r1, 3;\n";
    return body.replace(body.find("CHAIN"), 5, adds);
}

} // namespace

BOOST_AUTO_TEST_CASE(dependent_chain_runs_at_the_configured_latency) {
    SmStats st;
    auto mem = test::run_kernel(chain_kernel(), 32, 1, &st, timing_config());
    uint64_t cycles = (uint64_t(mem.u32(0)) | uint64_t(mem.u32(1)) << 32);
    // 64 dependent adds of latency 10; the clock read waits for nothing.
    BOOST_TEST(cycles >= 640u);
    BOOST_TEST(cycles <= 660u);
    BOOST_TEST(mem.u32(2) == 1u + 64 * 3);
    BOOST_TEST(st.by_class[int(OpClass::IntAdd)] >= 64u);
}

BOOST_AUTO_TEST_CASE(timing_mode_is_deterministic_and_computes_what_functional_mode_does) {
    auto functional = test::run_kernel(chain_kernel(), 64, 3);
    SmStats a, b;
    auto t1 = test::run_kernel(chain_kernel(), 64, 3, &a, timing_config());
    auto t2 = test::run_kernel(chain_kernel(), 64, 3, &b, timing_config());
    BOOST_TEST(t1.u32(0) == t2.u32(0));
    BOOST_TEST(a.warp_instructions == b.warp_instructions);
    BOOST_TEST(t1.u32(2) == functional.u32(2));
}
