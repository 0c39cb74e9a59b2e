// Golden family "contraction": which multiply/add pairs ptxas fuses into one FFMA, DFMA or HFMA2,
// seen through the results. The PTX of each kernel is written out in inline asm, so the pair is
// in the module exactly as a compiler would leave it; the GPU runs it through the driver's ptxas.
// Most kernels add a product to a near-opposite term (the same product with b's last bit flipped,
// rounded by mul.rn, which ptxas never fuses), so a fused pair and a rounded pair differ in almost
// every lane. Inputs: a, b, c are f32 bit patterns (edge values crossed, then random); the f64
// kernels pair two of them into one double, the f16 kernels take their low halves.
// Outputs: d[i] = the result's bits (two 32-bit results are packed, the first in the low half).
#include "golden.cuh"
GOLDEN_FAMILY("contraction", kF32, kF32, kF32)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define C ((u32)c[i])

// n = -(a * (b ^ 1)), rounded: a term that nearly cancels a*b.
#define NEAR "xor.b32 %%r9, %2, 1; mul.rn.f32 %%n, %1, %%r9; neg.f32 %%n, %%n;"
#define REGS ".reg .f32 %%t, %%u, %%n; .reg .b32 %%r9; .reg .pred %%p;"

// One f32 result from a, b, c (operands %1, %2, %3; result %0).
#define K1(name, body) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm("{" REGS NEAR body "}" : "=f"(*(float*)&r) : "f"(__uint_as_float(A)), "f"(__uint_as_float(B)), \
        "f"(__uint_as_float(C))); d[i] = r; }
// Two f32 results (%0 low, %1 high; operands %2, %3, %4).
#define NEAR2 "xor.b32 %%r9, %3, 1; mul.rn.f32 %%n, %2, %%r9; neg.f32 %%n, %%n;"
#define K2(name, body) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r, s;                \
    asm("{" REGS NEAR2 body "}" : "=f"(*(float*)&r), "=f"(*(float*)&s) : "f"(__uint_as_float(A)), \
        "f"(__uint_as_float(B)), "f"(__uint_as_float(C))); d[i] = r | (u64)s << 32; }

