// Golden family "narrow_float": bf16 and bf16x2 arithmetic, and conversions into and out of bf16,
// tf32 and the 8-bit floats e4m3 and e5m2, one kernel per form (inline asm, so the exact
// instruction is in the PTX). Built for compute_90 (the arch file): bf16 add/sub/mul, setp, the
// general bf16 cvt and the fp8 forms need sm_90 (sm_89 for fp8).
// Inputs: a, b and c are f32 bit patterns (edge values crossed, then random). A bf16 operand is
// the high half of one (so it has the f32's sign and exponent: NaNs, infinities, subnormals);
// a bf16x2 pairs it with the high half of the value at another index. Outputs: d[i] = the result,
// zero-extended (predicates: bit 0 p, bit 1 q).
#include "golden.cuh"
GOLDEN_FAMILY("narrow_float", kF32, kF32, kF32)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define C ((u32)c[i])
#define BF(x) ((unsigned short)((x) >> 16))
#define OTHER(arr, k) ((u32)arr[(i * (k) + 3) % 2048])
#define PAIR(arr, k) (((u32)arr[i] >> 16) | (OTHER(arr, k) & 0xFFFF0000u))

// bf16: d = op(a, b) and op(a, b, c)
#define K2(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; unsigned short r;          \
    asm(ins " %0, %1, %2;" : "=h"(r) : "h"(BF(A)), "h"(BF(B))); d[i] = r; }
#define K3(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; unsigned short r;          \
    asm(ins " %0, %1, %2, %3;" : "=h"(r) : "h"(BF(A)), "h"(BF(B)), "h"(BF(C))); d[i] = r; }
#define K1(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; unsigned short r;          \
    asm(ins " %0, %1;" : "=h"(r) : "h"(BF(A))); d[i] = r; }
// bf16x2
#define K2X2(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm(ins " %0, %1, %2;" : "=r"(r) : "r"(PAIR(a, 7)), "r"(PAIR(b, 13))); d[i] = r; }
#define K3X2(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm(ins " %0, %1, %2, %3;" : "=r"(r) : "r"(PAIR(a, 7)), "r"(PAIR(b, 13)), "r"(PAIR(c, 29))); d[i] = r; }
#define K1X2(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm(ins " %0, %1;" : "=r"(r) : "r"(PAIR(a, 7))); d[i] = r; }
#define SETP(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm("{ .reg .pred p, q; " ins " p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }"     \
        : "=r"(r) : "r"(PAIR(a, 7)), "r"(PAIR(b, 13))); d[i] = r; }
#define SETP1(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                  \
    asm("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "h"(BF(A)), "h"(BF(B))); d[i] = r; }

K2(add_bf16, "add.rn.bf16")
K2(add_bf16_plain, "add.bf16")
K2(sub_bf16, "sub.rn.bf16")
K2(mul_bf16, "mul.rn.bf16")
K3(fma_bf16, "fma.rn.bf16")
K3(fma_relu_bf16, "fma.rn.relu.bf16")
K2(min_bf16, "min.bf16")
K2(max_bf16, "max.bf16")
K2(min_nan_bf16, "min.NaN.bf16")
K2(max_nan_bf16, "max.NaN.bf16")
K2(min_xorsign_bf16, "min.xorsign.abs.bf16")
K2(max_nan_xorsign_bf16, "max.NaN.xorsign.abs.bf16")
K1(neg_bf16, "neg.bf16")
K1(abs_bf16, "abs.bf16")
K2X2(add_bf16x2, "add.rn.bf16x2")
K2X2(sub_bf16x2, "sub.rn.bf16x2")
K2X2(mul_bf16x2, "mul.rn.bf16x2")
K3X2(fma_bf16x2, "fma.rn.bf16x2")
K3X2(fma_relu_bf16x2, "fma.rn.relu.bf16x2")
K2X2(min_bf16x2, "min.bf16x2")
K2X2(max_nan_bf16x2, "max.NaN.bf16x2")
K2X2(min_xorsign_bf16x2, "min.xorsign.abs.bf16x2")
K1X2(neg_bf16x2, "neg.bf16x2")
K1X2(abs_bf16x2, "abs.bf16x2")
SETP1(setp_lt_bf16, "setp.lt.bf16")
SETP1(setp_equ_bf16, "setp.equ.bf16")
SETP(setp_ge_bf16x2, "setp.ge.bf16x2")
SETP(setp_nan_bf16x2, "setp.nan.bf16x2")

// fma whose exact product lies halfway between two bf16 values: a tiny addend decides the
// rounding, which a product rounded first (to f32) would lose. a*b is one of four exact ties,
// scaled by a power of two from the index; c is any input value.
GOLDEN_KERNEL(fma_ties_bf16) {
    unsigned i = GOLDEN_TID;
    const unsigned short as[4] = {0x3FC0, 0x3F81, 0x3FA0, 0x3FE0}, bs[4] = {0x3F81, 0x3FC0, 0x3F82, 0x3F82};
    unsigned short x = as[i & 3], y = bs[i & 3], r;
    x = (unsigned short)(x + (((i >> 2) % 16) << 7) - (8 << 7)) | (unsigned short)((i & 64) << 9);
    asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(x), "h"(y), "h"(BF(C))); d[i] = r;
}

