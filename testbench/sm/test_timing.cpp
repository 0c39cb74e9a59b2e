// The SM core in timing mode: dependent-chain latency, determinism, identical results to the
// functional mode. Each unit has its own testbench in testbench/UNIT/.
#define BOOST_TEST_MODULE timing_units
#include <boost/test/unit_test.hpp>

#include "common/run_kernel.h"
#include "sm/scoreboard_map.h"

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
    c.timing.ldst.l1 = {0, 128, 4, 0};
    c.timing.ldst.min_request_latency = 100;   // no L2: device memory's latency
    return c;
}

// The memory beyond the SM: no L2, device memory 100 cycles away.
test::ChipMemory chip_memory() {
    test::ChipMemory m;
    m.l2.cache = {0, 128, 8, 0};
    m.dram.latency = 100;
    return m;
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
    auto mem = test::run_kernel(chain_kernel(), 32, 1, &st, timing_config(), chip_memory());
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
    auto t1 = test::run_kernel(chain_kernel(), 64, 3, &a, timing_config(), chip_memory());
    auto t2 = test::run_kernel(chain_kernel(), 64, 3, &b, timing_config(), chip_memory());
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
        BOOST_CHECK_EXCEPTION(test::run_kernel(kernel, 64, 1, nullptr, c, chip_memory()), KernelFault, [](const KernelFault& f) {
            return std::string(f.what()).find("barrier deadlock in block (0,0,0): warp 0 waits at barrier 0; warp 1 waits at barrier 1") !=
                   std::string::npos;
        });
    }
}

