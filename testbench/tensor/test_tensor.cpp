// Testbench of the tensor unit (rtl_models/tensor) and the LD/ST unit's fragment moves, beside the
// golden families mma and wmma captured on the H100: the fragment layouts place every element
// once, the arithmetic's rules on values built to show them (alignment truncation, rounding
// toward zero, fp8's late addend, f64's chain), and whole PTX kernels through the loader.
#define BOOST_TEST_MODULE tensor
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <set>
#include <tuple>

#include "common/run_kernel.h"
#include "tensor/fragment.h"
#include "tensor/tensor_arith.h"

using namespace gpusim;
using namespace gpusim::tensor;

namespace {

MatrixForm form(int m, int n, int k, Elem a, Elem c, bool wmma = false) {
    MatrixForm f;
    f.m = uint8_t(m);
    f.n = uint8_t(n);
    f.k = uint16_t(k);
    f.a = f.b = a;
    f.c = c;
    f.wmma = wmma;
    return f;
}

uint32_t f32_bits(float x) {
    uint32_t v;
    std::memcpy(&v, &x, 4);
    return v;
}

constexpr uint32_t kHalfOne = 0x3C00;

// f16 2^e for -14 <= e <= 15.
uint32_t half_pow2(int e) { return uint32_t(e + 15) << 10; }

} // namespace

BOOST_AUTO_TEST_CASE(every_element_has_one_slot) {
    const MatrixForm forms[] = {
        form(16, 8, 16, Elem::F16, Elem::F32), form(16, 8, 8, Elem::BF16, Elem::F32), form(16, 8, 16, Elem::F16, Elem::F16),
        form(16, 8, 8, Elem::TF32, Elem::F32), form(16, 8, 4, Elem::TF32, Elem::F32), form(16, 8, 32, Elem::E4M3, Elem::F32),
        form(16, 8, 32, Elem::S8, Elem::S32), form(8, 8, 16, Elem::U8, Elem::S32), form(16, 8, 64, Elem::S4, Elem::S32),
        form(16, 8, 256, Elem::B1, Elem::S32), form(8, 8, 4, Elem::F64, Elem::F64), form(16, 8, 16, Elem::F64, Elem::F64),
        form(16, 16, 16, Elem::F16, Elem::F32, true), form(32, 8, 16, Elem::BF16, Elem::F32, true),
        form(8, 32, 16, Elem::S8, Elem::S32, true), form(16, 16, 8, Elem::TF32, Elem::F32, true),
        form(8, 8, 4, Elem::F64, Elem::F64, true), form(8, 8, 128, Elem::B1, Elem::S32, true)};
    for (const MatrixForm& f : forms)
        for (MatrixUse u : {MatrixUse::A, MatrixUse::B, MatrixUse::C}) {
            const auto slots = fragment_slots(f, u);
            const int regs = fragment_registers(f, u);
            std::set<std::tuple<int, int, int>> seen;
            for (const FragmentSlot& s : slots) {
                BOOST_TEST_REQUIRE(s.reg != 0xFF, "an element without a register: m" << int(f.m) << "n" << int(f.n) << "k" << f.k);
                BOOST_TEST(int(s.reg) < regs);
                BOOST_TEST(seen.insert({s.reg, s.lane, s.pos}).second, "two elements share a slot");
            }
            // Every register of every lane is full: the fragment is exactly its registers.
            const Elem e = u == MatrixUse::A ? f.a : u == MatrixUse::B ? f.b : f.c;
            BOOST_TEST(slots.size() == size_t(regs) * 32 * elements_per_register(e));
        }
}

BOOST_AUTO_TEST_CASE(mma_fragments_follow_the_ptx_isa) {
    // m16n8k16 f16: lane 5 (group 1, thread 1) holds A(1, 2..3) in a0, A(9, 2..3) in a1,
    // A(1, 10..11) in a2; B(2..3, 1) in b0; C(1, 2..3) in c0 and c1, C(9, 2..3) in c2 and c3.
    const MatrixForm f = form(16, 8, 16, Elem::F16, Elem::F32);
    const auto a = fragment_slots(f, MatrixUse::A), b = fragment_slots(f, MatrixUse::B), c = fragment_slots(f, MatrixUse::C);
    auto at = [](const std::vector<FragmentSlot>& s, int row, int col, int cols) { return s[size_t(row) * cols + col]; };
    BOOST_TEST(int(at(a, 1, 3, 16).reg) == 0);
    BOOST_TEST(int(at(a, 1, 3, 16).lane) == 5);
    BOOST_TEST(int(at(a, 1, 3, 16).pos) == 1);
    BOOST_TEST(int(at(a, 9, 2, 16).reg) == 1);
    BOOST_TEST(int(at(a, 1, 10, 16).reg) == 2);
    BOOST_TEST(int(at(b, 3, 1, 8).lane) == 5);
    BOOST_TEST(int(at(b, 3, 1, 8).pos) == 1);
    BOOST_TEST(int(at(c, 9, 3, 8).reg) == 3);
    BOOST_TEST(int(at(c, 9, 3, 8).lane) == 5);
}

