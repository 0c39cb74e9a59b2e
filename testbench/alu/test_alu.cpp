// Testbench of the ALU's operations (rtl_models/alu), outside the golden families captured on the
// GPU: each instruction taken through the unit's recogniser, as the loader takes it, and run on a
// warp of known registers. Predicate logic, selects, carry chains, saturating and bit-field
// operations, byte permutes and dot products, half-precision pairs, and the forms the unit refuses.
#define BOOST_TEST_MODULE alu
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "alu/alu_ops.h"
#include "alu/narrow_float.h"
#include "isa/exec_context.h"

using namespace gpusim;

namespace {

// One warp of 16 register rows and 4 predicates, and an instruction built from a recogniser's choice.
struct Lanes {
    std::vector<uint64_t> regs = std::vector<uint64_t>(16 * kWarpSize, 0);
    Warp w;
    ExecContext ctx;
    Lanes() {
        w.regs = regs.data();
        w.preds.assign(4, 0);
    }
    uint64_t* row(Row r) { return w.row(r); }
    // Fills row `r` with f(lane).
    template <class F>
    void set(Row r, F&& f) {
        for (int l = 0; l < kWarpSize; ++l) row(r)[l] = f(l);
    }
    // Runs `name.mods` with destination row 0 and sources rows 1, 2, 3 (and row 4 as the fourth).
    void run(const std::string& op, std::vector<std::string> mods, LaneMask mask = ~0u) {
        OpChoice c = select_alu_op(OpSpec{op, std::move(mods)});
        BOOST_REQUIRE_MESSAGE(c.fn, op << ": " << c.error);
        Inst in;
        in.fn = c.fn;
        in.aux = c.aux;
        in.round = c.round;
        in.offset = int64_t(c.code);
        in.d = 0, in.a = 1, in.b = 2, in.c = 3;
        if (c.layout == Layout::D_A_B_C_E) in.vec[0] = 4;
        in.pd = 0, in.pa = 1, in.pb = 2, in.pc = 3;
        c.fn(ctx, w, in, mask);
    }
};

std::string refusal(const std::string& op, std::vector<std::string> mods) {
    OpChoice c = select_alu_op(OpSpec{op, std::move(mods)});
    return c.fn ? "taken" : c.error;
}

} // namespace

BOOST_AUTO_TEST_CASE(predicate_logic_combines_lane_masks) {
    Lanes x;
    x.w.preds[1] = 0x0000FFFFu;
    x.w.preds[2] = 0x00FF00FFu;
    x.run("and", {"pred"});
    BOOST_TEST(x.w.preds[0] == 0x000000FFu);
    x.run("or", {"pred"});
    BOOST_TEST(x.w.preds[0] == 0x00FFFFFFu);
    x.run("xor", {"pred"});
    BOOST_TEST(x.w.preds[0] == 0x00FFFF00u);
    x.w.preds[0] = 0;
    x.run("not", {"pred"}, 0x0000000Fu);          // inactive lanes keep their bits
    BOOST_TEST(x.w.preds[0] == 0x00000000u);
    x.w.preds[1] = 0;
    x.run("not", {"pred"}, 0x0000000Fu);
    BOOST_TEST(x.w.preds[0] == 0x0000000Fu);
}

BOOST_AUTO_TEST_CASE(selp_picks_per_lane_by_its_predicate) {
    Lanes x;
    x.set(1, [](int l) { return 100 + l; });
    x.set(2, [](int l) { return 200 + l; });
    x.w.preds[3] = 0xAAAAAAAAu;                   // odd lanes
    x.run("selp", {"b32"});
    for (int l = 0; l < kWarpSize; ++l) BOOST_TEST(x.row(0)[l] == uint64_t(l % 2 ? 100 + l : 200 + l));
}

