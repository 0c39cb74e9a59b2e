// Testbench of the loader (sw/loader): PTX functions decoded into kernel images (operands as
// register and immediate rows, guards, timing classes), branches given their reconvergence points
// from the control-flow graph, instructions that order with other SMs marked, and every form the
// model cannot execute refused at its position.
#define BOOST_TEST_MODULE loader
#include <boost/test/unit_test.hpp>

#include <string>

#include "isa/matrix_form.h"
#include "loader/cfg.h"
#include "common/ptx_text.h"
#include "loader/loader.h"
#include "ptx/parser.h"
#include "sm/simt_stack.h"
#include "sm/sm_core.h"

using namespace gpusim;
using namespace gpusim::ptx;

namespace {

const char* const kHeader = test::kPtxHeader;

std::string error_of(const std::string& src) { return test::first_error(src); }

// The first entry of `body` (after the header), decoded.
std::shared_ptr<KernelImage> decode(const std::string& body) {
    Module m = parse("t.ptx", std::string(kHeader) + body);
    return loader::decode_kernel(m, m.functions.front(), {});
}

// The index of the n-th instruction whose PTX opcode is `name`.
uint32_t find(const KernelImage& k, const std::string& name, int n = 0) {
    for (uint32_t i = 0; i < k.code.size(); ++i)
        if (k.text[k.code[i].text_index] == name && n-- == 0) return i;
    BOOST_FAIL("no instruction " << name);
    return 0;
}

} // namespace

BOOST_AUTO_TEST_CASE(operands_become_register_and_immediate_rows) {
    auto k = decode(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>; .reg .pred %p<2>; .reg .f32 %f<3>;
  add.u32 %r1, %r2, 5;
  @!%p1 add.f32 %f1, %f2, %f2;
  ret;
})");
    const Inst& add = k->code[find(*k, "add.u32")];
    BOOST_TEST(add.fn != nullptr);
    BOOST_TEST(add.d >= 0);
    BOOST_TEST(add.a >= 0);
    BOOST_TEST(add.a != add.d);
    BOOST_REQUIRE(add.b < 0);                       // an immediate: a row of the pool
    for (int l = 0; l < kWarpSize; ++l) BOOST_TEST(k->imm_row(add.b)[l] == 5u);
    BOOST_TEST(add.guard == -1);
    BOOST_TEST(int(add.op_class) == int(OpClass::IntAdd));
    const Inst& fadd = k->code[find(*k, "add.f32")];
    BOOST_TEST(fadd.guard >= 0);
    BOOST_TEST(fadd.guard_negated);
    BOOST_TEST(fadd.a == fadd.b);                   // the same register, the same row
    BOOST_TEST(int(fadd.op_class) == int(OpClass::Fp32));
    BOOST_TEST(fadd.source_line == 8u);
}

BOOST_AUTO_TEST_CASE(a_divergent_branch_reconverges_at_its_post_dominator) {
    auto k = decode(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>; .reg .pred %p<2>;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra ELSE;
  add.u32 %r2, %r2, 1;
  bra.uni JOIN;
ELSE:
  sub.u32 %r2, %r2, 1;
JOIN:
  mul.lo.u32 %r3, %r2, 2;
  ret;
})");
    const uint32_t branch = find(*k, "bra"), join = find(*k, "mul.lo.u32");
    BOOST_TEST(k->code[branch].target == find(*k, "sub.u32"));
    BOOST_TEST(k->code[branch].reconv == join);
}

BOOST_AUTO_TEST_CASE(a_loop_branch_reconverges_after_the_loop) {
    auto k = decode(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>; .reg .pred %p<2>;
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, %r2;
  @%p1 bra LOOP;
  mov.u32 %r3, %r1;
  ret;
})");
    const uint32_t back = find(*k, "bra");
    BOOST_TEST(k->code[back].target == find(*k, "add.u32"));
    BOOST_TEST(k->code[back].reconv == find(*k, "mov.u32", 1));
}

