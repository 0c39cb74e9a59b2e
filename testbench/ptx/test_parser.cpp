// PTX front end: good modules parse into the expected structure; every error names file:line:col.
#define BOOST_TEST_MODULE ptx_parser
#include <boost/test/unit_test.hpp>

#include "common/ptx_text.h"
#include "loader/loader.h"
#include "ptx/parser.h"

using namespace gpusim;
using namespace gpusim::ptx;

namespace {

const char* const kHeader = test::kPtxHeader;

std::string error_of(const std::string& src) { return test::first_error(src); }

} // namespace

BOOST_AUTO_TEST_CASE(parses_nvcc_module_header_params_and_registers) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [k_param_0];
    ld.param.u32 %r1, [k_param_1];
    setp.ge.u32 %p1, %r1, 4;
    @%p1 bra $L__BB0_2;
    st.global.u32 [%rd1+8], %r1;
$L__BB0_2:
    ret;
})");
    BOOST_TEST(m.version == "9.0");
    BOOST_TEST(m.target == "sm_75");
    BOOST_REQUIRE_EQUAL(m.functions.size(), 1u);
    const Function& f = m.functions[0];
    BOOST_TEST(f.is_entry);
    BOOST_TEST(f.params.size() == 2u);
    BOOST_TEST(f.params[1].type == "u32");
    BOOST_TEST(f.regs.size() == 2u + 6u + 3u);
    BOOST_REQUIRE_EQUAL(f.body.size(), 6u);
    BOOST_TEST(f.body[3].guard >= 0);
    BOOST_TEST(f.body[3].ops[0].target == 5);
    BOOST_TEST(f.body[4].ops[0].offset == 8);
    BOOST_TEST(f.body[4].full_name() == "st.global.u32");
}

BOOST_AUTO_TEST_CASE(inner_scope_declarations_shadow_outer_ones) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(
.visible .entry k()
{
    .reg .b32 %r<3>;
    mov.u32 %r1, 1;
    {
        .reg .b32 %r1;
        mov.u32 %r1, 2;
    }
    mov.u32 %r2, %r1;
    ret;
})");
    const Function& f = m.functions[0];
    BOOST_TEST(f.body[0].ops[0].reg != f.body[1].ops[0].reg);
    BOOST_TEST(f.body[0].ops[0].reg == f.body[2].ops[1].reg);
}

BOOST_AUTO_TEST_CASE(globals_with_alignment_arrays_and_initializers) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(
.global .align 4 .u32 count = 7;
.const .align 4 .b8 tab[6] = {1, 2, 3};
.global .align 8 .f32 vals[2] = {0f3F800000, -2.0};
.extern .shared .align 16 .b8 dyn[];
.shared .align 4 .b8 tile[1024];
)");
    BOOST_REQUIRE_EQUAL(m.globals.size(), 5u);
    BOOST_TEST(m.globals[0].init == std::vector<uint8_t>({7, 0, 0, 0}));
    BOOST_TEST(m.globals[1].size_bytes() == 6u);
    BOOST_TEST(m.globals[1].init == std::vector<uint8_t>({1, 2, 3, 0, 0, 0}));
    BOOST_TEST(m.globals[2].init == std::vector<uint8_t>({0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}));
    BOOST_TEST(m.globals[2].align == 8u);
    BOOST_TEST(m.globals[3].is_extern);
    BOOST_TEST(m.globals[3].count == 0u);
    BOOST_TEST((m.globals[4].space == Space::Shared));
}

BOOST_AUTO_TEST_CASE(vector_operands_and_special_registers) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
    .reg .f32 %f<5>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [p];
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
    ret;
})");
    const Function& f = m.functions[0];
    BOOST_TEST((f.body[0].ops[1].kind == Operand::Kind::Sreg));
    BOOST_TEST(f.body[0].ops[1].name == "%tid.x");
    BOOST_TEST((f.body[2].ops[0].kind == Operand::Kind::Vector));
    BOOST_TEST(f.body[2].ops[0].elems.size() == 4u);
    BOOST_TEST(loader::check_module(m).empty());
}