BOOST_AUTO_TEST_CASE(a_carry_chain_adds_64_bits_in_two_halves) {
    Lanes x;
    // Low words: lane l adds 0xFFFFFFFF + l, so lanes 1.. carry into the high words.
    x.set(1, [](int) { return 0xFFFFFFFFull; });
    x.set(2, [](int l) { return uint64_t(l); });
    x.run("add", {"cc", "u32"});
    for (int l = 0; l < kWarpSize; ++l) BOOST_TEST(x.row(0)[l] == uint64_t(uint32_t(0xFFFFFFFFull + l)));
    BOOST_TEST(x.w.carry == 0xFFFFFFFEu);
    x.set(1, [](int) { return 7; });
    x.set(2, [](int) { return 0; });
    x.run("addc", {"u32"});
    for (int l = 0; l < kWarpSize; ++l) BOOST_TEST(x.row(0)[l] == (l ? 8u : 7u));
    BOOST_TEST(x.w.carry == 0xFFFFFFFEu);          // addc without .cc leaves the carry
    // Subtraction borrows.
    x.set(1, [](int l) { return uint64_t(l); });
    x.set(2, [](int) { return 16; });
    x.run("sub", {"cc", "u32"});
    BOOST_TEST(x.w.carry == 0x0000FFFFu);          // lanes 0-15 borrowed
}

BOOST_AUTO_TEST_CASE(saturating_and_bit_field_operations) {
    Lanes x;
    x.set(1, [](int l) { return l ? 0x7FFFFFF0u : 0x80000000u; });
    x.set(2, [](int l) { return l ? 0x100u : uint32_t(-1); });
    x.run("add", {"sat", "s32"});
    BOOST_TEST(x.row(0)[0] == 0x80000000u);        // INT_MIN - 1 clamps
    BOOST_TEST(x.row(0)[1] == 0x7FFFFFFFu);        // INT_MAX overflow clamps
    // bfe.u32: 8 bits from bit 4.
    x.set(1, [](int) { return 0x12345678u; });
    x.set(2, [](int) { return 4; });
    x.set(3, [](int) { return 8; });
    x.run("bfe", {"u32"});
    BOOST_TEST(x.row(0)[5] == 0x67u);
    // bfi.b32: insert a's low 8 bits into b at bit 8.
    x.set(1, [](int) { return 0xAB; });
    x.set(2, [](int) { return 0x11223344u; });
    x.set(3, [](int) { return 8; });
    x.set(4, [](int) { return 8; });
    x.run("bfi", {"b32"});
    BOOST_TEST(x.row(0)[0] == 0x1122AB44u);
}

BOOST_AUTO_TEST_CASE(permutes_logic_tables_and_dot_products) {
    Lanes x;
    x.set(1, [](int) { return 0x33221100u; });
    x.set(2, [](int) { return 0x77665544u; });
    x.set(3, [](int) { return 0x0123u; });          // bytes 3, 2, 1, 0: a byte reversal
    x.run("prmt", {"b32"});
    BOOST_TEST(x.row(0)[0] == 0x00112233u);
    x.set(3, [](int) { return 0x7654u; });          // b's bytes
    x.run("prmt", {"b32"});
    BOOST_TEST(x.row(0)[0] == 0x77665544u);
    // lop3 with the table 0x96: a ^ b ^ c.
    x.set(1, [](int l) { return uint64_t(0xF0F0F0F0u + l); });
    x.set(2, [](int) { return 0xFF00FF00u; });
    x.set(3, [](int) { return 0x0FF00FF0u; });
    x.set(4, [](int) { return 0x96; });
    x.run("lop3", {"b32"});
    for (int l = 0; l < kWarpSize; ++l) BOOST_TEST(x.row(0)[l] == uint64_t((0xF0F0F0F0u + l) ^ 0xFF00FF00u ^ 0x0FF00FF0u));
    // dp4a.u32.u32: the four byte products summed onto c.
    x.set(1, [](int) { return 0x04030201u; });
    x.set(2, [](int) { return 0x01010101u * 2; });
    x.set(3, [](int) { return 1000; });
    x.run("dp4a", {"u32", "u32"});
    BOOST_TEST(x.row(0)[0] == 1000u + 2 * (1 + 2 + 3 + 4));
    // dp4a.s32.s32 with negative bytes.
    x.set(1, [](int) { return 0xFFFFFFFFu; });      // four times -1
    x.set(2, [](int) { return 0x02020202u; });
    x.set(3, [](int) { return 0; });
    x.run("dp4a", {"s32", "s32"});
    BOOST_TEST(uint32_t(x.row(0)[0]) == uint32_t(-8));
}