BOOST_AUTO_TEST_CASE(products_below_the_alignment_window_vanish) {
    // 1 + eight products of 2^-26: exactly 1 + 2^-23, an f32. The H100 aligns to 25 bits below the
    // largest term and truncates, so each 2^-26 is lost and the result is 1.
    uint32_t a[16], b[16];
    a[0] = b[0] = kHalfOne;
    for (int i = 1; i < 9; ++i) a[i] = b[i] = half_pow2(-13);
    for (int i = 9; i < 16; ++i) a[i] = b[i] = 0;
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, 0) == 0x3F800000u);
    // Two products of 2^-24 are inside the window: 1 + 2^-23.
    a[1] = b[1] = a[2] = b[2] = half_pow2(-12);
    for (int i = 3; i < 9; ++i) a[i] = b[i] = 0;
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, 0) == 0x3F800001u);
}

BOOST_AUTO_TEST_CASE(f32_results_round_toward_zero_and_f16_results_to_nearest) {
    // 1 + 3 * 2^-25 = 1 + 0.75 ulp of f32: toward zero gives 1.
    uint32_t a[16] = {}, b[16] = {};
    a[0] = b[0] = kHalfOne;
    for (int i = 1; i < 4; ++i) { a[i] = half_pow2(-12); b[i] = half_pow2(-13); }
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, 0) == 0x3F800000u);
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, f32_bits(-1.0f)) == 0x33C00000u);   // 3 * 2^-25 exactly
    // f16: 1 + 0.75 ulp (2^-10) rounds up to 1 + 2^-10.
    a[1] = half_pow2(-1);
    b[1] = half_pow2(-10);
    a[2] = half_pow2(-2);
    b[2] = half_pow2(-10);
    a[3] = b[3] = 0;
    BOOST_TEST(dot_float(Elem::F16, Elem::F16, a, b, 16, 0) == 0x3C01u);
}

BOOST_AUTO_TEST_CASE(special_values_follow_ieee_and_write_the_canonical_nan) {
    uint32_t a[16] = {}, b[16] = {};
    a[0] = 0x7C00;   // +inf * 1
    b[0] = kHalfOne;
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, 0) == 0x7F800000u);
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, f32_bits(-INFINITY)) == 0x7FFFFFFFu);
    b[0] = 0;        // inf * 0
    BOOST_TEST(dot_float(Elem::F16, Elem::F32, a, b, 16, 0) == 0x7FFFFFFFu);
    BOOST_TEST(dot_float(Elem::F16, Elem::F16, a, b, 16, 0) == 0x7FFFu);
}

BOOST_AUTO_TEST_CASE(fp8_adds_the_accumulator_last_rounding_to_nearest) {
    // 2^20 + 0.09375 (0.75 ulp at 2^20): the H100 adds C after the products in an IEEE add, to
    // nearest: 2^20 + 2^-3. Summed with the products at once, toward zero, it would stay 2^20.
    uint32_t a[32] = {}, b[32] = {};
    a[0] = 0x34;   // e4m3 0.75
    b[0] = 0x20;   // e4m3 2^-3
    BOOST_TEST(dot_fp8(Elem::E4M3, Elem::E4M3, Elem::F32, a, b, 32, f32_bits(1048576.0f)) == f32_bits(1048576.125f));
}

BOOST_AUTO_TEST_CASE(f64_is_a_chain_of_fused_multiply_adds) {
    // 1 + 2^53 - 2^53: each step rounds, so the 1 is lost (exactly, the sum would be 1).
    auto bits = [](double x) { uint64_t v; std::memcpy(&v, &x, 8); return v; };
    const uint64_t a[4] = {bits(9007199254740992.0), bits(-9007199254740992.0), 0, 0};
    const uint64_t b[4] = {bits(1.0), bits(1.0), 0, 0};
    BOOST_TEST(dot_f64(a, b, 4, bits(1.0)) == bits(0.0));
}

