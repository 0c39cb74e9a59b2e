// The video unit on SmCore: every H200 vector of docs/reference/ptx_semantics.md §11
// (S1-S21) and the measured facts of §1.3-§1.5 and §2.2, plus the loader's checks of selectors,
// negations and operand counts. Where the H200 (ptxas 13 emulation) departs from the ISA (S9-S11,
// S16) the model follows the ISA, as Fermi/Kepler's native video units did; those cases say so.
#define BOOST_TEST_MODULE video
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "loader/loader.h"
#include "ptx/parser.h"
#include "sm/sm_core.h"
#include "common/test_memory.h"

using namespace gpusim;

namespace {

using test::TestMemory;

const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Runs a one-warp kernel whose parameter points at the test memory.
TestMemory run(const std::string& body) {
    ptx::Module m = ptx::parse("k.ptx", std::string(kHeader) + body);
    LaunchInfo l;
    l.kernel = loader::decode_kernel(m, m.functions.front(), {});
    l.block = {kWarpSize, 1, 1};
    l.grid = {1, 1, 1};
    uint64_t out = TestMemory::kBase;
    l.params.resize(sizeof(out));
    std::memcpy(l.params.data(), &out, sizeof(out));
    TestMemory mem;
    MemoryView view(&mem);
    SmConfig cfg;
    SmCore core(cfg, 0, view);
    core.begin_launch(&l);
    core.add_cta(0);
    while (!core.idle()) core.step(1000);
    return mem;
}

// The kernel around one instruction: %r1 = a, %r2 = b, %r3 = c, %r4 = d (preset); stores %r4.
std::string kernel(const std::string& inst, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    return fmt::format(R"(
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, {};
    mov.u32 %r2, {};
    mov.u32 %r3, {};
    mov.u32 %r4, {};
    {};
    st.global.u32 [%rd1], %r4;
    ret;
}})", a, b, c, d, inst);
}

// `inst` names its operands %r4 (d), %r1 (a), %r2 (b), %r3 (c).
uint32_t exec(const std::string& inst, uint32_t a, uint32_t b, uint32_t c = 0, uint32_t d = 0) {
    return run(kernel(inst, a, b, c, d)).u32(0);
}

#define CHECK_VIDEO(inst, a, b, c, want)                                                              \
    do {                                                                                              \
        uint32_t got_ = exec(inst, a, b, c);                                                          \
        BOOST_TEST(got_ == uint32_t(want), inst << std::hex << " a=0x" << uint32_t(a) << " b=0x"      \
                                                << uint32_t(b) << " c=0x" << uint32_t(c) << ": got 0x" \
                                                << got_ << ", want 0x" << uint32_t(want));            \
    } while (0)

// The loader's (or parser's) first error for a kernel made of `inst`.
std::string error_of(const std::string& inst) {
    try {
        ptx::Module m = ptx::parse("k.ptx", std::string(kHeader) + kernel(inst, 0, 0, 0, 0));
        auto errs = loader::check_module(m);
        return errs.empty() ? "" : errs.front().what();
    } catch (const ptx::PtxError& e) {
        return e.what();
    }
}

// The instruction sits on line 14 of the module, indented by 4: column 5.
const char* kInstPos = "k.ptx:14:";

} // namespace

// ---- §11 S1-S21 ----

BOOST_AUTO_TEST_CASE(h200_vectors_simd_merge_and_compare) {
    CHECK_VIDEO("vset4.u32.u32.eq %r4, %r1, %r2, %r3", 0x11223304, 0xAABBCC04, 0x55667788, 0x00000001);     // S1
    CHECK_VIDEO("vset4.u32.u32.eq %r4.b0, %r1, %r2, %r3", 0x11223304, 0xAABBCC04, 0x55667788, 0x55667701);  // S2
    CHECK_VIDEO("vset2.u32.u32.eq %r4.h0, %r1, %r2, %r3", 0x11223304, 0xAABB3304, 0x55667788, 0x55660001);  // S3
    CHECK_VIDEO("vadd4.u32.u32.u32 %r4.b0, %r1, %r2, %r3", 0x11223304, 0xAABBCC04, 0x55667788, 0x55667708); // S4
}