BOOST_AUTO_TEST_CASE(half_pairs_add_lane_by_lane) {
    Lanes x;
    x.set(1, [](int) { return 0x40003C00u; });      // {1.0, 2.0}
    x.set(2, [](int) { return 0x3C004000u; });      // {2.0, 1.0}
    x.run("add", {"f16x2"});
    BOOST_TEST(x.row(0)[0] == 0x42004200u);         // {3.0, 3.0}
}

BOOST_AUTO_TEST_CASE(the_unit_refuses_forms_it_does_not_execute) {
    BOOST_TEST(refusal("add", {"sat", "s32"}) == "taken");
    BOOST_TEST(refusal("add", {"sat", "u32"}) == "unsupported instruction 'add.sat.u32'");
    BOOST_TEST(refusal("mul24", {"lo", "u64"}) == "");      // not a form of the unit at all
    BOOST_TEST(refusal("vadd", {"sat", "u32", "u32", "u32"}) == "");   // the video unit's: left to it
    BOOST_TEST(refusal("add", {"u64", "cc"}) == "taken");
    BOOST_TEST(refusal("prmt", {"b64"}) == "");
}

BOOST_AUTO_TEST_CASE(bit_masks_and_field_extensions) {
    Lanes x;
    // bmsk.wrap.b32 of position 1, width 2: 0b110 (the PTX ISA's example); a width that reaches
    // past bit 31 stops there; a width of 0 is an empty mask; position and width wrap modulo 32;
    // .clamp keeps a width of 32 and more as "to bit 31" and a position of 32 and more as empty.
    const uint32_t pos[] = {1, 30, 0, 33, 33, 4, 0};
    const uint32_t width[] = {2, 8, 0, 2, 0, 40, 32};
    const uint32_t wrap[] = {0x6, 0xC0000000u, 0, 0x6, 0, 0xFF0u, 0};
    const uint32_t clamp[] = {0x6, 0xC0000000u, 0, 0, 0, 0xFFFFFFF0u, 0xFFFFFFFFu};
    x.set(1, [&](int l) { return pos[l % 7]; });
    x.set(2, [&](int l) { return width[l % 7]; });
    x.run("bmsk", {"wrap", "b32"});
    for (int l = 0; l < 7; ++l) BOOST_TEST(x.row(0)[l] == wrap[l], "lane " << l);
    x.run("bmsk", {"clamp", "b32"});
    for (int l = 0; l < 7; ++l) BOOST_TEST(x.row(0)[l] == clamp[l], "lane " << l);
    // szext of 0x000000F0 by 8 bits: -16 signed, 240 unsigned; by 0 bits: 0 (wrap: 32 is 0 too);
    // .clamp leaves the value whole at 32 and more.
    x.set(1, [](int) { return 0xF0u; });
    x.set(2, [](int l) { return l == 0 ? 8 : l == 1 ? 0 : l == 2 ? 32 : 4; });
    x.run("szext", {"wrap", "s32"});
    BOOST_TEST(x.row(0)[0] == 0xFFFFFFF0u);
    BOOST_TEST(x.row(0)[1] == 0u);
    BOOST_TEST(x.row(0)[2] == 0u);
    BOOST_TEST(x.row(0)[3] == 0u);                  // the low 4 bits of 0xF0
    x.run("szext", {"clamp", "s32"});
    BOOST_TEST(x.row(0)[2] == 0xF0u);
    x.run("szext", {"wrap", "u32"});
    BOOST_TEST(x.row(0)[0] == 0xF0u);
    BOOST_TEST(refusal("bmsk", {"b32"}) == "");     // no mode: not a form of PTX
    BOOST_TEST(refusal("szext", {"clamp", "b32"}) == "");
}

