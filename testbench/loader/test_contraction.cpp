// loader::contract: which multiply/add pairs become one fused instruction, as ptxas fuses them
// (the rules of sw/loader/contraction.h; regress/golden/contraction checks the results on the GPU's).
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "common/ptx_text.h"
#include "isa/isa.h"
#include "loader/contraction.h"
#include "loader/loader.h"
#include "ptx/parser.h"

using namespace gpusim;

namespace {

// The kernel `k` with `body` between its register declarations and its ret.
ptx::Module module_of(const std::string& body) {
    return ptx::parse("t.ptx", std::string(test::kPtxHeader) + R"(.visible .entry k(.param .u64 out)
{
  .reg .f32 %f<20>; .reg .f64 %fd<8>; .reg .b32 %r<8>; .reg .pred %p<4>; .reg .b64 %rd<4>;
)" + body + "\n  ret;\n}\n");
}

struct Contracted {
    loader::ContractionCounts counts;
    std::vector<std::string> ops;   // the body's instructions, full names, after contraction
    ptx::Function fn;
};

Contracted contract(const std::string& body) {
    ptx::Module m = module_of(body);
    Contracted c;
    c.counts = loader::contract(m);
    c.fn = m.functions.front();
    for (const auto& pi : c.fn.body) c.ops.push_back(pi.full_name());
    return c;
}

std::vector<std::string> names(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

} // namespace

BOOST_AUTO_TEST_CASE(a_product_read_only_by_an_add_becomes_one_fma) {
    auto c = contract("mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;");
    BOOST_TEST(c.counts.fused == 1u);
    BOOST_TEST(c.counts.removed == 1u);
    BOOST_TEST(c.ops == names({"fma.rn.f32", "ret"}), boost::test_tools::per_element());
    const auto& f = c.fn.body[0];
    BOOST_TEST(!f.ops[1].minus);
    BOOST_TEST(!f.ops[3].minus);
    BOOST_TEST(f.contracted_from == "mul.f32 + add.f32");
    // Every type ptxas fuses: f64, f16, f16x2, bf16, bf16x2 (cuda_bf16.hpp's operators on sm_90).
    auto bf16 = contract(".reg .b16 %h<4>;\n mul.bf16 %h1, %h2, %h3;\n add.bf16 %h0, %h1, %h2;");
    BOOST_TEST(bf16.ops == names({"fma.rn.bf16", "ret"}), boost::test_tools::per_element());
    auto f64 = contract("mul.f64 %fd1, %fd2, %fd3;\n sub.f64 %fd4, %fd5, %fd1;");
    BOOST_TEST(f64.ops == names({"fma.rn.f64", "ret"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_sub_negates_the_addend_or_the_product) {
    auto first = contract("mul.f32 %f1, %f2, %f3;\n sub.f32 %f4, %f1, %f5;");
    BOOST_TEST(!first.fn.body[0].ops[1].minus);
    BOOST_TEST(first.fn.body[0].ops[3].minus);   // a*b - c
    auto second = contract("mul.f32 %f1, %f2, %f3;\n sub.f32 %f4, %f5, %f1;");
    BOOST_TEST(second.fn.body[0].ops[1].minus);  // c - a*b
    BOOST_TEST(!second.fn.body[0].ops[3].minus);
    auto negated = contract("mul.f32 %f1, %f2, %f3;\n neg.f32 %f6, %f1;\n sub.f32 %f4, %f5, %f6;");
    BOOST_TEST(negated.counts.removed == 2u);    // the neg goes with the multiply
    BOOST_TEST(!negated.fn.body[0].ops[1].minus);   // c - (-(a*b))
}

BOOST_AUTO_TEST_CASE(rounding_modifiers_sat_and_unequal_ftz_keep_a_pair_apart) {
    for (const char* body : {"mul.rn.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;",
                             "mul.f32 %f1, %f2, %f3;\n add.rz.f32 %f4, %f1, %f5;",
                             "mul.sat.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;",
                             "mul.ftz.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;",
                             "mul.f32 %f1, %f2, %f3;\n add.ftz.f32 %f4, %f1, %f5;",
                             "div.approx.ftz.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;",
                             "div.rn.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;",
                             "mul.rn.f64 %fd1, %fd2, %fd3;\n add.f64 %fd4, %fd1, %fd5;"}) {
        BOOST_TEST_CONTEXT(body) { BOOST_TEST(contract(body).counts.fused == 0u); }
    }
    auto sat = contract("mul.ftz.f32 %f1, %f2, %f3;\n add.ftz.sat.f32 %f4, %f1, %f5;");
    BOOST_TEST(sat.ops == names({"fma.rn.ftz.sat.f32", "ret"}), boost::test_tools::per_element());
    auto div = contract("div.full.f32 %f1, %f2, %f3;\n add.f32 %f4, %f5, %f1;");
    BOOST_TEST(div.ops == names({"div+add.full.f32", "ret"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_product_with_any_other_reader_is_fused_nowhere) {
    // Stored as well, added to itself, read in another block: the multiply stays, and so do its adds.
    BOOST_TEST(contract("mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;\n mov.f32 %f6, %f1;").counts.fused == 0u);
    BOOST_TEST(contract("mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f1;").counts.fused == 0u);
    BOOST_TEST(contract("mul.f32 %f1, %f2, %f3;\n @%p1 bra L;\n add.f32 %f4, %f1, %f5;\nL:\n add.f32 %f6, %f1, %f5;")
                   .counts.fused == 0u);
    // Read by two adds: both fused, the multiply gone.
    auto two = contract("mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;\n sub.f32 %f6, %f5, %f1;");
    BOOST_TEST(two.counts.fused == 2u);
    BOOST_TEST(two.ops == names({"fma.rn.f32", "fma.rn.f32", "ret"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_add_of_two_products_fuses_its_first_operand_s) {
    auto c = contract("mul.f32 %f1, %f2, %f3;\n mul.f32 %f6, %f2, %f7;\n sub.f32 %f4, %f6, %f1;");
    BOOST_TEST(c.ops == names({"mul.f32", "fma.rn.f32", "ret"}), boost::test_tools::per_element());
    BOOST_TEST(c.fn.body[1].ops[3].minus);                                  // f6's product, minus f1
    BOOST_TEST(c.fn.body[1].ops[3].reg == c.fn.body[0].ops[0].reg);        // f1 stays a multiply
    // The first operand's product also read elsewhere: the second's is fused instead.
    auto other = contract("mul.f32 %f1, %f2, %f3;\n mov.f32 %f9, %f1;\n mul.f32 %f6, %f2, %f7;\n add.f32 %f4, %f1, %f6;");
    BOOST_TEST(other.ops == names({"mul.f32", "mov.f32", "fma.rn.f32", "ret"}), boost::test_tools::per_element());
    // A product passed over by one of its adds is fused into none of them.
    auto passed = contract("mul.f32 %f6, %f2, %f7;\n mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f6, %f1;\n sub.f32 %f5, %f1, %f8;");
    BOOST_TEST(passed.ops == names({"mul.f32", "fma.rn.f32", "sub.f32", "ret"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(labels_move_to_the_next_instruction_that_stays) {
    auto c = contract("@%p1 bra L;\n add.f32 %f9, %f9, %f9;\nL:\n mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;\n @%p2 bra L;");
    BOOST_TEST(c.ops == names({"bra", "add.f32", "fma.rn.f32", "bra", "ret"}), boost::test_tools::per_element());
    BOOST_TEST(c.fn.body[0].ops[0].target == 2);
    BOOST_TEST(c.fn.body[3].ops[0].target == 2);
}

BOOST_AUTO_TEST_CASE(a_factor_the_product_overwrites_stays_for_the_fused_instruction) {
    // lg2's result scaled in place, then added: the register keeps lg2's value once the mul is gone.
    auto c = contract("mul.f32 %f1, %f1, 0f3F317218;\n add.f32 %f4, %f1, %f5;");
    BOOST_TEST(c.ops == names({"fma.rn.f32", "ret"}), boost::test_tools::per_element());
    // A factor written between the multiply and the add: the pair stays apart.
    BOOST_TEST(contract("mul.f32 %f1, %f2, %f3;\n mov.f32 %f2, %f9;\n add.f32 %f4, %f1, %f5;").counts.fused == 0u);
    // The product's register written again later: only the reads before that are its.
    auto again = contract("mul.f32 %f1, %f2, %f3;\n add.f32 %f4, %f1, %f5;\n mul.f32 %f1, %f4, %f3;\n add.f32 %f6, %f1, %f5;");
    BOOST_TEST(again.counts.fused == 2u);
}

BOOST_AUTO_TEST_CASE(decoded_negations_travel_in_aux_and_contraction_follows_the_config) {
    ptx::Module m = module_of("mul.f32 %f1, %f2, %f3;\n sub.f32 %f4, %f5, %f1;");
    loader::contract(m);
    auto img = loader::decode_kernel(m, m.functions.front(), {});
    const Inst& fma = img->code[0];
    BOOST_TEST(img->text[fma.text_index] == "fma.rn.f32 (mul.f32 + sub.f32)");
    BOOST_TEST(fma.aux == kNegateProduct);
    BOOST_TEST(int(fma.op_class) == int(OpClass::Fp32));
    // The '-' that contraction writes is not PTX: the parser still refuses it on an fma.
    BOOST_TEST(test::first_error(std::string(test::kPtxHeader) +
                                 ".visible .entry k() { .reg .f32 %f<4>; fma.rn.f32 %f1, -%f2, %f3, %f0; ret; }") != "");
}