// The plain pair, in each operand order and with sub.
K1(mul_add, "mul.f32 %%t, %1, %2; add.f32 %0, %%t, %%n;")
K1(add_mul, "mul.f32 %%t, %1, %2; add.f32 %0, %%n, %%t;")
K1(mul_sub, "mul.f32 %%t, %1, %2; sub.f32 %0, %%t, %%n;")
K1(sub_mul, "mul.f32 %%t, %1, %2; sub.f32 %0, %%n, %%t;")
K1(mul_add_raw, "mul.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(mul_sub_raw, "mul.f32 %%t, %1, %2; sub.f32 %0, %3, %%t;")
// Rounding modifiers, ftz and sat on either side.
K1(mulrn_add, "mul.rn.f32 %%t, %1, %2; add.f32 %0, %%t, %%n;")
K1(mul_addrn, "mul.f32 %%t, %1, %2; add.rn.f32 %0, %%t, %%n;")
K1(mulrz_add, "mul.rz.f32 %%t, %1, %2; add.f32 %0, %%t, %%n;")
K1(mul_addrz, "mul.f32 %%t, %1, %2; add.rz.f32 %0, %%t, %%n;")
K1(ftz_both, "mul.ftz.f32 %%t, %1, %2; add.ftz.f32 %0, %%t, %%n;")
K1(ftz_mul, "mul.ftz.f32 %%t, %1, %2; add.f32 %0, %%t, %%n;")
K1(ftz_add, "mul.f32 %%t, %1, %2; add.ftz.f32 %0, %%t, %%n;")
K1(ftz_both_raw, "mul.ftz.f32 %%t, %1, %2; add.ftz.f32 %0, %%t, %3;")
K1(ftz_mul_raw, "mul.ftz.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(ftz_add_raw, "mul.f32 %%t, %1, %2; add.ftz.f32 %0, %%t, %3;")
K1(sat_mul, "mul.sat.f32 %%t, %1, %2; add.f32 %0, %%t, %%n;")
K1(sat_add, "mul.f32 %%t, %1, %2; add.sat.f32 %0, %%t, %%n;")
K1(sat_add_raw, "mul.f32 %%t, %1, %2; add.sat.f32 %0, %%t, %3;")
// Immediates.
K1(imm_mul, "mul.f32 %%t, %1, 0f3FC00001; add.f32 %0, %%t, %3;")
K1(imm_add, "mul.f32 %%t, %1, %2; add.f32 %0, %%t, 0f3F800000;")
// Two products into one add or sub: which of them is fused, by operand and by program order.
K1(two_sub, "mul.f32 %%t, %1, %2; xor.b32 %%r9, %2, 1; mul.f32 %%u, %1, %%r9; sub.f32 %0, %%t, %%u;")
K1(two_sub_late_first, "xor.b32 %%r9, %2, 1; mul.f32 %%u, %1, %%r9; mul.f32 %%t, %1, %2; sub.f32 %0, %%t, %%u;")
K1(two_add, "mul.f32 %%t, %1, %2; xor.b32 %%r9, %2, 1; neg.f32 %%u, %1; mul.f32 %%u, %%u, %%r9; add.f32 %0, %%t, %%u;")
K1(two_add_late_first, "xor.b32 %%r9, %2, 1; neg.f32 %%u, %1; mul.f32 %%u, %%u, %%r9; mul.f32 %%t, %1, %2; add.f32 %0, %%t, %%u;")
K1(two_sub_rn_first, "mul.rn.f32 %%t, %1, %2; xor.b32 %%r9, %2, 1; mul.f32 %%u, %1, %%r9; sub.f32 %0, %%t, %%u;")
// A product read twice, or read and kept.
K2(two_adds, "mul.f32 %%t, %2, %3; add.f32 %0, %%t, %%n; sub.f32 %1, %%n, %%t;")
K2(add_and_keep, "mul.f32 %%t, %2, %3; add.f32 %0, %%t, %%n; mov.f32 %1, %%t;")
K2(add_and_mul, "mul.f32 %%t, %2, %3; add.f32 %0, %%t, %%n; mul.f32 %1, %%t, %4;")
K1(self_add, "mul.f32 %%t, %1, %2; add.f32 %0, %%t, %%t;")
// A chain: the sum of a fused pair added again, and a product of a sum.
K1(chain, "mul.f32 %%t, %1, %2; add.f32 %%u, %%t, %%n; mul.f32 %%t, %%u, %3; add.f32 %0, %%t, %%n;")
// neg or abs between the multiply and the add.
K1(neg_between, "mul.f32 %%t, %1, %2; neg.f32 %%t, %%t; sub.f32 %0, %%t, %%n;")
K1(abs_between, "mul.f32 %%t, %1, %2; abs.f32 %%t, %%t; add.f32 %0, %%t, %%n;")
// A product that a sum of two products reads second, and reads again as the only product.
K2(first_and_second, "xor.b32 %%r9, %3, 1; mul.f32 %%u, %2, %%r9; mul.f32 %%t, %2, %3; add.f32 %0, %%u, %%t; sub.f32 %1, %%t, %4;")
K1(neg_ftz_between, "mul.ftz.f32 %%t, %1, %2; neg.ftz.f32 %%t, %%t; add.ftz.f32 %0, %%t, %%n;")
K1(neg_twice_used, "mul.f32 %%t, %1, %2; neg.f32 %%u, %%t; add.f32 %0, %%u, %%n; add.f32 %0, %0, %%t;")
// Distance and control flow between them.
K1(far, "mul.f32 %%t, %1, %2; mul.rn.f32 %%u, %3, %3; add.rn.f32 %%u, %%u, %3; mul.rn.f32 %%u, %%u, %3;"
        "add.rn.f32 %%u, %%u, %3; mul.rn.f32 %%u, %%u, %3; add.rn.f32 %%u, %%u, %3; mul.rn.f32 %%u, %%u, %3;"
        "add.rn.f32 %%u, %%u, %3; setp.gt.f32 %%p, %%u, 0f00000000; selp.f32 %%u, 0f00000000, 0f80000000, %%p;"
        "add.f32 %%t, %%t, %%u; add.f32 %0, %%t, %%n;")
K1(branch_between, "mul.f32 %%t, %1, %2; setp.lt.f32 %%p, %3, 0f00000000; @%%p bra CB1; add.rn.f32 %%n, %%n, 0f00000000;"
                   "CB1: add.f32 %0, %%t, %%n;")
K1(branch_around_mul, "setp.lt.f32 %%p, %3, 0f00000000; mov.f32 %%t, %%n; @%%p bra CB2; mul.f32 %%t, %1, %2;"
                      "CB2: add.f32 %0, %%t, %%n;")
K1(barrier_between, "mul.f32 %%t, %1, %2; bar.sync 0; add.f32 %0, %%t, %%n;")
K2(uses_in_two_blocks, "mul.f32 %%t, %2, %3; add.f32 %0, %%t, %%n; setp.lt.f32 %%p, %4, 0f00000000; mov.f32 %1, %4; @%%p bra CB3;"
                       "add.f32 %1, %%t, %4; CB3: add.f32 %1, %1, 0f00000000;")
K1(guarded_add, "mul.f32 %%t, %1, %2; setp.lt.f32 %%p, %3, 0f00000000; mov.f32 %0, %3; @%%p add.f32 %0, %%t, %%n;")
K1(guarded_mul, "setp.lt.f32 %%p, %3, 0f00000000; mov.f32 %%t, %3; @%%p mul.f32 %%t, %1, %2; add.f32 %0, %%t, %%n;")
// ptxas's own expansions followed by an add.
K1(div_approx_add, "div.approx.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(div_approx_ftz_add, "div.approx.ftz.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(div_full_add, "div.full.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(div_full_ftz_add, "div.full.ftz.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(div_approx_ftz_addftz, "div.approx.ftz.f32 %%t, %1, %2; add.ftz.f32 %0, %%t, %3;")
K1(div_full_ftz_addftz, "div.full.ftz.f32 %%t, %1, %2; add.ftz.f32 %0, %%t, %3;")
K1(div_approx_twice, "div.approx.f32 %%t, %1, %2; add.f32 %%u, %%t, %3; sub.f32 %0, %%u, %%t;")
K1(div_approx_sub, "div.approx.f32 %%t, %1, %2; sub.f32 %0, %3, %%t;")
K1(div_rn_add, "div.rn.f32 %%t, %1, %2; add.f32 %0, %%t, %3;")
K1(rcp_mul_add, "rcp.approx.f32 %%u, %2; mul.f32 %%t, %1, %%u; add.f32 %0, %%t, %3;")
K1(sqrt_approx_add, "sqrt.approx.f32 %%t, %1; add.f32 %0, %%t, %3;")
K1(lg2_mul_add, "lg2.approx.f32 %%t, %1; mul.f32 %%t, %%t, 0f3F317218; add.f32 %0, %%t, %3;")
K1(ex2_add, "ex2.approx.f32 %%t, %1; add.f32 %0, %%t, %3;")
K1(sin_add, "sin.approx.f32 %%t, %1; add.f32 %0, %%t, %3;")

// f64: x = a:b as one double (a in the high word), y = b:c, z = c:a; n = -(x * (y ^ 1)).
#define D64(x, y) "mov.b64 " x ", {" y "};"
#define K64(name, body) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;                   \
    asm("{ .reg .f64 %%x, %%y, %%z, %%t, %%u, %%n; .reg .b32 %%r9; .reg .b64 %%q;"              \
        D64("%%x", "%2, %1") D64("%%y", "%3, %2") D64("%%z", "%1, %3")                         \
        "mov.b64 %%q, %%y; xor.b64 %%q, %%q, 1; mov.b64 %%n, %%q; mul.rn.f64 %%n, %%x, %%n; neg.f64 %%n, %%n;" \
        body "}" : "=l"(r) : "r"(A), "r"(B), "r"(C)); d[i] = r; }
K64(f64_mul_add, "mul.f64 %%t, %%x, %%y; add.f64 %0, %%t, %%n;")
K64(f64_mul_sub, "mul.f64 %%t, %%x, %%y; sub.f64 %0, %%n, %%t;")
K64(f64_mul_add_raw, "mul.f64 %%t, %%x, %%y; add.f64 %0, %%t, %%z;")
K64(f64_mulrn_add, "mul.rn.f64 %%t, %%x, %%y; add.f64 %0, %%t, %%n;")
K64(f64_mul_addrn, "mul.f64 %%t, %%x, %%y; add.rn.f64 %0, %%t, %%n;")
K64(f64_two_sub, "mul.f64 %%t, %%x, %%y; mov.b64 %%u, %%q; mul.f64 %%u, %%x, %%u; sub.f64 %0, %%t, %%u;")
K64(f64_div_add, "div.rn.f64 %%t, %%x, %%y; add.f64 %0, %%t, %%z;")

// f16 and f16x2: the low halves of a, b, c (and for x2 their high halves as the second lane).
#define K16(name, body) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm("{ .reg .f16 %%x, %%y, %%z, %%t, %%n; .reg .b16 %%h; .reg .f16x2 %%X, %%Y, %%Z, %%T, %%N; .reg .b32 %%w;" \
        "cvt.u16.u32 %%h, %1; mov.b16 %%x, %%h; cvt.u16.u32 %%h, %2; mov.b16 %%y, %%h;"         \
        "cvt.u16.u32 %%h, %3; mov.b16 %%z, %%h;"                          \
        "cvt.u16.u32 %%h, %2; xor.b16 %%h, %%h, 1; mov.b16 %%n, %%h; mul.rn.f16 %%n, %%x, %%n; neg.f16 %%n, %%n;" \
        "mov.b32 %%X, %1; mov.b32 %%Y, %2; mov.b32 %%Z, %3; xor.b32 %%w, %2, 0x00010001;"     \
        "mov.b32 %%N, %%w; mul.rn.f16x2 %%N, %%X, %%N; neg.f16x2 %%N, %%N;"                   \
        body "}" : "=r"(r) : "r"(A), "r"(B), "r"(C)); d[i] = r; }
K16(f16_mul_add, "mul.f16 %%t, %%x, %%y; add.f16 %%t, %%t, %%n; mov.b16 %%h, %%t; cvt.u32.u16 %0, %%h;")
K16(f16_mul_add_raw, "mul.f16 %%t, %%x, %%y; add.f16 %%t, %%t, %%z; mov.b16 %%h, %%t; cvt.u32.u16 %0, %%h;")
K16(f16_mulrn_add, "mul.rn.f16 %%t, %%x, %%y; add.f16 %%t, %%t, %%n; mov.b16 %%h, %%t; cvt.u32.u16 %0, %%h;")
K16(f16_ftz_both, "mul.ftz.f16 %%t, %%x, %%y; add.ftz.f16 %%t, %%t, %%z; mov.b16 %%h, %%t; cvt.u32.u16 %0, %%h;")
K16(f16x2_mul_add, "mul.f16x2 %%T, %%X, %%Y; add.f16x2 %%T, %%T, %%N; mov.b32 %0, %%T;")
K16(f16x2_mul_sub_raw, "mul.f16x2 %%T, %%X, %%Y; sub.f16x2 %%T, %%Z, %%T; mov.b32 %0, %%T;")

GOLDEN_CASES {
    {"mul_add", 16, 128, ""}, {"add_mul", 16, 128, ""}, {"mul_sub", 16, 128, ""}, {"sub_mul", 16, 128, ""},
    {"mul_add_raw", 16, 128, ""}, {"mul_sub_raw", 16, 128, ""},
    {"mulrn_add", 16, 128, ""}, {"mul_addrn", 16, 128, ""}, {"mulrz_add", 16, 128, ""}, {"mul_addrz", 16, 128, ""},
    {"ftz_both", 16, 128, ""}, {"ftz_mul", 16, 128, ""}, {"ftz_add", 16, 128, ""},
    {"ftz_both_raw", 16, 128, ""}, {"ftz_mul_raw", 16, 128, ""}, {"ftz_add_raw", 16, 128, ""},
    {"sat_mul", 16, 128, ""}, {"sat_add", 16, 128, ""}, {"sat_add_raw", 16, 128, ""},
    {"imm_mul", 16, 128, ""}, {"imm_add", 16, 128, ""},
    {"two_sub", 16, 128, ""}, {"two_sub_late_first", 16, 128, ""}, {"two_add", 16, 128, ""},
    {"two_add_late_first", 16, 128, ""}, {"two_sub_rn_first", 16, 128, ""},
    {"two_adds", 16, 128, ""}, {"add_and_keep", 16, 128, ""}, {"add_and_mul", 16, 128, ""}, {"self_add", 16, 128, ""},
    {"chain", 16, 128, ""}, {"first_and_second", 16, 128, ""}, {"neg_ftz_between", 16, 128, ""},
    {"neg_twice_used", 16, 128, ""}, {"barrier_between", 16, 128, ""}, {"uses_in_two_blocks", 16, 128, ""}, {"neg_between", 16, 128, ""}, {"abs_between", 16, 128, ""},
    {"far", 16, 128, ""}, {"branch_between", 16, 128, ""}, {"branch_around_mul", 16, 128, ""},
    {"guarded_add", 16, 128, ""}, {"guarded_mul", 16, 128, ""},
    {"div_approx_add", 16, 128, ""}, {"div_approx_ftz_add", 16, 128, ""}, {"div_full_add", 16, 128, ""},
    {"div_full_ftz_add", 16, 128, ""}, {"div_approx_sub", 16, 128, ""},
    {"div_approx_ftz_addftz", 16, 128, ""}, {"div_full_ftz_addftz", 16, 128, ""}, {"div_approx_twice", 16, 128, ""}, {"div_rn_add", 16, 128, ""},
    {"rcp_mul_add", 16, 128, ""}, {"sqrt_approx_add", 16, 128, ""}, {"lg2_mul_add", 16, 128, ""},
    {"ex2_add", 16, 128, ""}, {"sin_add", 16, 128, ""},
    {"f64_mul_add", 16, 128, ""}, {"f64_mul_sub", 16, 128, ""}, {"f64_mul_add_raw", 16, 128, ""},
    {"f64_mulrn_add", 16, 128, ""}, {"f64_mul_addrn", 16, 128, ""}, {"f64_two_sub", 16, 128, ""},
    {"f64_div_add", 16, 128, ""},
    {"f16_mul_add", 16, 128, ""}, {"f16_mul_add_raw", 16, 128, ""}, {"f16_mulrn_add", 16, 128, ""},
    {"f16_ftz_both", 16, 128, ""}, {"f16x2_mul_add", 16, 128, ""}, {"f16x2_mul_sub_raw", 16, 128, ""},
};
GOLDEN_MAIN