BOOST_AUTO_TEST_CASE(integer_sums_wrap_or_saturate) {
    const uint32_t a[4] = {0x7F, 0x7F, 0x7F, 0x7F}, b[4] = {0x7F, 0x7F, 0x7F, 0x7F};
    const uint32_t c = 0x7FFFFF00u;
    BOOST_TEST(dot_int(Elem::S8, Elem::S8, a, b, 4, c, true) == 0x7FFFFFFFu);
    BOOST_TEST(dot_int(Elem::S8, Elem::S8, a, b, 4, c, false) == c + 4u * 127u * 127u);
    const uint32_t s4[2] = {0xF, 0x8}, u4[2] = {0xF, 0x8};   // s4: -1, -8; u4: 15, 8
    BOOST_TEST(int32_t(dot_int(Elem::S4, Elem::U4, s4, u4, 2, 0, false)) == -15 - 64);
    const uint32_t x[2] = {0xF0F0F0F0u, 1}, y[2] = {0xFF00FF00u, 3};
    BOOST_TEST(dot_b1(x, y, 2, 5, true) == 5u + 16u + 1u);
    BOOST_TEST(dot_b1(x, y, 2, 5, false) == 5u + 8u + 1u);
}

// A whole warp: D = A * B + C with A and B all ones (k = 16) and C the lane's number.
BOOST_AUTO_TEST_CASE(mma_runs_through_the_loader) {
    test::TestMemory mem = test::run_kernel(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.b32 %r2, 0x3C003C00;
    cvt.rn.f32.u32 %f1, %r1;
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r2, %r2, %r2, %r2}, {%r2, %r2}, {%f1, %f1, %f1, %f1};
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
    ret;
})", 32);
    for (uint32_t l = 0; l < 32; ++l)
        for (uint32_t r = 0; r < 4; ++r) BOOST_TEST(mem.u32(l * 4 + r) == f32_bits(16.0f + float(l)), "lane " << l);
}

// wmma: A the identity, B(k, n) = 16k + n; D = B, stored column-major.
BOOST_AUTO_TEST_CASE(wmma_loads_multiplies_and_stores) {
    test::TestMemory mem = test::run_kernel(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b16 %h<3>;
    .reg .b32 %r<32>;
    .reg .f32 %f<20>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
LOOP:
    shl.b32 %r3, %r1, 3;
    add.u32 %r3, %r3, %r2;
    shr.u32 %r4, %r3, 4;
    and.b32 %r5, %r3, 15;
    setp.eq.u32 %p1, %r4, %r5;
    selp.b16 %h1, 0x3C00, 0, %p1;
    cvt.rn.f16.u32 %h2, %r3;
    mul.wide.u32 %rd2, %r3, 2;
    add.s64 %rd3, %rd1, %rd2;
    st.global.b16 [%rd3], %h1;
    st.global.b16 [%rd3+512], %h2;
    add.u32 %r2, %r2, 1;
    setp.lt.u32 %p2, %r2, 8;
    @%p2 bra LOOP;
    bar.sync 0;
    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, [%rd1];
    add.s64 %rd4, %rd1, 512;
    wmma.load.b.sync.aligned.row.m16n16k16.global.f16 {%r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27}, [%rd4];
    mov.f32 %f1, 0f00000000;
    wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%f10, %f11, %f12, %f13, %f14, %f15, %f16, %f17},
        {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, {%r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27},
        {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1};
    add.s64 %rd5, %rd1, 1024;
    wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd5], {%f10, %f11, %f12, %f13, %f14, %f15, %f16, %f17}, 16;
    ret;
})", 32);
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 16; ++c)
            BOOST_TEST(mem.u32(256 + c * 16 + r) == f32_bits(float(16 * r + c)), "D(" << r << ", " << c << ")");
}

BOOST_AUTO_TEST_CASE(an_mma_in_part_of_a_warp_faults) {
    try {
        test::run_kernel(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .f32 %f<6>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 16;
    @%p1 bra DONE;
    mov.b32 %r2, 0;
    mov.f32 %f1, 0f00000000;
    mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r2, %r2}, {%r2}, {%f1, %f1, %f1, %f1};
DONE:
    ret;
})", 32);
        BOOST_FAIL("expected a fault");
    } catch (const KernelFault& f) {
        BOOST_TEST(std::string(f.what()).find("needs all 32 lanes") != std::string::npos, f.what());
    }
}

BOOST_AUTO_TEST_CASE(a_fragment_of_the_wrong_size_is_a_ptx_error) {
    try {
        test::run_kernel(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<6>;
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r2, %r2, %r2}, {%r2, %r2}, {%f1, %f1, %f1, %f1};
    ret;
})", 32);
        BOOST_FAIL("expected a PTX error");
    } catch (const std::exception& e) {
        const std::string what = e.what();
        BOOST_TEST(what.find("takes 4 registers here, found 3") != std::string::npos, what);
        BOOST_TEST(what.find("k.ptx:") != std::string::npos, what);
    }
}