BOOST_AUTO_TEST_CASE(the_post_dominator_tree_of_a_graph) {
    // 0: cond branch to 3; 1: next; 2: branch to 4; 3: next; 4: exit.
    std::vector<loader::Flow> flow(5);
    flow[0] = {loader::Flow::Kind::Branch, true, 3, {}};
    flow[2] = {loader::Flow::Kind::Branch, false, 4, {}};
    flow[4] = {loader::Flow::Kind::Exit, false, 0, {}};
    loader::ControlFlowGraph g(flow);
    BOOST_TEST(g.blocks().size() == 4u);            // {0}, {1,2}, {3}, {4}
    BOOST_TEST(g.block_of(2) == g.block_of(1));
    BOOST_TEST(g.ipdom(g.block_of(0)) == g.block_of(4));
    BOOST_TEST(g.reconvergence_pc(g.block_of(0), 99) == 4u);
    BOOST_TEST(g.ipdom(g.block_of(4)) == loader::ControlFlowGraph::kExitBlock);
}

BOOST_AUTO_TEST_CASE(atomics_whose_order_shows_are_marked_ordered) {
    auto k = decode(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>; .reg .f32 %f<2>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  atom.global.add.u32 %r1, [%rd1], 1;
  st.global.u32 [%rd1+4], %r1;
  red.global.add.u32 [%rd1+8], 1;
  red.global.add.f32 [%rd1+12], %f1;
  ret;
})");
    const Inst& atom = k->code[find(*k, "atom.global.add.u32")];
    const Inst& red = k->code[find(*k, "red.global.add.u32")];
    const Inst& fred = k->code[find(*k, "red.global.add.f32")];
    BOOST_TEST((atom.dest_flags & kOrdered) != 0);       // its old value is read
    BOOST_TEST((red.dest_flags & kOrdered) == 0);        // an integer add nobody reads: any order
    BOOST_TEST((red.aux & kAtomCommutes) != 0);
    BOOST_TEST((fred.dest_flags & kOrdered) != 0);       // a float sum depends on the order
    BOOST_TEST(k->reductions_meet_ordered);
}

BOOST_AUTO_TEST_CASE(every_problem_of_a_module_is_listed) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(.visible .entry a()
{
  .reg .b64 %rd<3>; .reg .b32 %r<3>;
  mapa.u64 %rd1, %rd1, %r2;
  ret;
}
.visible .entry b()
{
  .reg .b64 %rd<3>; .reg .b32 %r<3>;
  mapa.u64 %rd2, %rd2, %r1;
  ret;
})");
    auto errors = loader::check_module(m);
    BOOST_REQUIRE(errors.size() == 2u);
    BOOST_TEST(std::string(errors[0].what()) == "t.ptx:7:3: error: unsupported instruction 'mapa.u64'");
    BOOST_TEST(std::string(errors[1].what()) == "t.ptx:13:3: error: unsupported instruction 'mapa.u64'");
}

BOOST_AUTO_TEST_CASE(a_function_is_found_at_its_definition) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(.func (.reg .b32 r) f (.reg .b32 a);
.visible .entry k()
{
  ret;
}
.func (.reg .b32 r) f (.reg .b32 a)
{
  mov.u32 r, a;
  ret;
})");
    const uint32_t index = loader::function_definition(m, "f");
    BOOST_TEST(index == 2u);
    BOOST_TEST(m.functions[index].name == "f");
}

BOOST_AUTO_TEST_CASE(unsupported_instruction_is_rejected_at_load_with_name_and_line) {
    // Clusters are outside the model's scope (Fermi has none): mapa will stay unsupported.
    std::string src = std::string(kHeader) + ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
                      "  mapa.u64 %rd1, %rd1, %r2;\n  ret;\n}";
    BOOST_TEST(error_of(src) == "t.ptx:8:3: error: unsupported instruction 'mapa.u64'");
    Module m = parse("t.ptx", src);
    BOOST_CHECK_THROW(loader::decode_kernel(m, m.functions[0], {}), PtxError);
}

