// Golden family "simd": the SIMD video instructions (PTX ISA 9.7.18.2; semantics in
// docs/reference/ptx_semantics.md section 2) and the CUDA __v* SIMD intrinsics.
//   vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4   u32/s32 and mixed types, .sat, .add
//                                 accumulate, lane masks (d.h0, d.b10, ...), source selectors
//                                 (.h01, .h23, .b0123, .b7654, ...) that draw from both a and b
//   vset2/vset4                   every compare on u32/s32 (and mixed), .add, masks, selectors
//   __v* intrinsics               the whole CUDA Math API SIMD list (2- and 4-way), as plain C++,
//                                 plus a few of the CUDA 12 DPX ones (__vimax3_s32, __viaddmax_s32, ...)
// Each instruction entry is (kernel name, instruction with %0 = d, %1 = a, %2 = b, %3 = c);
// the kernel computes d[i] = that instruction on the low words of a[i], b[i], c[i]. The c operand
// is always present: lanes outside the mask come from c, and .add accumulates into c.
//
// Dropped variants: none; ptxas 13.0 accepts every variant here for sm_75 and sm_90 (checked by
// hand). Not in the list because they are not PTX: .sat together with .add (the syntax has no such
// form) and vset2/vset4 with .sat.
#include "golden.cuh"
GOLDEN_FAMILY("simd", kBytes, kBytes, kBytes)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define C ((u32)c[i])
#define VK(name, text) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;             \
    asm(text : "=r"(r) : "r"(A), "r"(B), "r"(C)); d[i] = r; }
#define VCASE(name, text) {#name, 16, 128, ""},
#define OPS "%0, %1, %2, %3;"