BOOST_AUTO_TEST_CASE(h200_vectors_scalar_selectors) {
    CHECK_VIDEO("vadd.s32.s32.s32 %r4, %r1, %r2", 0x8000, 0xFFFF0000, 0, 0xFFFF8000);        // S5: whole word
    CHECK_VIDEO("vadd.s32.s32.s32 %r4, %r1.b1, %r2.h1", 0x8000, 0xFFFF0000, 0, 0xFFFFFF7F);  // S6: -128 + -1
    CHECK_VIDEO("vadd.s32.u32.u32 %r4, %r1.b1, %r2.h1", 0x8000, 0xFFFF0000, 0, 0x0001007F);  // S7: 128 + 65535
    CHECK_VIDEO("vadd.u32.u32.u32.sat %r4.b2, %r1, %r2, %r3", 200, 100, 0x55667788, 0x55FF7788);  // S8
}

// S9-S11: MEASURED≠DOC. The H200 (ptxas 13 emulation) wraps the all-unsigned sum at 32 bits first
// and gives 0x10, 0x11 and 0x10; the model follows the ISA and saturates the 34-bit sum.
BOOST_AUTO_TEST_CASE(h200_vectors_unsigned_saturation_follow_the_isa) {
    CHECK_VIDEO("vadd.u32.u32.u32.sat %r4, %r1, %r2", 0xFFFFFFF0, 0x20, 0, 0xFFFFFFFF);            // S9 (H200: 0x10)
    CHECK_VIDEO("vadd.u32.u32.u32.sat.add %r4, %r1, %r2, %r3", 0xFFFFFFF0, 0x20, 1, 0x00000000);   // S10 (H200: 0x11)
    CHECK_VIDEO("vadd.u32.u32.u32.sat.max %r4, %r1, %r2, %r3", 0xFFFFFFF0, 0x20, 1, 0xFFFFFFFF);   // S11 (H200: 0x10)
    // §1.3: .sat.min c=0xFFFFFFF0 (H200: 0x10); without .sat the H200 and the ISA agree.
    CHECK_VIDEO("vadd.u32.u32.u32.sat.min %r4, %r1, %r2, %r3", 0xFFFFFFF0, 0x20, 0xFFFFFFF0, 0xFFFFFFF0);
    CHECK_VIDEO("vadd.u32.u32.u32.max %r4, %r1, %r2, %r3", 0xFFFFFFF0, 0x20, 1, 0x10);
}

BOOST_AUTO_TEST_CASE(h200_vectors_saturation) {
    CHECK_VIDEO("vadd.s32.s32.s32.sat.add %r4, %r1, %r2, %r3", 0x7FFFFFF0, 0x20, 1, 0x80000000);  // S12
    CHECK_VIDEO("vadd.s32.u32.u32.sat %r4, %r1, %r2", 0xFFFFFFF0, 0x20, 0, 0x7FFFFFFF);            // S13
    CHECK_VIDEO("vsub.u32.u32.u32.sat %r4, %r1, %r2", 1, 2, 0, 0);                                 // S14
}

BOOST_AUTO_TEST_CASE(h200_vectors_vmad) {
    CHECK_VIDEO("vmad.u32.u32.u32.sat %r4, %r1, %r2, -%r3", 1, 1, 5, 0xFFFFFFFC);   // S15
    CHECK_VIDEO("vmad.s32.u32.u32.sat %r4, %r1, %r2, -%r3", 1, 1, 5, 0xFFFFFFFC);   // S15
    // S16: MEASURED≠DOC. The H200 gives 0 (ptxas multiplies u32 operands >= 2^31 as signed); the
    // model follows the ISA: 0xFFFFFFFE00000001 >> 7.
    CHECK_VIDEO("vmad.u32.u32.u32.shr7 %r4, %r1, %r2, %r3", 0xFFFFFFFF, 0xFFFFFFFF, 0, 0xFC000000);
    CHECK_VIDEO("vmad.s32.u32.u32.shr7 %r4, %r1, %r2, %r3", 0xFFFFFFFF, 0xFFFFFFFF, 0, 0xFC000000);
    CHECK_VIDEO("vmad.u32.u32.u32.shr7 %r4, %r1, %r2, %r3", 0x10000, 0x10000, 0, 0x02000000);      // S17
}