// Vector atomics: their element lists become a MatrixOperands (d written, b read); forms PTX has
// no vector of (shared memory, an f32 min) are refused with what the vector forms are.
BOOST_AUTO_TEST_CASE(vector_atomics_decode_their_element_lists) {
    auto k = decode(R"(.visible .entry k(.param .u64 p)
{
  .reg .f32 %f<9>; .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  atom.global.add.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1], {%f5, %f6, %f7, %f8};
  red.global.add.v2.f32 [%rd1+16], {%f5, %f6};
  ret;
})");
    const Inst& atom = k->code[find(*k, "atom.global.add.v4.f32")];
    BOOST_TEST(bool(atom.dest_flags & kMemAtomic));
    BOOST_TEST(bool(atom.dest_flags & kMatrixRows));
    BOOST_TEST(int(atom.width) * int(atom.vec_count) == 16);
    const MatrixOperands& o = k->matrix_operands[atom.target];
    BOOST_TEST(o.d.size() == 4u);
    BOOST_TEST(o.b.size() == 4u);
    const Inst& red = k->code[find(*k, "red.global.add.v2.f32")];
    BOOST_TEST(k->matrix_operands[red.target].d.empty());
    BOOST_TEST(red.offset == 16);
    const std::string shared = error_of(std::string(kHeader) + ".visible .entry k()\n{\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<2>;\n"
                                        "  atom.shared.add.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};\n  ret;\n}");
    BOOST_TEST(shared.find("vector atomics are add on .v2/.v4 .f32") != std::string::npos, shared);
    BOOST_TEST(error_of(std::string(kHeader) + ".visible .entry k()\n{\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<2>;\n"
                        "  atom.global.min.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};\n  ret;\n}") != "");
}

// Texture and surface instructions: the forms the model executes load, the others are refused
// at their position with the reason.
BOOST_AUTO_TEST_CASE(texture_instruction_forms_are_checked_at_load) {
    auto kernel = [](const std::string& body) {
        return std::string(kHeader) + ".global .texref t;\n.visible .entry k(.param .u64 h)\n{\n"
               "  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p;\n" + body + "\n  ret;\n}";
    };
    BOOST_TEST(error_of(kernel("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];")) == "");
    BOOST_TEST(error_of(kernel("  tex.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%r1, %f5, %f6, %f6}];")) == "");
    BOOST_TEST(error_of(kernel("  suld.b.2d.v2.b32.clamp {%r1, %r2}, [%rd1, {%r3, %r4}];")) == "");
    BOOST_TEST(error_of(kernel("  istypep.texref %p, %rd1;")) == "");
    BOOST_TEST(error_of(kernel("  txq.width.b32 {%r1, %r2}, [%rd1];")) ==
               "t.ptx:11:3: error: 'txq.width.b32': answers into one register");
    BOOST_TEST(error_of(kernel("  tld4.r.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];")) ==
               "t.ptx:11:3: error: 'tld4.r.1d.v4.f32.f32': gathers 2d, a2d, cube or acube textures");
    BOOST_TEST(error_of(kernel("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], {%r1, %r2};")) ==
               "t.ptx:11:3: error: 'tex.2d.v4.f32.f32': texel offsets and depth comparison are not modelled");
    BOOST_TEST(error_of(kernel("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1+8, {%f5, %f6}];")) ==
               "t.ptx:11:43: error: a texture or surface handle takes no offset");
    BOOST_TEST(error_of(kernel("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f5, %f6}];")) ==
               "t.ptx:11:43: error: a texture or surface handle is a 64-bit register; '%r1' is not");
    BOOST_TEST(error_of(kernel("  ld.global.u32 %r1, [%rd1, {%r2}];")) ==
               "t.ptx:11:29: error: only texture and surface instructions take operands after the address");
}