// cvt into bf16, bf16x2 and tf32
#define CVT(name, ins, dt, dc, st, sc, src) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; dt r; \
    asm(ins " %0, %1;" : "=" dc(r) : sc((st)(src))); d[i] = (u64)r; }
#define CVTP(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm(ins " %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
CVT(cvt_rn_bf16_f32, "cvt.rn.bf16.f32", unsigned short, "h", u32, "r", A)
CVT(cvt_rz_bf16_f32, "cvt.rz.bf16.f32", unsigned short, "h", u32, "r", A)
CVT(cvt_rm_bf16_f32, "cvt.rm.bf16.f32", unsigned short, "h", u32, "r", A)
CVT(cvt_rp_bf16_f32, "cvt.rp.bf16.f32", unsigned short, "h", u32, "r", A)
CVT(cvt_rn_relu_bf16_f32, "cvt.rn.relu.bf16.f32", unsigned short, "h", u32, "r", A)
CVT(cvt_rn_satfinite_bf16_f32, "cvt.rn.satfinite.bf16.f32", unsigned short, "h", u32, "r", A)
CVT(cvt_rz_relu_satfinite_bf16_f32, "cvt.rz.relu.satfinite.bf16.f32", unsigned short, "h", u32, "r", A)
CVTP(cvt_rn_bf16x2_f32, "cvt.rn.bf16x2.f32")
CVTP(cvt_rz_relu_satfinite_bf16x2_f32, "cvt.rz.relu.satfinite.bf16x2.f32")
CVT(cvt_f32_bf16, "cvt.f32.bf16", u32, "r", unsigned short, "h", BF(A))
CVT(cvt_f64_bf16, "cvt.f64.bf16", u64, "l", unsigned short, "h", BF(A))
CVT(cvt_rn_bf16_f64, "cvt.rn.bf16.f64", unsigned short, "h", u64, "l", ((u64)A << 32 | B))
CVT(cvt_rz_bf16_f64, "cvt.rz.bf16.f64", unsigned short, "h", u64, "l", ((u64)A << 32 | B))
CVT(cvt_rn_bf16_f16, "cvt.rn.bf16.f16", unsigned short, "h", unsigned short, "h", A)
CVT(cvt_rn_f16_bf16, "cvt.rn.f16.bf16", unsigned short, "h", unsigned short, "h", BF(A))
CVT(cvt_rni_s32_bf16, "cvt.rni.s32.bf16", u32, "r", unsigned short, "h", BF(A))
CVT(cvt_rzi_u16_bf16, "cvt.rzi.u16.bf16", unsigned short, "h", unsigned short, "h", BF(A))
CVT(cvt_rn_bf16_s32, "cvt.rn.bf16.s32", unsigned short, "h", u32, "r", A)
CVT(cvt_rz_bf16_u64, "cvt.rz.bf16.u64", unsigned short, "h", u64, "l", ((u64)A << 32 | B))
CVT(cvt_rni_bf16_bf16, "cvt.rni.bf16.bf16", unsigned short, "h", unsigned short, "h", BF(A))
CVT(cvt_rna_tf32_f32, "cvt.rna.tf32.f32", u32, "r", u32, "r", A)
CVT(cvt_rna_satfinite_tf32_f32, "cvt.rna.satfinite.tf32.f32", u32, "r", u32, "r", A)
CVT(cvt_rn_tf32_f32, "cvt.rn.tf32.f32", u32, "r", u32, "r", A)
CVT(cvt_rz_relu_tf32_f32, "cvt.rz.relu.tf32.f32", u32, "r", u32, "r", A)

// fp8: two f32 (a high, b low) or an f16x2 into e4m3x2/e5m2x2, and back into f16x2 (the byte
// pairs of the index cover every 8-bit code in the low byte).
#define F8(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; unsigned short r;          \
    asm(ins " %0, %1, %2;" : "=h"(r) : "r"(A), "r"(B)); d[i] = r; }