BOOST_AUTO_TEST_CASE(h200_vectors_shift_average_and_pool) {
    CHECK_VIDEO("vshl.s32.s32.u32.clamp.sat %r4, %r1, %r2", 3, 32, 0, 0x80000000);                // S18
    CHECK_VIDEO("vavrg4.s32.s32.s32 %r4, %r1, %r2, %r3", 0x01FF03FD, 0, 0, 0x01FF02FE);            // S19
    CHECK_VIDEO("vadd2.u32.u32.u32 %r4, %r1.h01, %r2.h32, %r3", 0x00020001, 0, 0, 0x00010002);     // S20
    CHECK_VIDEO("vadd2.u32.u32.u32 %r4, %r1.h23, %r2.h10, %r3", 0x00020001, 0x00400030, 0, 0x00320041);  // S21
}

// ---- §1.3 mixed signedness ----

BOOST_AUTO_TEST_CASE(mixed_signedness_compares_extended_values) {
    CHECK_VIDEO("vmax.u32.s32.u32 %r4, %r1, %r2", 0xFFFFFFFF, 5, 0, 5);
    CHECK_VIDEO("vmin.u32.s32.u32 %r4, %r1, %r2", 0xFFFFFFFF, 5, 0, 0xFFFFFFFF);
    CHECK_VIDEO("vmin.u32.s32.u32.sat %r4, %r1, %r2", 0xFFFFFFFF, 5, 0, 0);
    CHECK_VIDEO("vmax.s32.u32.s32.sat %r4, %r1, %r2", 0xFFFFFFFF, 0, 0, 0x7FFFFFFF);
    CHECK_VIDEO("vabsdiff.s32.s32.s32 %r4, %r1, %r2", 0x80000000, 0x7FFFFFFF, 0, 0xFFFFFFFF);
    CHECK_VIDEO("vabsdiff.s32.s32.s32.sat %r4, %r1, %r2", 0x80000000, 0x7FFFFFFF, 0, 0x7FFFFFFF);
}

BOOST_AUTO_TEST_CASE(vset_and_merges) {
    CHECK_VIDEO("vset.u32.u32.lt %r4, %r1, %r2", 1, 2, 0, 1);
    CHECK_VIDEO("vset.s32.u32.lt %r4, %r1, %r2", 0xFFFFFFFF, 0, 0, 1);   // -1 < 0
    CHECK_VIDEO("vset.u32.u32.ge.add %r4, %r1, %r2, %r3", 7, 7, 41, 42);
    CHECK_VIDEO("vset.u32.u32.ne %r4.h1, %r1.b0, %r2.b1, %r3", 0x12, 0x1200, 0xAAAABBBB, 0x0000BBBB);
    CHECK_VIDEO("vsub.s32.s32.s32.sat %r4.h0, %r1, %r2, %r3", 0, 0x10000, 0x12345678, 0x12348000);
    CHECK_VIDEO("vmax.u32.u32.u32 %r4.b3, %r1.b3, %r2.b0, %r3", 0x7F000000, 0x80, 0x00112233, 0x80112233);
}

// ---- §1.4 vshl / vshr ----

BOOST_AUTO_TEST_CASE(shifts_clamp_wrap_and_the_s34_intermediate) {
    CHECK_VIDEO("vshl.u32.u32.u32.wrap %r4, %r1, %r2", 3, 33, 0, 6);
    CHECK_VIDEO("vshl.u32.u32.u32.clamp %r4, %r1, %r2", 3, 40, 0, 0);
    CHECK_VIDEO("vshl.s32.s32.u32.clamp.sat %r4, %r1, %r2", 1, 31, 0, 0x7FFFFFFF);
    CHECK_VIDEO("vshr.s32.s32.u32.clamp %r4, %r1, %r2", uint32_t(-16), 40, 0, 0xFFFFFFFF);
    CHECK_VIDEO("vshr.u32.u32.u32.wrap %r4, %r1, %r2", 0x80000000, 32, 0, 0x80000000);
    // [ZLUDA] vshr_clamp.
    CHECK_VIDEO("vshr.u32.u32.u32.clamp.add %r4, %r1, %r2, %r3", 0x8e2da590, 16, 0x248a9f70, 0x248B2D9D);
    CHECK_VIDEO("vshr.u32.u32.u32.clamp.add %r4, %r1, %r2, %r3", 0x8e2da590, 32, 0x248a9f70, 0x248a9f70);
}