// ptxas gives registers to the values live at once; the PTX names one virtual register per value.
// Here 10 .b32 and 3 .b64 registers are declared (16 words); at most %rd1, %rd2 (two words each)
// and %r4 are live at once (at the second add.u64): 5 words.
BOOST_AUTO_TEST_CASE(registers_are_estimated_from_the_values_live_at_once) {
    auto k = decode(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<10>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 2;
  add.u32 %r4, %r3, 3;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r4;
  ret;
})");
    BOOST_TEST(k->regs_per_thread == 16u);
    BOOST_TEST(k->live_regs_per_thread == 5u);
    SmConfig cfg;
    cfg.register_granularity = 8;
    BOOST_TEST(SmCore::registers_per_thread(cfg, *k) == 16u);   // declared: 16, a multiple of 8
    cfg.register_estimate = "live";
    BOOST_TEST(SmCore::registers_per_thread(cfg, *k) == 8u);    // 5 rounded up to 8
    cfg.register_floor = 16;
    BOOST_TEST(SmCore::registers_per_thread(cfg, *k) == 16u);
}

// A value read after a loop stays live through it: the loop's back edge carries it round.
BOOST_AUTO_TEST_CASE(a_value_used_after_a_loop_is_live_through_it) {
    auto k = decode(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>; .reg .b64 %rd<2>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0;
  mov.u32 %r2, 7;
LOOP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 10;
  @%p1 bra LOOP;
  add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd1], %r3;
  ret;
})");
    // Inside the loop %rd1 (2 words), %r1 and %r2 are live: 4 words; nothing needs more.
    BOOST_TEST(k->live_regs_per_thread == 4u);
}

namespace {

// The instructions of a kernel in order, by their opcodes.
std::string opcode_order(const KernelImage& k) {
    std::string s;
    for (const Inst& in : k.code) s += k.text[in.text_index] + ";";
    return s;
}

std::shared_ptr<KernelImage> decode_with(const Module& m, bool hoist, bool aggregate) {
    loader::DecodeOptions options;
    options.hoist_loads = hoist;
    options.aggregate_atomics = aggregate;
    return loader::decode_kernel(m, m.functions.front(), {}, nullptr, options);
}

} // namespace

// sm.hoist_loads: within a run of arithmetic and loads, the loads and the arithmetic that forms
// their addresses go first; a store ends the run, and what follows it stays after it.
BOOST_AUTO_TEST_CASE(loads_are_hoisted_past_independent_arithmetic_only) {
    const std::string src = std::string(kHeader) + R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  add.f32 %f1, %f2, %f3;
  mul.f32 %f4, %f1, %f1;
  ld.global.f32 %f5, [%rd3];
  add.f32 %f5, %f5, %f4;
  st.global.f32 [%rd3], %f5;
  ld.global.f32 %f2, [%rd1];
  ret;
})";
    Module m = parse("t.ptx", src);
    auto plain = decode_with(m, false, false);
    auto moved = decode_with(m, true, false);
    BOOST_TEST(opcode_order(*plain) == "ld.param.u64;mov.u32;mul.wide.u32;add.u64;add.f32;mul.f32;ld.global.f32;add.f32;"
                                       "st.global.f32;ld.global.f32;ret;ret (end of function body);");
    // The global load and the chain that forms its address (the longest path to the run's end)
    // pass the f32 arithmetic; the second load stays after the store to the same space.
    BOOST_TEST(opcode_order(*moved) == "mov.u32;ld.param.u64;mul.wide.u32;add.u64;ld.global.f32;add.f32;mul.f32;add.f32;"
                                       "st.global.f32;ld.global.f32;ret;ret (end of function body);");
    BOOST_TEST(moved->live_regs_per_thread == plain->live_regs_per_thread);   // estimated in the PTX's order
}

// An unrolled loop body as nvcc writes it (load, use, next address, load, use): the second load's
// address add passes the first FMA, so both loads are in flight before either FMA, as ptxas
// schedules them; the FMAs keep their order (the second reads the first's result).
BOOST_AUTO_TEST_CASE(an_unrolled_body_issues_every_load_before_the_arithmetic) {
    const std::string src = std::string(kHeader) + R"(.visible .entry k(.param .u64 in)
{
  .reg .b64 %rd<4>; .reg .f32 %f<10>;
  ld.param.u64 %rd1, [in];
  mov.f32 %f9, 0f00000000;
  ld.global.f32 %f1, [%rd1];
  fma.rn.f32 %f2, %f1, %f1, %f9;
  add.s64 %rd2, %rd1, 512;
  ld.global.f32 %f3, [%rd2];
  fma.rn.f32 %f4, %f3, %f3, %f2;
  st.global.f32 [%rd1], %f4;
  ret;
})";
    Module m = parse("t.ptx", src);
    auto moved = decode_with(m, true, false);
    BOOST_TEST(opcode_order(*moved) == "ld.param.u64;ld.global.f32;add.s64;ld.global.f32;mov.f32;fma.rn.f32;fma.rn.f32;"
                                       "st.global.f32;ret;ret (end of function body);");
    // The first FMA still reads the first load's value, and the second the first FMA's.
    const auto& code = moved->code;
    BOOST_TEST(code[5].a == code[1].d);
    BOOST_TEST(code[6].c == code[5].d);
}

