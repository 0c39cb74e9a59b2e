// The SM core in timing mode: dependent-chain latency, determinism, identical results to the
// functional mode. Each unit has its own testbench in testbench/units/.
#define BOOST_TEST_MODULE timing_units
#include <boost/test/unit_test.hpp>

#include "common/run_kernel.h"

#include <array>

using namespace gpusim;

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

// Warp 0 waits at barrier 0 and warp 1 at barrier 1: neither can open. Timing mode reports the
// deadlock whether it skips idle cycles or scans every cycle.
BOOST_AUTO_TEST_CASE(a_barrier_deadlock_is_reported_with_and_without_skipping) {
    const char* kernel = R"(
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<4>; .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra LOW;
  bar.sync 1;
  ret;
LOW:
  bar.sync 0;
  ret;
})";
    for (bool skip : {true, false}) {
        SmConfig c = timing_config();
        c.timing.skip_idle = skip;
        BOOST_CHECK_EXCEPTION(test::run_kernel(kernel, 64, 1, nullptr, c), KernelFault, [](const KernelFault& f) {
            return std::string(f.what()).find("barrier deadlock in block (0,0,0): warp 0 waits at barrier 0; warp 1 waits at barrier 1") !=
                   std::string::npos;
        });
    }
}

// The scoreboard entries each instruction waits on, in the order that names a stall: destination,
// sources, guard and predicates; a fence waits on the memory entry, a return on every row.
BOOST_AUTO_TEST_CASE(scoreboard_map_lists_what_each_instruction_waits_on) {
    const char* body = R"(
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<4>; .reg .u64 %rd<3>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 add.u32 %r2, %r1, %r3;
  membar.gl;
  ret;
})";
    ptx::Module m = ptx::parse("k.ptx", std::string(test::kPtxHeader) + body);
    const auto kernel = loader::decode_kernel(m, m.functions.at(0), {});
    ScoreboardMap map;
    map.build(*kernel);
    BOOST_TEST(map.size() == kernel->num_regs + kernel->num_preds + 1);
    BOOST_TEST(map.memory() == kernel->num_regs + kernel->num_preds);
    BOOST_TEST(map.pred(1) == kernel->num_regs + 1);
    const auto entries = [&](uint32_t pc) { return std::vector<uint32_t>(map.begin(pc), map.end(pc)); };
    const auto find = [&](const std::string& text) {
        for (uint32_t pc = 0; pc < kernel->code.size(); ++pc)
            if (kernel->text[pc].find(text) != std::string::npos) return pc;
        BOOST_FAIL("no instruction " << text);
        return 0u;
    };

    const uint32_t setp = find("setp.lt.u32");
    const Inst& s = kernel->code[setp];
    BOOST_TEST(s.b < 0);   // the immediate 5 is no scoreboard entry
    BOOST_TEST(entries(setp) == (std::vector<uint32_t>{uint32_t(s.a), map.pred(s.pd)}));

    const uint32_t add = find("add.u32");
    const Inst& a = kernel->code[add];
    BOOST_TEST(entries(add) == (std::vector<uint32_t>{uint32_t(a.d), uint32_t(a.a), uint32_t(a.b), map.pred(a.guard)}));

    BOOST_TEST(entries(find("membar")) == std::vector<uint32_t>{map.memory()});

    BOOST_TEST(map.rows() == kernel->num_regs);
    BOOST_TEST(entries(find("ret")).empty());
    BOOST_TEST(map.waits_for_all_rows(find("ret")));
    BOOST_TEST(!map.waits_for_all_rows(add));
}