// ---- §1.5 vmad ----

BOOST_AUTO_TEST_CASE(vmad_plus_one_negation_scaling_and_saturation) {
    CHECK_VIDEO("vmad.u32.u32.u32.po %r4, %r1, %r2, %r3", 3, 4, 5, 18);
    CHECK_VIDEO("vmad.s32.s32.s32 %r4, -%r1, %r2, %r3", 3, 4, 5, uint32_t(-7));
    CHECK_VIDEO("vmad.s32.s32.s32 %r4, %r1, -%r2, %r3", 3, 4, 5, uint32_t(-7));
    CHECK_VIDEO("vmad.s32.s32.s32 %r4, -%r1, -%r2, %r3", 3, 4, 5, 17);   // the product's negations cancel
    CHECK_VIDEO("vmad.s32.s32.s32.sat.shr7 %r4, %r1, %r2, %r3", 0x7FFFFFFF, 0x7FFFFFFF, 0, 0x7FFFFFFF);
    CHECK_VIDEO("vmad.u32.u32.u32 %r4, %r1, %r2, %r3", 0x10000, 0x10000, 0, 0);
    CHECK_VIDEO("vmad.u32.u32.u32.sat %r4, %r1, %r2, %r3", 0x10000, 0x10000, 0, 0xFFFFFFFF);
    CHECK_VIDEO("vmad.s32.s32.s32.shr7 %r4, %r1, %r2, %r3", 0x40000000, 0x100, 0, 0x80000000);
    CHECK_VIDEO("vmad.s32.s32.s32.shr15 %r4, %r1.h0, %r2.h0, %r3", 0x8000, 0x7FFF, 0, 0xFFFF8001);
}

// ---- §2.2 SIMD ----

BOOST_AUTO_TEST_CASE(simd_masks_accumulation_rounding_and_saturation) {
    // Inputs of the S3 pair: lanes 0 and 1 are equal, so .lt writes 0 into both selected bytes.
    CHECK_VIDEO("vset4.u32.u32.lt %r4.b10, %r1, %r2, %r3", 0x11223304, 0xAABB3304, 0xAABBCCDD, 0xAABB0000);
    CHECK_VIDEO("vabsdiff4.u32.u32.u32.add %r4, %r1, %r2, %r3", 0x0A0B0C0D, 0x0D0C0B0A, 100, 108);
    CHECK_VIDEO("vsub4.s32.s32.s32.add %r4, %r1, %r2, %r3", 0, 0x01010101, 100, 96);
    // §2.2 records only the result 1+100; these inputs make exactly one lane compare true.
    CHECK_VIDEO("vset4.u32.u32.lt.add %r4, %r1, %r2, %r3", 1, 2, 100, 101);
    CHECK_VIDEO("vavrg2.u32.u32.u32 %r4, %r1, %r2, %r3", 0x00030001, 0x00000002, 0, 0x00020002);
    CHECK_VIDEO("vadd4.u32.u32.u32.sat %r4, %r1, %r2, %r3", 0xF0010203, 0x20010203, 0, 0xFF020406);
    CHECK_VIDEO("vadd4.s32.s32.s32.sat %r4, %r1, %r2, %r3", 0x80, 0xFF, 0, 0x80);
    CHECK_VIDEO("vmax2.s32.s32.s32 %r4, %r1, %r2, %r3", 0x0001FFFE, 0x0002FFFF, 0, 0x0002FFFF);
    // Only the masked lanes are accumulated; 4-way selectors pick bytes of either operand.
    CHECK_VIDEO("vadd2.u32.u32.u32.add %r4.h1, %r1, %r2, %r3", 0x00010002, 0x00100020, 1000, 1017);
    CHECK_VIDEO("vadd4.u32.u32.u32 %r4, %r1.b7654, %r2.b0123, %r3", 0x04030201, 0x40302010, 0, 0x41322314);
    CHECK_VIDEO("vmin4.u32.u32.u32 %r4.b31, %r1, %r2, %r3", 0x05050505, 0x01090109, 0xEEEEEEEE, 0x01EE01EE);
}