// A global load passes a shared store (their spaces do not alias), as ptxas issues a tile's
// LDGs ahead of the STS that park their values; a shared load stays after the shared stores.
BOOST_AUTO_TEST_CASE(loads_pass_stores_to_another_space_only) {
    const std::string src = std::string(kHeader) + R"(.visible .entry k(.param .u64 in)
{
  .reg .b32 %r<8>; .reg .b64 %rd<4>;
  .shared .align 4 .b8 smem[64];
  ld.param.u64 %rd1, [in];
  mov.u32 %r2, smem;
  ld.global.u32 %r3, [%rd1];
  st.shared.u32 [%r2], %r3;
  ld.global.u32 %r4, [%rd1+4];
  st.shared.u32 [%r2+4], %r4;
  ld.shared.u32 %r5, [%r2];
  st.global.u32 [%rd1], %r5;
  ret;
})";
    Module m = parse("t.ptx", src);
    auto moved = decode_with(m, true, false);
    BOOST_TEST(opcode_order(*moved) == "ld.param.u64;ld.global.u32;ld.global.u32;mov.u32;st.shared.u32;st.shared.u32;"
                                       "ld.shared.u32;st.global.u32;ret;ret (end of function body);");
}

// sm.aggregate_atomics: an integer add to a warp-uniform address is timed as one lane's when its
// operand is warp-uniform too, or when its result is not read (one lane adds the warp's sum); not
// one to a per-lane address, another operation, nor one whose varying operand's results are read
// (a per-lane value, or a register defined twice).
BOOST_AUTO_TEST_CASE(warp_uniform_atomic_adds_are_marked_aggregated) {
    const std::string src = std::string(kHeader) + R"(.visible .entry k(.param .u64 out, .param .u32 step)
{
  .reg .pred %p<2>; .reg .b32 %r<16>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [step];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, %ctaid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd2, %rd5;
  red.global.add.u32 [%rd4], %r1;
  atom.global.add.u32 %r4, [%rd2], 1;
  red.global.add.u32 [%rd6], 1;
  atom.global.add.u32 %r5, [%rd2], %r3;
  atom.global.exch.b32 %r6, [%rd2], %r1;
  setp.eq.u32 %p1, %r3, 0;
  selp.u32 %r7, 1, 2, %p1;
  atom.global.add.u32 %r9, [%rd2], %r7;
  red.global.add.u32 [%rd2], %r3;
  mov.u32 %r8, 1;
  @%p1 mov.u32 %r8, 2;
  atom.global.add.u32 %r10, [%rd2], %r8;
  add.u32 %r11, %r5, %r9;
  add.u32 %r12, %r11, %r10;
  add.u32 %r13, %r12, %r4;
  st.global.u32 [%rd6], %r13;
  ret;
})";
    Module m = parse("t.ptx", src);
    auto marked = decode_with(m, false, true);
    auto unmarked = decode_with(m, false, false);
    std::string flags;
    for (const Inst& in : marked->code)
        if (in.dest_flags & kMemAtomic) flags += (in.aux & kAtomAggregated) ? 'A' : '-';
    // per block address, uniform operand; param address, immediate; per lane address; per lane
    // operand, read; exch; per lane operand (selp), read; per lane operand, unread; defined twice
    BOOST_TEST(flags == "AA----A-");
    for (const Inst& in : unmarked->code) BOOST_TEST(!(in.aux & kAtomAggregated));
}