#define F8H(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; unsigned short r;         \
    asm(ins " %0, %1;" : "=h"(r) : "r"((u32)c[i] >> 16 | ((u32)a[i] & 0xFFFF0000u))); d[i] = r; }
#define F8UP(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;                   \
    asm(ins " %0, %1;" : "=r"(r) : "h"((unsigned short)((i & 0xFF) | ((i * 37 + (A >> 24)) & 0xFF) << 8))); d[i] = r; }
F8(cvt_e4m3x2_f32, "cvt.rn.satfinite.e4m3x2.f32")
F8(cvt_e5m2x2_f32, "cvt.rn.satfinite.e5m2x2.f32")
F8(cvt_relu_e4m3x2_f32, "cvt.rn.satfinite.relu.e4m3x2.f32")
F8(cvt_relu_e5m2x2_f32, "cvt.rn.satfinite.relu.e5m2x2.f32")
F8H(cvt_e4m3x2_f16x2, "cvt.rn.satfinite.e4m3x2.f16x2")
F8H(cvt_e5m2x2_f16x2, "cvt.rn.satfinite.e5m2x2.f16x2")
F8H(cvt_relu_e4m3x2_f16x2, "cvt.rn.satfinite.relu.e4m3x2.f16x2")
F8UP(cvt_f16x2_e4m3x2, "cvt.rn.f16x2.e4m3x2")
F8UP(cvt_f16x2_e5m2x2, "cvt.rn.f16x2.e5m2x2")
F8UP(cvt_relu_f16x2_e4m3x2, "cvt.rn.relu.f16x2.e4m3x2")
F8UP(cvt_relu_f16x2_e5m2x2, "cvt.rn.relu.f16x2.e5m2x2")

#define CASE(n) {#n, 16, 128, ""}
GOLDEN_CASES {
    CASE(add_bf16), CASE(add_bf16_plain), CASE(sub_bf16), CASE(mul_bf16), CASE(fma_bf16), CASE(fma_relu_bf16),
    CASE(min_bf16), CASE(max_bf16), CASE(min_nan_bf16), CASE(max_nan_bf16), CASE(min_xorsign_bf16),
    CASE(max_nan_xorsign_bf16), CASE(neg_bf16), CASE(abs_bf16),
    CASE(add_bf16x2), CASE(sub_bf16x2), CASE(mul_bf16x2), CASE(fma_bf16x2), CASE(fma_relu_bf16x2),
    CASE(min_bf16x2), CASE(max_nan_bf16x2), CASE(min_xorsign_bf16x2), CASE(neg_bf16x2), CASE(abs_bf16x2),
    CASE(setp_lt_bf16), CASE(setp_equ_bf16), CASE(setp_ge_bf16x2), CASE(setp_nan_bf16x2), CASE(fma_ties_bf16),
    CASE(cvt_rn_bf16_f32), CASE(cvt_rz_bf16_f32), CASE(cvt_rm_bf16_f32), CASE(cvt_rp_bf16_f32),
    CASE(cvt_rn_relu_bf16_f32), CASE(cvt_rn_satfinite_bf16_f32), CASE(cvt_rz_relu_satfinite_bf16_f32),
    CASE(cvt_rn_bf16x2_f32), CASE(cvt_rz_relu_satfinite_bf16x2_f32), CASE(cvt_f32_bf16), CASE(cvt_f64_bf16),
    CASE(cvt_rn_bf16_f64), CASE(cvt_rz_bf16_f64), CASE(cvt_rn_bf16_f16), CASE(cvt_rn_f16_bf16),
    CASE(cvt_rni_s32_bf16), CASE(cvt_rzi_u16_bf16), CASE(cvt_rn_bf16_s32), CASE(cvt_rz_bf16_u64),
    CASE(cvt_rni_bf16_bf16), CASE(cvt_rna_tf32_f32), CASE(cvt_rna_satfinite_tf32_f32), CASE(cvt_rn_tf32_f32),
    CASE(cvt_rz_relu_tf32_f32),
    CASE(cvt_e4m3x2_f32), CASE(cvt_e5m2x2_f32), CASE(cvt_relu_e4m3x2_f32), CASE(cvt_relu_e5m2x2_f32),
    CASE(cvt_e4m3x2_f16x2), CASE(cvt_e5m2x2_f16x2), CASE(cvt_relu_e4m3x2_f16x2),
    CASE(cvt_f16x2_e4m3x2), CASE(cvt_f16x2_e5m2x2), CASE(cvt_relu_f16x2_e4m3x2), CASE(cvt_relu_f16x2_e5m2x2),
};
GOLDEN_MAIN