BOOST_AUTO_TEST_CASE(qualifiers_may_start_with_a_digit) {
    // nvcc writes the L2 prefetch size as .L2::128B (cp.async, ld.global); it is a hint.
    Module m = parse("t.ptx", std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.L2::128B.u32 %r1, [%rd1];
    ld.global.nc.L1::no_allocate.L2::256B.u32 %r1, [%rd1];
    ret;
})");
    const Function& f = m.functions[0];
    BOOST_TEST(f.body[1].mods.size() == 3u);
    BOOST_TEST(f.body[1].mods[1] == "L2::128B");
    BOOST_TEST(f.body[2].mods[3] == "L2::256B");
    BOOST_TEST(loader::check_module(m).empty());
    // Elsewhere a number followed by letters is still an error.
    const std::string bad = std::string(kHeader) + ".visible .entry k(.param .u64 p)\n{\n    .reg .b32 %r<2>;\n"
                            "    .reg .b64 %rd<2>;\n    ld.global.u32 %r1, [%rd1+12B];\n    ret;\n}\n";
    BOOST_TEST(error_of(bad).find("malformed number '12B'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(video_selectors_and_negated_registers) {
    Module m = parse("t.ptx", std::string(kHeader) + R"(
.visible .entry k()
{
    .reg .b32 %r<6>;
    vadd.u32.u32.u32.sat %r1.b0, %r2.h1, %r3.b3, %r4;
    vadd2.u32.u32.u32 %r1.h10, %r2.h23, %r3 .h01, %r4;
    vset4.u32.u32.eq %r5.b31, %r2.b3210, %r3.b7654, %r4;
    vmad.s32.s32.s32 %r1, -%r2.h0, -%r3, -%r4;
    vmad.s32.s32.s32 %r1, %r2, %r3, %r4;
    ret;
})");
    const auto& b = m.functions[0].body;
    BOOST_TEST(b[0].ops[0].selector == "b0");
    BOOST_TEST(b[0].ops[1].selector == "h1");
    BOOST_TEST(b[0].ops[2].selector == "b3");
    BOOST_TEST(b[0].ops[3].selector == "");
    BOOST_TEST(b[1].ops[0].selector == "h10");
    BOOST_TEST(b[1].ops[2].selector == "h01");
    BOOST_TEST(b[2].ops[0].selector == "b31");
    BOOST_TEST(b[2].ops[1].selector == "b3210");
    BOOST_TEST(b[2].ops[2].selector == "b7654");
    BOOST_TEST((b[3].ops[1].kind == Operand::Kind::Reg));
    BOOST_TEST(b[3].ops[1].minus);
    BOOST_TEST(b[3].ops[1].selector == "h0");
    BOOST_TEST(b[3].ops[2].minus);
    BOOST_TEST(b[3].ops[3].minus);
    BOOST_TEST(!b[4].ops[1].minus);
    BOOST_TEST(loader::check_module(m).empty());

    std::string h = std::string(kHeader) + ".visible .entry k()\n{\n  .reg .b32 %r<5>;\n  ";  // instruction on line 7
    BOOST_TEST(error_of(h + "add.u32 %r1, %r2.b0, %r3;\n}") ==
               "t.ptx:7:16: error: operand selector '.b0' is only allowed on video instructions");
    BOOST_TEST(error_of(h + "vadd.u32.u32.u32 %r1, %r2.x, %r3;\n}") == "t.ptx:7:28: error: '.x' is not an operand selector");
    BOOST_TEST(error_of(h + "vadd.u32.u32.u32 %r1, %r2.b8, %r3;\n}") == "t.ptx:7:28: error: '.b8' is not an operand selector");
    BOOST_TEST(error_of(h + "vadd2.u32.u32.u32 %r1, %r2.h4, %r3, %r4;\n}") == "t.ptx:7:29: error: '.h4' is not an operand selector");
    BOOST_TEST(error_of(h + "vadd.u32.u32.u32.add %r1, %r2, %r3, %r4.b0;\n}") ==
               "t.ptx:7:39: error: operand selector '.b0' is only allowed on d, a and b");
    BOOST_TEST(error_of(h + "vadd.u32.u32.u32 %r1, -%r2, %r3;\n}") ==
               "t.ptx:7:25: error: '-' before a register is only allowed on the sources of vmad");
    BOOST_TEST(error_of(h + "vmad.u32.u32.u32 -%r1, %r2, %r3, %r4;\n}") ==
               "t.ptx:7:20: error: '-' before a register is only allowed on the sources of vmad");
    BOOST_TEST(error_of(h + "vmad.u32.u32.u32 %r1, %r2, %r3, -NOPE;\n}") ==
               "t.ptx:7:36: error: '-' must be followed by a number or a register");
}

BOOST_AUTO_TEST_CASE(fermi_era_hand_written_ptx) {
    Module m = parse("t.ptx", R"(
	.version 2.3
	.target sm_20
	.address_size 64
	.entry fermi (.param .u64 __cudaparm_out)
	{
	.reg .u32 %r<4>;
	.reg .u64 %rd<3>;
	.loc	1 5 0
	ld.param.u64 	%rd1, [__cudaparm_out];
	mov.u32 	%r1, %tid.x;
	cvt.u64.u32 	%rd2, %r1;
	mul.lo.u64 	%rd2, %rd2, 4;
	add.u64 	%rd2, %rd1, %rd2;
	st.global.u32 	[%rd2+0], %r1;
	exit;
	}
)");
    BOOST_TEST(m.target == "sm_20");
    BOOST_TEST(m.functions[0].body.size() == 7u);
    BOOST_TEST(loader::check_module(m).empty());
}

BOOST_AUTO_TEST_CASE(error_messages_name_file_line_and_column) {
    std::string h = kHeader;  // 3 lines
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  mov.u32 %r1, 1;\n}") == "t.ptx:6:11: error: undeclared register '%r1'");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  bra NOWHERE;\n}") == "t.ptx:7:7: error: undefined label 'NOWHERE'");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  add.u32 %r1, %r0 1;\n}") ==
               "t.ptx:7:20: error: expected ';' but found '1'");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  ret;\n") == "t.ptx:7:1: error: missing '}' at end of function body");
    BOOST_TEST(error_of(h + ".bogus 1;\n") == "t.ptx:4:1: error: unknown or unsupported directive '.bogus'");
    BOOST_TEST(error_of(h + ".global .u32 x = 0fZZ;\n") == "t.ptx:4:18: error: float literal '0f' needs exactly 8 hex digits");
    // A decimal literal beyond .f64 is refused (found by fuzz_fatbin); one below its range is 0.
    BOOST_TEST(error_of(h + ".global .f64 x = 1e999;\n") == "t.ptx:4:18: error: floating-point literal '1e999' is beyond the range of .f64");
    BOOST_TEST(error_of(h + ".global .f64 x = 1e-999;\n").empty());
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  .reg .b32 %r1;\n}") ==
               "t.ptx:7:13: error: register '%r1' is declared twice in this scope");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  add.u32 %r1, %r0;\n  ret;\n}") ==
               "t.ptx:7:3: error: 'add.u32' takes 3 operands, found 2");
    BOOST_TEST(error_of(h + "/* open comment") == "t.ptx:4:1: error: unterminated comment");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .pred %p;\n  .reg .b32 %r;\n  @%r bra L;\nL:\n  ret;\n}") ==
               "t.ptx:8:4: error: guard '%r' is not a predicate");
}