// ---- lanes, guards, immediates ----

BOOST_AUTO_TEST_CASE(every_lane_computes_its_own_value_and_guards_are_respected) {
    TestMemory mem = run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 0x01010101;
    mov.u32 %r3, 7;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 vsub4.s32.s32.s32 %r3, %r2, 0x10101010, 0;
    vmad.s32.s32.s32 %r4, -%r1.b0, 3, -5;
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    st.global.u32 [%rd3+4], %r4;
    ret;
})");
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        uint32_t lane = uint32_t(uint8_t(int(t) - 0x10));
        uint32_t want = t < 16 ? lane * 0x01010101u : 7;
        BOOST_TEST(mem.u32(2 * t) == want, "thread " << t);
        BOOST_TEST(mem.u32(2 * t + 1) == uint32_t(-3 * int(t) - 5), "thread " << t);
    }
}

// ---- the loader's checks: every error names the PTX position ----

BOOST_AUTO_TEST_CASE(malformed_video_instructions_are_rejected_with_their_position) {
    auto err = [](const std::string& inst) { return error_of(inst); };
    auto pos = [](int col, const std::string& msg) { return std::string(kInstPos) + std::to_string(col) + ": error: " + msg; };
    BOOST_TEST(err("vadd.u32.u32.u32 %r4.b3210, %r1, %r2, %r3") ==
               pos(22, "'.b3210' is not a scalar video selector (.b0 .b1 .b2 .b3 .h0 .h1)"));
    BOOST_TEST(err("vadd2.u32.u32.u32 %r4, %r1.b0, %r2, %r3") ==
               pos(28, "'.b0' is not a 2-way source selector (.hxy with x, y in 0-3)"));
    BOOST_TEST(err("vadd4.u32.u32.u32 %r4.b01, %r1, %r2, %r3") ==
               pos(23, "'.b01' is not a 4-way destination mask (bytes in descending order, e.g. .b0 .b31 .b3210)"));
    BOOST_TEST(err("vadd2.u32.u32.u32 %r4.h2, %r1, %r2, %r3") ==
               pos(23, "'.h2' is not a 2-way destination mask (.h0 .h1 .h10)"));
    BOOST_TEST(err("vadd.u32.u32.u32 %r4, %r1, %r2, %r3") == pos(5, "'vadd.u32.u32.u32' takes 3 operands, found 4"));
    BOOST_TEST(err("vadd.u32.u32.u32.add %r4, %r1, %r2") == pos(5, "'vadd.u32.u32.u32.add' takes 4 operands, found 3"));
    BOOST_TEST(err("vadd4.u32.u32.u32 %r4, %r1, %r2") == pos(5, "'vadd4.u32.u32.u32' takes 4 operands, found 3"));
    BOOST_TEST(err("vadd.u32.u32.u32.add %r4.b0, %r1, %r2, %r3") ==
               pos(26, "a merge destination cannot be combined with a secondary operation"));
    BOOST_TEST(err("vmad.u32.u32.u32.po %r4, -%r1, %r2, %r3") == pos(30, "vmad.po sources may not be negated"));
    BOOST_TEST(err("vmad.s32.s32.s32 %r4, -%r1, %r2, -%r3") ==
               pos(38, "vmad negates either the product a*b or c, not both"));
    BOOST_TEST(err("vmad.u32.u32.u32 %r4.b0, %r1, %r2, %r3") == pos(22, "the destination of vmad takes no selector"));
    BOOST_TEST(err("vshl.u32.u32.s32.clamp %r4, %r1, %r2") ==
               pos(5, "'vshl.u32.u32.s32.clamp': the shift amount type must be .u32"));
    BOOST_TEST(err("vshr.u32.u32.u32 %r4, %r1, %r2") == pos(5, "'vshr.u32.u32.u32': needs exactly one of .clamp and .wrap"));
    BOOST_TEST(err("vset.u32.u32.lt.sat %r4, %r1, %r2") == pos(5, "'vset.u32.u32.lt.sat': modifier '.sat' does not apply"));
    BOOST_TEST(err("vset.u32.u32 %r4, %r1, %r2") ==
               pos(5, "'vset.u32.u32': needs exactly one compare (.eq .ne .lt .le .gt .ge)"));
    BOOST_TEST(err("vadd.u32.u32 %r4, %r1, %r2") ==
               pos(5, "'vadd.u32.u32': needs 3 type modifiers (.u32 or .s32), found 2"));
    BOOST_TEST(err("vadd.u32.u32.u16 %r4, %r1, %r2") == pos(5, "'vadd.u32.u32.u16': modifier '.u16' does not apply"));
    BOOST_TEST(err("vadd4.u32.u32.u32.sat.add %r4, %r1, %r2, %r3") ==
               pos(5, "'vadd4.u32.u32.u32.sat.add': .sat cannot be combined with .add"));
    BOOST_TEST(err("vmin2.u32.u32.u32.min %r4, %r1, %r2, %r3") ==
               pos(5, "'vmin2.u32.u32.u32.min': modifier '.min' does not apply"));
    BOOST_TEST(err("vadd.u32.u32.u32.add.min %r4, %r1, %r2, %r3") ==
               pos(5, "'vadd.u32.u32.u32.add.min': takes at most one secondary operation (.add .min .max)"));
    BOOST_TEST(err("vadd.u32.u32.u32.sat.sat %r4, %r1, %r2") == pos(5, "'vadd.u32.u32.u32.sat.sat': modifier '.sat' is repeated"));
    BOOST_TEST(err("vavrg.u32.u32.u32 %r4, %r1, %r2") == pos(5, "unsupported instruction 'vavrg.u32.u32.u32'"));
    BOOST_TEST(err("vadd.u32.u32.u32 _, %r1, %r2") == pos(22, "expected a destination register"));
}