BOOST_AUTO_TEST_CASE(result_modifiers_are_executed_or_refused) {
    // A modifier that changes the result is executed, or the form is refused: never run without it.
    BOOST_TEST(refusal("min", {"NaN", "f32"}) == "taken");
    BOOST_TEST(refusal("max", {"ftz", "NaN", "xorsign", "abs", "f32"}) == "taken");
    BOOST_TEST(refusal("max", {"xorsign", "abs", "f16x2"}) == "taken");
    BOOST_TEST(refusal("min", {"relu", "s32"}) == "taken");
    BOOST_TEST(refusal("fma", {"rn", "relu", "f16"}) == "taken");
    BOOST_TEST(refusal("cvt", {"rn", "relu", "f16x2", "f32"}) == "taken");
    BOOST_TEST(refusal("min", {"NaN", "f64"}) == "unsupported instruction 'min.NaN.f64'");
    BOOST_TEST(refusal("min", {"relu", "u32"}) == "unsupported instruction 'min.relu.u32'");
    BOOST_TEST(refusal("min", {"xorsign", "f32"}) != "taken");             // .xorsign comes with .abs
    BOOST_TEST(refusal("fma", {"rn", "oob", "f16"}) == "unsupported instruction 'fma.rn.oob.f16'");
    BOOST_TEST(refusal("add", {"rn", "relu", "f16"}) != "taken");
    BOOST_TEST(refusal("cvt", {"rn", "relu", "f32", "f64"}).find(".relu converts f32") != std::string::npos);

    Lanes x;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float a[] = {1.0f, -2.0f, 3.0f, -0.0f};
    const float b[] = {nan, 3.0f, -5.0f, 0.0f};
    x.set(1, [&](int l) { return put<float>(a[l % 4]); });
    x.set(2, [&](int l) { return put<float>(b[l % 4]); });
    x.run("min", {"NaN", "f32"});
    BOOST_TEST(x.row(0)[0] == 0x7FFFFFFFu);                 // NaN in: the canonical NaN out
    BOOST_TEST(get<float>(x.row(0)[1]) == -2.0f);
    x.run("min", {"xorsign", "abs", "f32"});
    BOOST_TEST(get<float>(x.row(0)[0]) == 1.0f);            // a NaN operand: the other, sign a ^ b
    BOOST_TEST(get<float>(x.row(0)[1]) == -2.0f);           // |-2| < |3|, signs differ
    BOOST_TEST(get<float>(x.row(0)[2]) == -3.0f);
    x.run("max", {"xorsign", "abs", "f32"});
    BOOST_TEST(get<float>(x.row(0)[2]) == -5.0f);
    x.set(1, [](int l) { return uint64_t(uint32_t(l % 2 ? -5 : 7)); });
    x.set(2, [](int l) { return uint64_t(uint32_t(l % 2 ? -7 : 9)); });
    x.run("max", {"relu", "s32"});
    BOOST_TEST(x.row(0)[0] == 9u);
    BOOST_TEST(x.row(0)[1] == 0u);                          // max(-5, -7) = -5, then ReLU
}