// Declarations that would exhaust the host are refused at once (a mutation campaign found
// `.reg .b32 %r<100000000>;` keeping `gpusim check` busy for over a minute).
BOOST_AUTO_TEST_CASE(giant_declarations_are_refused_at_parse) {
    std::string h = kHeader;
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<100000000>;\n  ret;\n}") ==
               "t.ptx:6:16: error: '%r<100000000>' would give 'k' 100000000 registers; a function may declare at most 1048576");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<1000000>;\n  .reg .f32 %f<100000>;\n  ret;\n}") ==
               "t.ptx:7:16: error: '%f<100000>' would give 'k' 1100000 registers; a function may declare at most 1048576");
    BOOST_TEST(error_of(h + ".global .b64 g[1099511627776][1099511627776];\n") ==
               "t.ptx:4:31: error: 'g' would hold more than 2^48 bytes, more than any address space");
    BOOST_TEST(error_of(h + ".visible .entry k()\n{\n  .reg .b32 %r<4000>;\n  ret;\n}").empty());
}

// nvcc writes a kernel's cluster shape (__cluster_dims__) as directives: a cluster of one block is
// what the model runs; a larger one is refused where it is named.
BOOST_AUTO_TEST_CASE(cluster_directives_of_one_block_parse_and_larger_ones_are_refused) {
    const std::string one = std::string(kHeader) + ".visible .entry k()\n.explicitcluster\n.reqnctapercluster 1, 1, 1\n.maxclusterrank 1\n{\n ret;\n}\n";
    BOOST_TEST(parse("k.ptx", one).functions.size() == 1u);
    const std::string two = std::string(kHeader) + ".visible .entry k()\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{\n ret;\n}\n";
    const std::string e = error_of(two);
    BOOST_TEST(e.find("clusters of more than one block are out of scope") != std::string::npos, e);
    BOOST_TEST(e.find("t.ptx:") != std::string::npos, e);
}