// 1. Types and saturation: u32 and s32, plain and .sat, for all 12 ops (48), plus mixed types.
#define TS(X, op)                                                                        \
    X(op##_u32, #op ".u32.u32.u32 " OPS) X(op##_u32_sat, #op ".u32.u32.u32.sat " OPS)    \
    X(op##_s32, #op ".s32.s32.s32 " OPS) X(op##_s32_sat, #op ".s32.s32.s32.sat " OPS)
#define ALL_OPS(X, M)                                                                    \
    M(X, vadd2) M(X, vsub2) M(X, vavrg2) M(X, vabsdiff2) M(X, vmin2) M(X, vmax2)         \
    M(X, vadd4) M(X, vsub4) M(X, vavrg4) M(X, vabsdiff4) M(X, vmin4) M(X, vmax4)
#define TYPES(X)                                                                         \
    ALL_OPS(X, TS)                                                                       \
    X(vadd2_u32_s32_s32_sat, "vadd2.u32.s32.s32.sat " OPS) X(vadd2_s32_u32_u32_sat, "vadd2.s32.u32.u32.sat " OPS) \
    X(vadd4_s32_u32_s32_sat, "vadd4.s32.u32.s32.sat " OPS) X(vadd4_u32_u32_s32, "vadd4.u32.u32.s32 " OPS) \
    X(vsub2_u32_s32_u32_sat, "vsub2.u32.s32.u32.sat " OPS) X(vsub4_s32_u32_u32_sat, "vsub4.s32.u32.u32.sat " OPS) \
    X(vsub4_u32_s32_s32_sat, "vsub4.u32.s32.s32.sat " OPS) X(vavrg2_s32_u32_s32, "vavrg2.s32.u32.s32 " OPS) \
    X(vavrg4_u32_s32_u32, "vavrg4.u32.s32.u32 " OPS) X(vabsdiff2_u32_s32_s32, "vabsdiff2.u32.s32.s32 " OPS) \
    X(vabsdiff4_s32_u32_u32_sat, "vabsdiff4.s32.u32.u32.sat " OPS) X(vmin2_u32_s32_u32, "vmin2.u32.s32.u32 " OPS) \
    X(vmin4_s32_s32_u32_sat, "vmin4.s32.s32.u32.sat " OPS) X(vmax2_s32_u32_s32, "vmax2.s32.u32.s32 " OPS) \
    X(vmax4_u32_s32_s32_sat, "vmax4.u32.s32.s32.sat " OPS)

// 2. Accumulate: .add sums the lanes into c (u32 and s32 for all 12 ops), also under a mask.
#define ACC(X, op) X(op##_u32_add, #op ".u32.u32.u32.add " OPS) X(op##_s32_add, #op ".s32.s32.s32.add " OPS)
#define ACCUMULATE(X)                                                                    \
    ALL_OPS(X, ACC)                                                                      \
    X(vadd2_u32_s32_s32_add, "vadd2.u32.s32.s32.add " OPS) X(vsub4_s32_u32_u32_add, "vsub4.s32.u32.u32.add " OPS) \
    X(vabsdiff2_u32_add_h1, "vabsdiff2.u32.u32.u32.add %0.h1, %1, %2, %3;")              \
    X(vabsdiff4_s32_add_b10, "vabsdiff4.s32.s32.s32.add %0.b10, %1, %2, %3;")            \
    X(vsub4_s32_add_b31, "vsub4.s32.s32.s32.add %0.b31, %1, %2, %3;")                    \
    X(vmax2_s32_add_h0, "vmax2.s32.s32.s32.add %0.h0, %1, %2, %3;")

// 3. Lane masks (unwritten lanes come from c).
#define MASKS(X)                                                                         \
    X(vadd2_u32_h0, "vadd2.u32.u32.u32 %0.h0, %1, %2, %3;") X(vadd2_u32_h1, "vadd2.u32.u32.u32 %0.h1, %1, %2, %3;") \
    X(vadd2_u32_h10, "vadd2.u32.u32.u32 %0.h10, %1, %2, %3;")                            \
    X(vsub2_s32_sat_h1, "vsub2.s32.s32.s32.sat %0.h1, %1, %2, %3;") X(vavrg2_s32_h0, "vavrg2.s32.s32.s32 %0.h0, %1, %2, %3;") \
    X(vmin2_u32_h1, "vmin2.u32.u32.u32 %0.h1, %1, %2, %3;")                              \
    X(vadd4_u32_b0, "vadd4.u32.u32.u32 %0.b0, %1, %2, %3;") X(vadd4_u32_b1, "vadd4.u32.u32.u32 %0.b1, %1, %2, %3;") \
    X(vadd4_u32_b2, "vadd4.u32.u32.u32 %0.b2, %1, %2, %3;") X(vadd4_u32_b3, "vadd4.u32.u32.u32 %0.b3, %1, %2, %3;") \
    X(vadd4_s32_sat_b10, "vadd4.s32.s32.s32.sat %0.b10, %1, %2, %3;")                    \
    X(vsub4_u32_sat_b32, "vsub4.u32.u32.u32.sat %0.b32, %1, %2, %3;")                    \
    X(vavrg4_u32_b3210, "vavrg4.u32.u32.u32 %0.b3210, %1, %2, %3;")                      \
    X(vabsdiff4_u32_b210, "vabsdiff4.u32.u32.u32 %0.b210, %1, %2, %3;")                  \
    X(vmin4_s32_b31, "vmin4.s32.s32.s32 %0.b31, %1, %2, %3;") X(vmax4_s32_b20, "vmax4.s32.s32.s32 %0.b20, %1, %2, %3;") \
    X(vmax4_u32_sat_b321, "vmax4.u32.s32.s32.sat %0.b321, %1, %2, %3;")

// 4. Source selectors: 2-way lanes pick halves .hxy from {a.h0, a.h1, b.h0, b.h1};
//    4-way lanes pick bytes .bxyzw from {a.b0..a.b3, b.b0..b.b3}.
#define SELECT(X)                                                                        \
    X(vadd2_u32_ah01, "vadd2.u32.u32.u32 %0, %1.h01, %2, %3;") X(vadd2_u32_ah23, "vadd2.u32.u32.u32 %0, %1.h23, %2, %3;") \
    X(vadd2_u32_ah32_bh10, "vadd2.u32.u32.u32 %0, %1.h32, %2.h10, %3;")                  \
    X(vadd2_u32_ah00_bh33, "vadd2.u32.u32.u32 %0, %1.h00, %2.h33, %3;")                  \
    X(vsub2_s32_ah13_bh20, "vsub2.s32.s32.s32 %0, %1.h13, %2.h20, %3;")                  \
    X(vsub2_s32_sat_bh01, "vsub2.s32.s32.s32.sat %0, %1, %2.h01, %3;")                   \
    X(vmin2_s32_ah10_bh21, "vmin2.s32.s32.s32 %0, %1.h10, %2.h21, %3;")                  \
    X(vavrg2_u32_ah31_bh02_h1, "vavrg2.u32.u32.u32 %0.h1, %1.h31, %2.h02, %3;")          \
    X(vadd4_u32_ab0123, "vadd4.u32.u32.u32 %0, %1.b0123, %2, %3;")                       \
    X(vadd4_u32_ab7654_bb3210, "vadd4.u32.u32.u32 %0, %1.b7654, %2.b3210, %3;")          \
    X(vadd4_u32_ab4567_bb0123, "vadd4.u32.u32.u32 %0, %1.b4567, %2.b0123, %3;")          \
    X(vsub4_s32_ab0000_bb7531, "vsub4.s32.s32.s32 %0, %1.b0000, %2.b7531, %3;")          \
    X(vsub4_s32_sat_ab3120_bb1111, "vsub4.s32.s32.s32.sat %0, %1.b3120, %2.b1111, %3;")  \
    X(vmax4_u32_ab6420_bb7531, "vmax4.u32.u32.u32 %0, %1.b6420, %2.b7531, %3;")          \
    X(vabsdiff4_s32_ab5140_bb6273_add, "vabsdiff4.s32.s32.s32.add %0, %1.b5140, %2.b6273, %3;") \
    X(vavrg4_s32_ab2301_b10, "vavrg4.s32.s32.s32 %0.b10, %1.b2301, %2, %3;")

// 5. vset2 / vset4: each lane is 0 or 1.
#define CMP6(X, op, ta, tb)                                                              \
    X(op##_##ta##_##tb##_eq, #op "." #ta "." #tb ".eq " OPS) X(op##_##ta##_##tb##_ne, #op "." #ta "." #tb ".ne " OPS) \
    X(op##_##ta##_##tb##_lt, #op "." #ta "." #tb ".lt " OPS) X(op##_##ta##_##tb##_le, #op "." #ta "." #tb ".le " OPS) \
    X(op##_##ta##_##tb##_gt, #op "." #ta "." #tb ".gt " OPS) X(op##_##ta##_##tb##_ge, #op "." #ta "." #tb ".ge " OPS)
#define VSET(X)                                                                          \
    CMP6(X, vset2, u32, u32) CMP6(X, vset2, s32, s32) CMP6(X, vset4, u32, u32) CMP6(X, vset4, s32, s32) \
    X(vset2_u32_s32_lt, "vset2.u32.s32.lt " OPS) X(vset2_s32_u32_ge, "vset2.s32.u32.ge " OPS) \
    X(vset4_u32_s32_gt, "vset4.u32.s32.gt " OPS) X(vset4_s32_u32_le, "vset4.s32.u32.le " OPS) \
    X(vset2_u32_u32_lt_add, "vset2.u32.u32.lt.add " OPS) X(vset2_s32_s32_ne_add, "vset2.s32.s32.ne.add " OPS) \
    X(vset4_u32_u32_lt_add, "vset4.u32.u32.lt.add " OPS) X(vset4_s32_s32_ge_add, "vset4.s32.s32.ge.add " OPS) \
    X(vset2_u32_u32_eq_h0, "vset2.u32.u32.eq %0.h0, %1, %2, %3;")                        \
    X(vset2_s32_s32_gt_h1, "vset2.s32.s32.gt %0.h1, %1, %2, %3;")                        \
    X(vset4_u32_u32_eq_b0, "vset4.u32.u32.eq %0.b0, %1, %2, %3;")                        \
    X(vset4_u32_u32_lt_b10, "vset4.u32.u32.lt %0.b10, %1, %2, %3;")                      \
    X(vset4_s32_s32_le_b31, "vset4.s32.s32.le %0.b31, %1, %2, %3;")                      \
    X(vset2_s32_s32_lt_ah01_bh23, "vset2.s32.s32.lt %0, %1.h01, %2.h23, %3;")            \
    X(vset4_u32_u32_ne_ab4567_bb0123, "vset4.u32.u32.ne %0, %1.b4567, %2.b0123, %3;")

#define ALL(X) TYPES(X) ACCUMULATE(X) MASKS(X) SELECT(X) VSET(X)
ALL(VK)

// 6. The CUDA SIMD intrinsics (how nvcc lowers them is part of what is captured).
#define I1(name) GOLDEN_KERNEL(cuda_##name) { unsigned i = GOLDEN_TID; d[i] = (u32)__##name(A); }
#define I2(name) GOLDEN_KERNEL(cuda_##name) { unsigned i = GOLDEN_TID; d[i] = (u32)__##name(A, B); }
#define I3(name) GOLDEN_KERNEL(cuda_##name) { unsigned i = GOLDEN_TID; d[i] = (u32)__##name(A, B, C); }
#define ICASE(name) {"cuda_" #name, 16, 128, ""},
#define BOTH(X, base) X(base##2) X(base##4)
#define UNARY_INTR(X) BOTH(X, vabs) BOTH(X, vabsss) BOTH(X, vneg) BOTH(X, vnegss)
#define BINARY_INTR(X)                                                                   \
    BOTH(X, vabsdiffs) BOTH(X, vabsdiffu) BOTH(X, vadd) BOTH(X, vaddss) BOTH(X, vaddus)  \
    BOTH(X, vavgs) BOTH(X, vavgu) BOTH(X, vhaddu) BOTH(X, vmaxs) BOTH(X, vmaxu)          \
    BOTH(X, vmins) BOTH(X, vminu) BOTH(X, vsads) BOTH(X, vsadu) BOTH(X, vsub)            \
    BOTH(X, vsubss) BOTH(X, vsubus)                                                      \
    BOTH(X, vcmpeq) BOTH(X, vcmpges) BOTH(X, vcmpgeu) BOTH(X, vcmpgts) BOTH(X, vcmpgtu)  \
    BOTH(X, vcmples) BOTH(X, vcmpleu) BOTH(X, vcmplts) BOTH(X, vcmpltu) BOTH(X, vcmpne)  \
    BOTH(X, vseteq) BOTH(X, vsetges) BOTH(X, vsetgeu) BOTH(X, vsetgts) BOTH(X, vsetgtu)  \
    BOTH(X, vsetles) BOTH(X, vsetleu) BOTH(X, vsetlts) BOTH(X, vsetltu) BOTH(X, vsetne)  \
    X(vimax_s16x2_relu) X(vimin_s16x2_relu)
#define TERNARY_INTR(X)                                                                  \
    X(vimax3_s32) X(vimin3_u32) X(vimax3_s16x2) X(viaddmax_s32) X(viaddmin_u16x2)        \
    X(viaddmax_s16x2_relu)
UNARY_INTR(I1)
BINARY_INTR(I2)
TERNARY_INTR(I3)
// __vibmax_s32 / __vibmin_u16x2 also return predicates; pack them above the result.
GOLDEN_KERNEL(cuda_vibmax_s32) { unsigned i = GOLDEN_TID; bool p;
    u32 r = (u32)__vibmax_s32((int)A, (int)B, &p); d[i] = r | ((u64)p << 32); }
GOLDEN_KERNEL(cuda_vibmin_u16x2) { unsigned i = GOLDEN_TID; bool hi, lo;
    u32 r = __vibmin_u16x2(A, B, &hi, &lo); d[i] = r | ((u64)hi << 33) | ((u64)lo << 32); }

GOLDEN_CASES {
    ALL(VCASE)
    UNARY_INTR(ICASE) BINARY_INTR(ICASE) TERNARY_INTR(ICASE)
    ICASE(vibmax_s32) ICASE(vibmin_u16x2)
};
GOLDEN_MAIN
