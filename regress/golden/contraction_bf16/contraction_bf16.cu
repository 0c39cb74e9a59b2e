// Golden family "contraction_bf16": whether ptxas fuses bf16 and bf16x2 multiply/add pairs, which
// the PTX of sm_90 has without a rounding modifier (cuda_bf16.hpp's operators emit mul.bf16 and
// add.bf16 for sm_90, so `a * b + c` on __nv_bfloat16 reaches ptxas as a pair). The same patterns
// as the family "contraction" (sw/loader/contraction.h), in inline asm. Built for compute_90 (the
// arch file). Inputs: a, b, c are f32 bit patterns; x, y, z are their low halves as bf16 (bf16x2:
// the whole words), n = -(x * (y ^ 1)) rounded by mul.rn, a term that nearly cancels x*y.
// Outputs: d[i] = the result's bits, zero-extended.
#include "golden.cuh"
GOLDEN_FAMILY("contraction_bf16", kF32, kF32, kF32)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define C ((u32)c[i])

#define K16(name, body) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm("{ .reg .b16 %%x, %%y, %%z, %%t, %%u, %%n, %%h; .reg .b32 %%X, %%Y, %%Z, %%T, %%N, %%w; .reg .pred %%p;" \
        "cvt.u16.u32 %%x, %1; cvt.u16.u32 %%y, %2; cvt.u16.u32 %%z, %3;"                           \
        "xor.b16 %%h, %%y, 1; mul.rn.bf16 %%n, %%x, %%h; neg.bf16 %%n, %%n;"                     \
        "mov.b32 %%X, %1; mov.b32 %%Y, %2; mov.b32 %%Z, %3; xor.b32 %%w, %2, 0x00010001;"        \
        "mul.rn.bf16x2 %%N, %%X, %%w; neg.bf16x2 %%N, %%N;"                                      \
        body "}" : "=r"(r) : "r"(A), "r"(B), "r"(C)); d[i] = r; }
#define OUT16 "cvt.u32.u16 %0, %%t;"

K16(bf16_mul_add, "mul.bf16 %%t, %%x, %%y; add.bf16 %%t, %%t, %%n;" OUT16)
K16(bf16_mul_sub, "mul.bf16 %%t, %%x, %%y; sub.bf16 %%t, %%n, %%t;" OUT16)
K16(bf16_mul_add_raw, "mul.bf16 %%t, %%x, %%y; add.bf16 %%t, %%t, %%z;" OUT16)
K16(bf16_mulrn_add, "mul.rn.bf16 %%t, %%x, %%y; add.bf16 %%t, %%t, %%n;" OUT16)
K16(bf16_mul_addrn, "mul.bf16 %%t, %%x, %%y; add.rn.bf16 %%t, %%t, %%n;" OUT16)
K16(bf16_two_adds, "mul.bf16 %%u, %%x, %%y; add.bf16 %%t, %%u, %%n; sub.bf16 %%t, %%t, %%u;" OUT16)
K16(bf16_add_and_keep, "mul.bf16 %%u, %%x, %%y; add.bf16 %%t, %%u, %%n; xor.b16 %%t, %%t, %%u;" OUT16)
K16(bf16x2_mul_add, "mul.bf16x2 %%T, %%X, %%Y; add.bf16x2 %%T, %%T, %%N; mov.b32 %0, %%T;")
K16(bf16x2_mul_sub_raw, "mul.bf16x2 %%T, %%X, %%Y; sub.bf16x2 %%T, %%Z, %%T; mov.b32 %0, %%T;")
K16(bf16x2_mulrn_add, "mul.rn.bf16x2 %%T, %%X, %%Y; add.bf16x2 %%T, %%T, %%N; mov.b32 %0, %%T;")

GOLDEN_CASES {
    {"bf16_mul_add", 16, 128, ""}, {"bf16_mul_sub", 16, 128, ""}, {"bf16_mul_add_raw", 16, 128, ""},
    {"bf16_mulrn_add", 16, 128, ""}, {"bf16_mul_addrn", 16, 128, ""}, {"bf16_two_adds", 16, 128, ""},
    {"bf16_add_and_keep", 16, 128, ""}, {"bf16x2_mul_add", 16, 128, ""}, {"bf16x2_mul_sub_raw", 16, 128, ""},
    {"bf16x2_mulrn_add", 16, 128, ""},
};
GOLDEN_MAIN