BOOST_AUTO_TEST_CASE(well_formed_video_instructions_decode) {
    const char* forms[] = {
        "vadd.u32.u32.u32 %r4, %r1, %r2",
        "vsub.s32.u32.s32.sat %r4, %r1.h1, %r2.b3",
        "vabsdiff.u32.s32.s32.min %r4, %r1, %r2, %r3",
        "vmin.s32.s32.s32 %r4.h1, %r1.h0, %r2.h1, %r3",
        "vmax.u32.u32.u32.sat.max %r4, %r1.b2, %r2, %r3",
        "vshl.u32.s32.u32.wrap.add %r4, %r1, %r2, %r3",
        "vshr.s32.s32.u32.clamp %r4.b1, %r1, %r2, %r3",
        "vmad.s32.s32.u32.sat.shr15 %r4, -%r1.h1, %r2.b0, %r3",
        "vmad.u32.u32.u32 %r4, %r1, %r2, -%r3",
        "vmad.u32.u32.u32.po.shr7 %r4, %r1, %r2, %r3",
        "vset.s32.s32.ge.max %r4, %r1, %r2.h1, %r3",
        "vset2.s32.u32.ne.add %r4.h10, %r1.h31, %r2.h02, %r3",
        "vset4.u32.s32.gt %r4.b3210, %r1.b7654, %r2.b0123, 0",
        "vavrg2.s32.s32.s32 %r4, %r1, %r2, 0",
        "vabsdiff4.u32.u32.u32.add %r4, %r1, %r2, 0",
        "vsub2.u32.u32.u32.sat %r4.h1, %r1, %r2, %r3",
        "vmin4.s32.s32.s32 %r4.b20, %r1, %r2, %r3",
        "vmax4.u32.u32.u32.sat %r4.b3, %r1.b7777, %r2.b0000, %r3",
    };
    for (const char* f : forms) BOOST_TEST(error_of(f) == "", f);
}