BOOST_AUTO_TEST_CASE(narrow_formats_round_and_saturate) {
    // Largest finite values, and what overflow gives with and without .satfinite.
    BOOST_TEST(round_to_narrow(448.0L, kRn, kE4m3Format) == 0x7Eu);
    BOOST_TEST(round_to_narrow(464.0L, kRn, kE4m3Format) == 0x7Eu);              // a tie: to even, 448
    BOOST_TEST(round_to_narrow(470.0L, kRn, kE4m3Format) == 0x7Fu);              // e4m3 has no infinity: NaN
    BOOST_TEST(round_to_narrow(1e9L, kRn, kE4m3Format, true) == 0x7Eu);
    BOOST_TEST(round_to_narrow(-INFINITY, kRn, kE5m2Format, true) == 0xFBu);     // -57344
    BOOST_TEST(round_to_narrow(57344.0L, kRn, kE5m2Format) == 0x7Bu);
    BOOST_TEST(round_to_narrow(61440.0L, kRn, kE5m2Format) == 0x7Cu);            // the tie rounds to even: infinity
    BOOST_TEST(round_to_narrow(3.5e38L, kRz, kBf16Format) == 0x7F7Fu);
    BOOST_TEST(round_to_narrow(3.5e38L, kRn, kBf16Format) == 0x7F80u);
    // Subnormals: e4m3's smallest is 2^-9, bf16's 2^-133.
    BOOST_TEST(round_to_narrow(std::ldexp(1.0L, -9), kRn, kE4m3Format) == 0x01u);
    BOOST_TEST(round_to_narrow(std::ldexp(1.0L, -10), kRn, kE4m3Format) == 0x00u);  // a tie to even zero
    BOOST_TEST(round_to_narrow(std::ldexp(3.0L, -11), kRn, kE4m3Format) == 0x01u);
    BOOST_TEST(round_to_narrow(std::ldexp(1.0L, -133), kRn, kBf16Format) == 0x0001u);
    BOOST_TEST(narrow_value(0x0001, kBf16Format) == std::ldexp(1.0L, -133));
    BOOST_TEST(narrow_value(0x7E, kE4m3Format) == 448.0L);
    BOOST_TEST(std::isnan(narrow_value(0xFF, kE4m3Format)));
    BOOST_TEST(std::isinf(narrow_value(0x7C, kE5m2Format)));
    // Ties: to even, or away from zero (.rna, tf32); tf32 keeps 10 fraction bits.
    const long double tie = 1.0L + std::ldexp(1.0L, -11);                        // halfway between tf32 values
    BOOST_TEST(round_to_narrow(tie, kRn, kTf32Format) == 0x1FC00u);
    BOOST_TEST(round_to_narrow(tie, kRna, kTf32Format) == 0x1FC01u);
    BOOST_TEST(round_to_narrow(-tie, kRna, kTf32Format) == 0x5FC01u);
}

BOOST_AUTO_TEST_CASE(fused_bf16_rounds_once) {
    // 1.5 * (1 + 2^-7) lies halfway between two bf16 values; a tiny addend decides the rounding,
    // which a sum rounded first to long double would lose (2^-100 is far below its last bit).
    Lanes x;
    x.set(1, [](int) { return uint64_t(0x3FC0); });
    x.set(2, [](int) { return uint64_t(0x3F81); });
    x.set(3, [](int l) { return uint64_t(l % 2 ? 0x8D80 : 0x0D80); });           // -+2^-100
    x.run("fma", {"rn", "bf16"});
    BOOST_TEST(x.row(0)[0] == 0x3FC2u);                                          // up, to 1.515625
    BOOST_TEST(x.row(0)[1] == 0x3FC1u);                                          // down, to 1.5078125
    BOOST_TEST(refusal("fma", {"rn", "ftz", "bf16"}) != "taken");                // bf16 has no .ftz
    BOOST_TEST(refusal("cvt", {"rna", "tf32", "f32"}) == "taken");
    BOOST_TEST(refusal("cvt", {"rna", "bf16", "f32"}) != "taken");
    BOOST_TEST(refusal("cvt", {"rn", "e4m3x2", "f32"}) != "taken");              // needs .satfinite
    BOOST_TEST(refusal("cvt", {"rn", "satfinite", "e5m2x2", "f16x2"}) == "taken");
}