// The scoreboard entries each instruction waits on, in the order that names a stall (d, a, b,
// c, the vector registers, the guard, pd, pa, pb, pc, a fence's memory entry, a texture's
// coordinates, sampler and values); calls and returns then wait on every row.
BOOST_AUTO_TEST_CASE(scoreboard_map_lists_what_each_instruction_waits_on) {
    const char* body = R"(
.global .texref tex;
.func (.param .b32 res) twice(.param .b32 x) {
  .reg .u32 %q<2>; .reg .pred %t;
  ld.param.u32 %q0, [x];
  setp.eq.u32 %t, %q0, 99;
  @%t exit;
  add.u32 %q1, %q0, %q0;
  st.param.b32 [res], %q1;
  ret;
}
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<12>; .reg .u64 %rd<3>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 add.u32 %r2, %r1, %r3;
  @%p1 setp.ne.u32 %p2, %r2, %r3;
  ld.global.v2.u32 {%r4, %r5}, [%rd1];
  tex.1d.v4.u32.s32 {%r6, %r7, %r8, %r9}, [tex, {%r1}];
  membar.gl;
  {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    call.uni (r0), twice, (a0);
    ld.param.b32 %r10, [r0];
  }
  st.global.u32 [%rd1], %r10;
  ret;
})";
    ptx::Module m = ptx::parse("k.ptx", std::string(test::kPtxHeader) + body);
    const ptx::Function* entry = nullptr;
    for (const auto& f : m.functions)
        if (f.is_entry) entry = &f;
    // The texture reference needs a device address (any will do here).
    const auto kernel = loader::decode_kernel(m, *entry, loader::VariableAddresses(m.globals.size(), 0x1000));
    ScoreboardMap map;
    map.build(*kernel);
    BOOST_TEST(map.size() == kernel->num_regs + kernel->num_preds + 1);
    BOOST_TEST(map.memory() == kernel->num_regs + kernel->num_preds);
    BOOST_TEST(map.pred(1) == kernel->num_regs + 1);
    BOOST_TEST(map.rows() == kernel->num_regs);
    const auto entries = [&](uint32_t pc) { return std::vector<uint32_t>(map.begin(pc), map.end(pc)); };
    const auto find = [&](const std::string& text) {
        for (uint32_t pc = 0; pc < kernel->code.size(); ++pc)
            if (kernel->text[pc].find(text) != std::string::npos) return pc;
        BOOST_FAIL("no instruction " << text);
        return 0u;
    };
    const auto row = [](Row r) { return uint32_t(r); };
    using List = std::vector<uint32_t>;

    const uint32_t setp = find("setp.lt.u32");
    const Inst& s = kernel->code[setp];
    BOOST_TEST(s.b < 0);   // the immediate 5 is no scoreboard entry
    BOOST_TEST(entries(setp) == (List{row(s.a), map.pred(s.pd)}));

    const uint32_t add = find("add.u32");
    const Inst& a = kernel->code[add];
    BOOST_TEST(entries(add) == (List{row(a.d), row(a.a), row(a.b), map.pred(a.guard)}));
    BOOST_TEST(!map.waits_for_all_rows(add));

    // The guard comes before the predicate written.
    const uint32_t guarded = find("setp.ne.u32");
    const Inst& g = kernel->code[guarded];
    BOOST_TEST(g.guard != g.pd);
    BOOST_TEST(entries(guarded) == (List{row(g.a), row(g.b), map.pred(g.guard), map.pred(g.pd)}));

    const uint32_t vec = find("ld.global.v2");
    const Inst& v = kernel->code[vec];
    BOOST_TEST(entries(vec) == (List{row(v.a), row(v.vec[0]), row(v.vec[1])}));

    // A texture fetch: the handle is an immediate; then its coordinates and results again.
    const uint32_t tex = find("tex.1d");
    const Inst& t = kernel->code[tex];
    const TexOperands& o = kernel->tex_operands.at(t.target);
    BOOST_TEST(t.a < 0);
    BOOST_TEST(entries(tex) == (List{row(t.b), row(t.vec[0]), row(t.vec[1]), row(t.vec[2]), row(t.vec[3]), row(o.coord[0]),
                                     row(o.value[0]), row(o.value[1]), row(o.value[2]), row(o.value[3])}));

    BOOST_TEST(entries(find("membar")) == List{map.memory()});

    // Calls and returns wait on every row, after what they list.
    for (const char* frame : {"call.uni", "ret"}) {
        BOOST_TEST(entries(find(frame)).empty());
        BOOST_TEST(map.waits_for_all_rows(find(frame)));
    }

    // sm.drain_stores: the kernel's own ret and an exit anywhere (in a called function too) end
    // the thread, and wait for the warp's memory accesses as a fence does; the function's ret, a
    // return, does not. Each is found by the instruction before it.
    ScoreboardMap drained;
    drained.build(*kernel, true);
    const auto drained_entries = [&](uint32_t pc) { return std::vector<uint32_t>(drained.begin(pc), drained.end(pc)); };
    uint32_t function_ret = 0;   // after the function's st.param, the last in the code
    for (uint32_t pc = 0; pc + 1 < kernel->code.size(); ++pc)
        if (kernel->text[pc] == "st.param.b32") function_ret = pc + 1;
    const uint32_t kernel_ret = find("st.global.u32") + 1;
    const uint32_t function_exit = find("setp.eq.u32") + 1;
    BOOST_REQUIRE(kernel->text[kernel_ret].rfind("ret", 0) == 0);
    BOOST_REQUIRE(kernel->text[function_ret].rfind("ret", 0) == 0);
    BOOST_REQUIRE(kernel->text[function_exit].find("exit") != std::string::npos);
    BOOST_TEST(drained_entries(kernel_ret) == List{map.memory()});
    BOOST_TEST(drained_entries(function_exit) == (List{map.pred(kernel->code[function_exit].guard), map.memory()}));
    BOOST_TEST(drained_entries(function_ret).empty());
    BOOST_TEST(entries(function_exit) == List{map.pred(kernel->code[function_exit].guard)});   // without draining
}

// cp.async moves its bytes at issue, but cp.async.wait_all holds the warp until the copy's global
// read has completed (100 cycles of device memory here); without the wait the warp goes on.
BOOST_AUTO_TEST_CASE(cp_async_wait_holds_the_warp_for_the_copy) {
    const std::string kernel = R"(
.shared .align 16 .b8 buf[16];
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<4>; .reg .u64 %rd<6>;
  ld.param.u64 %rd1, [out];
  add.u64 %rd5, %rd1, 4096;
  mov.u32 %r1, buf;
  mov.u64 %rd2, %clock64;
  cp.async.ca.shared.global [%r1], [%rd5], 4;
  WAIT
  mov.u64 %rd3, %clock64;
  ld.shared.u32 %r2, [%r1];
  sub.u64 %rd4, %rd3, %rd2;
  st.global.u64 [%rd1], %rd4;
  st.global.u32 [%rd1+8], %r2;
  ret;
})";
    auto delta = [&](const char* wait) {
        std::string k = kernel;
        k.replace(k.find("WAIT"), 4, wait);
        auto mem = test::run_kernel(k, 32, 1, nullptr, timing_config(), chip_memory());
        BOOST_TEST(mem.u32(2) == 0u);   // the source bytes are zero
        return uint64_t(mem.u32(0)) | uint64_t(mem.u32(1)) << 32;
    };
    BOOST_TEST(delta("cp.async.wait_all;") >= 100u);
    BOOST_TEST(delta("") < 100u);
}
