// Golden family "video": the scalar video instructions (PTX ISA 9.7.18.1; semantics in
// docs/reference/ptx_semantics.md section 1).
//   vadd vsub vabsdiff vmin vmax  every .dtype.atype.btype combination, plain and .sat; secondary
//                                 ops .add/.min/.max; merge into d.b0..b3/h0/h1; source selectors
//   vshl vshr                     .clamp/.wrap, u32/s32 atype, .sat, secondary ops, merge, selectors
//   vmad                          the legal sign combinations, .po, .shr7/.shr15, .sat, negated
//                                 operands, selectors
//   vset                          all compares on u32/s32 and mixed types, secondary ops, merge
// Each entry of the lists below is (kernel name, instruction with %0 = d, %1 = a, %2 = b, %3 = c);
// every kernel computes d[i] = that instruction on the low words of a[i], b[i], c[i].
// On sm_90 ptxas emulates these instructions with integer code; what we capture is what the
// driver's JIT makes of them (see ptx_semantics.md section 1.3 and 1.5 for known differences
// from the ISA text).
//
// Dropped variants (ptxas 13.0 rejects them for sm_75 and sm_90, checked by hand):
//   vmad d, -a, b, -c     "Operand negation limited to either (source A xor source B) or source C"
//   vmad.po with a negated operand   "Conflicting use of '.po' modifier with operand negation"
//   vset.sat                         "Illegal modifier '.sat' for instruction 'vset'"
// (vmad d, -a, -b, c is legal: the two negations cancel, and it is tested.)
#include "golden.cuh"
GOLDEN_FAMILY("video", kU32, kU32, kU32)

#define VK(name, text) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;             \
    asm(text : "=r"(r) : "r"((u32)a[i]), "r"((u32)b[i]), "r"((u32)c[i])); d[i] = r; }
#define VCASE(name, text) {#name, 16, 128, ""},

// All eight dtype.atype.btype combinations of one op, with a modifier suffix (sat) and an operand text.
#define T8(X, op, mod, nm, ops)                                                          \
    X(op##_u32_u32_u32##nm, #op ".u32.u32.u32" mod " " ops)                              \
    X(op##_u32_u32_s32##nm, #op ".u32.u32.s32" mod " " ops)                              \
    X(op##_u32_s32_u32##nm, #op ".u32.s32.u32" mod " " ops)                              \
    X(op##_u32_s32_s32##nm, #op ".u32.s32.s32" mod " " ops)                              \
    X(op##_s32_u32_u32##nm, #op ".s32.u32.u32" mod " " ops)                              \
    X(op##_s32_u32_s32##nm, #op ".s32.u32.s32" mod " " ops)                              \
    X(op##_s32_s32_u32##nm, #op ".s32.s32.u32" mod " " ops)                              \
    X(op##_s32_s32_s32##nm, #op ".s32.s32.s32" mod " " ops)
#define PLAIN "%0, %1, %2;"
#define WITHC "%0, %1, %2, %3;"

// 1. Every type combination, plain and saturating (5 ops x 16 = 80).
#define ARITH_TYPES(X)                                                                   \
    T8(X, vadd, "", , PLAIN) T8(X, vadd, ".sat", _sat, PLAIN)                            \
    T8(X, vsub, "", , PLAIN) T8(X, vsub, ".sat", _sat, PLAIN)                            \
    T8(X, vabsdiff, "", , PLAIN) T8(X, vabsdiff, ".sat", _sat, PLAIN)                    \
    T8(X, vmin, "", , PLAIN) T8(X, vmin, ".sat", _sat, PLAIN)                            \
    T8(X, vmax, "", , PLAIN) T8(X, vmax, ".sat", _sat, PLAIN)

// 2. Secondary operations: .add/.min/.max on u32 (plain) and s32 (.sat) for every op, plus mixed types.
#define SEC(X, op)                                                                       \
    X(op##_u32_add, #op ".u32.u32.u32.add " WITHC) X(op##_u32_min, #op ".u32.u32.u32.min " WITHC) \
    X(op##_u32_max, #op ".u32.u32.u32.max " WITHC) X(op##_s32_sat_add, #op ".s32.s32.s32.sat.add " WITHC) \
    X(op##_s32_sat_min, #op ".s32.s32.s32.sat.min " WITHC) X(op##_s32_sat_max, #op ".s32.s32.s32.sat.max " WITHC)
#define ARITH_SECONDARY(X)                                                               \
    SEC(X, vadd) SEC(X, vsub) SEC(X, vabsdiff) SEC(X, vmin) SEC(X, vmax)                 \
    X(vadd_u32_u32_u32_sat_add, "vadd.u32.u32.u32.sat.add " WITHC)                       \
    X(vadd_u32_s32_s32_sat_add, "vadd.u32.s32.s32.sat.add " WITHC)                       \
    X(vadd_s32_u32_u32_min, "vadd.s32.u32.u32.min " WITHC)                               \
    X(vsub_u32_u32_s32_sat_max, "vsub.u32.u32.s32.sat.max " WITHC)                       \
    X(vsub_s32_s32_s32_add, "vsub.s32.s32.s32.add " WITHC)                               \
    X(vabsdiff_s32_u32_s32_add, "vabsdiff.s32.u32.s32.add " WITHC)                       \
    X(vmax_u32_s32_u32_sat_min, "vmax.u32.s32.u32.sat.min " WITHC)

// 3. Merge into one byte or half of c.
#define ARITH_MERGE(X)                                                                   \
    X(vadd_s32_b0, "vadd.s32.s32.s32 %0.b0, %1, %2, %3;") X(vadd_s32_b1, "vadd.s32.s32.s32 %0.b1, %1, %2, %3;") \
    X(vadd_s32_b2, "vadd.s32.s32.s32 %0.b2, %1, %2, %3;") X(vadd_s32_b3, "vadd.s32.s32.s32 %0.b3, %1, %2, %3;") \
    X(vadd_s32_h0, "vadd.s32.s32.s32 %0.h0, %1, %2, %3;") X(vadd_s32_h1, "vadd.s32.s32.s32 %0.h1, %1, %2, %3;") \
    X(vadd_s32_sat_b0, "vadd.s32.s32.s32.sat %0.b0, %1, %2, %3;")                        \
    X(vadd_s32_sat_b3, "vadd.s32.s32.s32.sat %0.b3, %1, %2, %3;")                        \
    X(vadd_s32_sat_h0, "vadd.s32.s32.s32.sat %0.h0, %1, %2, %3;")                        \
    X(vadd_u32_sat_b2, "vadd.u32.u32.u32.sat %0.b2, %1, %2, %3;")                        \
    X(vadd_u32_sat_h1, "vadd.u32.u32.u32.sat %0.h1, %1, %2, %3;")                        \
    X(vsub_u32_sat_b1, "vsub.u32.u32.u32.sat %0.b1, %1, %2, %3;")                        \
    X(vsub_s32_u32_s32_sat_h1, "vsub.s32.u32.s32.sat %0.h1, %1, %2, %3;")                \
    X(vabsdiff_u32_sat_h0, "vabsdiff.u32.u32.u32.sat %0.h0, %1, %2, %3;")                \
    X(vmin_s32_b1, "vmin.s32.s32.s32 %0.b1, %1, %2, %3;")                                \
    X(vmax_u32_s32_s32_sat_b2, "vmax.u32.s32.s32.sat %0.b2, %1, %2, %3;")

// 4. Source selectors: every asel with one bsel, every bsel with one asel, and some combinations.
#define ARITH_SELECT(X)                                                                  \
    X(vadd_s32_ab0_bb1, "vadd.s32.s32.s32 %0, %1.b0, %2.b1;") X(vadd_s32_ab1_bb1, "vadd.s32.s32.s32 %0, %1.b1, %2.b1;") \
    X(vadd_s32_ab2_bb1, "vadd.s32.s32.s32 %0, %1.b2, %2.b1;") X(vadd_s32_ab3_bb1, "vadd.s32.s32.s32 %0, %1.b3, %2.b1;") \
    X(vadd_s32_ah0_bb1, "vadd.s32.s32.s32 %0, %1.h0, %2.b1;") X(vadd_s32_ah1_bb1, "vadd.s32.s32.s32 %0, %1.h1, %2.b1;") \
    X(vadd_u32_ah1_bb0, "vadd.u32.u32.u32 %0, %1.h1, %2.b0;") X(vadd_u32_ah1_bb1, "vadd.u32.u32.u32 %0, %1.h1, %2.b1;") \
    X(vadd_u32_ah1_bb2, "vadd.u32.u32.u32 %0, %1.h1, %2.b2;") X(vadd_u32_ah1_bb3, "vadd.u32.u32.u32 %0, %1.h1, %2.b3;") \
    X(vadd_u32_ah1_bh0, "vadd.u32.u32.u32 %0, %1.h1, %2.h0;") X(vadd_u32_ah1_bh1, "vadd.u32.u32.u32 %0, %1.h1, %2.h1;") \
    X(vadd_s32_u32_u32_ab1_bh1, "vadd.s32.u32.u32 %0, %1.b1, %2.h1;")                    \
    X(vsub_s32_u32_s32_ab3_bh0, "vsub.s32.u32.s32 %0, %1.b3, %2.h0;")                    \
    X(vsub_u32_s32_s32_sat_ah0_bb2, "vsub.u32.s32.s32.sat %0, %1.h0, %2.b2;")            \
    X(vmin_s32_sat_ah1_bb0, "vmin.s32.s32.s32.sat %0, %1.h1, %2.b0;")                    \
    X(vmax_u32_s32_u32_ab2_bh1, "vmax.u32.s32.u32 %0, %1.b2, %2.h1;")                    \
    X(vabsdiff_u32_s32_s32_ah0_bh1_add, "vabsdiff.u32.s32.s32.add %0, %1.h0, %2.h1, %3;") \
    X(vadd_s32_sat_ab3_bh0_mh1, "vadd.s32.s32.s32.sat %0.h1, %1.b3, %2.h0, %3;")         \
    X(vmax_s32_ah0_bh0_mb0, "vmax.s32.s32.s32 %0.b0, %1.h0, %2.h0, %3;")

// 5. vshl / vshr (btype is always u32; the mode is mandatory).
#define SHIFT_TYPES(X, op)                                                               \
    X(op##_u32_clamp, #op ".u32.u32.u32.clamp " PLAIN) X(op##_u32_wrap, #op ".u32.u32.u32.wrap " PLAIN) \
    X(op##_s32_clamp, #op ".s32.s32.u32.clamp " PLAIN) X(op##_s32_wrap, #op ".s32.s32.u32.wrap " PLAIN) \
    X(op##_u32_sat_clamp, #op ".u32.u32.u32.sat.clamp " PLAIN) X(op##_u32_sat_wrap, #op ".u32.u32.u32.sat.wrap " PLAIN) \
    X(op##_s32_sat_clamp, #op ".s32.s32.u32.sat.clamp " PLAIN) X(op##_s32_sat_wrap, #op ".s32.s32.u32.sat.wrap " PLAIN) \
    X(op##_u32_s32_sat_clamp, #op ".u32.s32.u32.sat.clamp " PLAIN) X(op##_s32_u32_wrap, #op ".s32.u32.u32.wrap " PLAIN)
#define SHIFTS(X)                                                                        \
    SHIFT_TYPES(X, vshl) SHIFT_TYPES(X, vshr)                                            \
    X(vshl_u32_clamp_add, "vshl.u32.u32.u32.clamp.add " WITHC)                           \
    X(vshl_s32_sat_clamp_max, "vshl.s32.s32.u32.sat.clamp.max " WITHC)                   \
    X(vshr_u32_clamp_add, "vshr.u32.u32.u32.clamp.add " WITHC)                           \
    X(vshr_s32_wrap_min, "vshr.s32.s32.u32.wrap.min " WITHC)                             \
    X(vshl_u32_wrap_b1, "vshl.u32.u32.u32.wrap %0.b1, %1, %2, %3;")                      \
    X(vshl_s32_sat_clamp_b3, "vshl.s32.s32.u32.sat.clamp %0.b3, %1, %2, %3;")            \
    X(vshr_s32_sat_clamp_h1, "vshr.s32.s32.u32.sat.clamp %0.h1, %1, %2, %3;")            \
    X(vshr_s32_clamp_ah1_bb0, "vshr.s32.s32.u32.clamp %0, %1.h1, %2.b0;")                \
    X(vshl_u32_wrap_ab2_bh1, "vshl.u32.u32.u32.wrap %0, %1.b2, %2.h1;")

// 6. vmad: d = (a*b) + c with the legal sign combinations, .po, scaling, .sat, negation.
#define VMAD(X)                                                                          \
    X(vmad_u32_u32_u32, "vmad.u32.u32.u32 " WITHC) X(vmad_s32_s32_s32, "vmad.s32.s32.s32 " WITHC) \
    X(vmad_s32_u32_s32, "vmad.s32.u32.s32 " WITHC) X(vmad_s32_s32_u32, "vmad.s32.s32.u32 " WITHC) \
    X(vmad_u32_s32_s32, "vmad.u32.s32.s32 " WITHC) X(vmad_s32_u32_u32, "vmad.s32.u32.u32 " WITHC) \
    X(vmad_u32_u32_u32_sat, "vmad.u32.u32.u32.sat " WITHC) X(vmad_s32_s32_s32_sat, "vmad.s32.s32.s32.sat " WITHC) \
    X(vmad_s32_u32_s32_sat, "vmad.s32.u32.s32.sat " WITHC)                               \
    X(vmad_u32_po, "vmad.u32.u32.u32.po " WITHC) X(vmad_s32_po, "vmad.s32.s32.s32.po " WITHC) \
    X(vmad_u32_po_sat_shr7, "vmad.u32.u32.u32.po.sat.shr7 " WITHC)                       \
    X(vmad_u32_shr7, "vmad.u32.u32.u32.shr7 " WITHC) X(vmad_u32_shr15, "vmad.u32.u32.u32.shr15 " WITHC) \
    X(vmad_s32_shr7, "vmad.s32.s32.s32.shr7 " WITHC) X(vmad_s32_shr15, "vmad.s32.s32.s32.shr15 " WITHC) \
    X(vmad_s32_sat_shr15, "vmad.s32.s32.s32.sat.shr15 " WITHC) X(vmad_u32_sat_shr7, "vmad.u32.u32.u32.sat.shr7 " WITHC) \
    X(vmad_s32_nega, "vmad.s32.s32.s32 %0, -%1, %2, %3;") X(vmad_s32_negb, "vmad.s32.s32.s32 %0, %1, -%2, %3;") \
    X(vmad_s32_negc, "vmad.s32.s32.s32 %0, %1, %2, -%3;") X(vmad_s32_negab, "vmad.s32.s32.s32 %0, -%1, -%2, %3;") X(vmad_u32_negc, "vmad.u32.u32.u32 %0, %1, %2, -%3;") \
    X(vmad_s32_u32_u32_nega, "vmad.s32.u32.u32 %0, -%1, %2, %3;")                        \
    X(vmad_s32_u32_s32_negb_sat, "vmad.s32.u32.s32.sat %0, %1, -%2, %3;")                \
    X(vmad_s32_s32_u32_negc_shr7, "vmad.s32.s32.u32.shr7 %0, %1, %2, -%3;")              \
    X(vmad_u32_u32_u32_negc_sat, "vmad.u32.u32.u32.sat %0, %1, %2, -%3;")                \
    X(vmad_s32_ah0_bh1, "vmad.s32.s32.s32 %0, %1.h0, %2.h1, %3;")                        \
    X(vmad_s32_ab0_bb3_shr7, "vmad.s32.s32.s32.shr7 %0, %1.b0, %2.b3, %3;")              \
    X(vmad_u32_ah1_bh0_po, "vmad.u32.u32.u32.po %0, %1.h1, %2.h0, %3;")                  \
    X(vmad_s32_u32_s32_ab2_bh1_sat, "vmad.s32.u32.s32.sat %0, %1.b2, %2.h1, %3;")        \
    X(vmad_s32_ah1_bh1_nega_shr15, "vmad.s32.s32.s32.shr15 %0, -%1.h1, %2.h1, %3;")

// 7. vset: compares (result 0/1), secondary ops, merge, selectors.
#define CMP6(X, ta, tb)                                                                  \
    X(vset_##ta##_##tb##_eq, "vset." #ta "." #tb ".eq " PLAIN) X(vset_##ta##_##tb##_ne, "vset." #ta "." #tb ".ne " PLAIN) \
    X(vset_##ta##_##tb##_lt, "vset." #ta "." #tb ".lt " PLAIN) X(vset_##ta##_##tb##_le, "vset." #ta "." #tb ".le " PLAIN) \
    X(vset_##ta##_##tb##_gt, "vset." #ta "." #tb ".gt " PLAIN) X(vset_##ta##_##tb##_ge, "vset." #ta "." #tb ".ge " PLAIN)
#define VSET(X)                                                                          \
    CMP6(X, u32, u32) CMP6(X, s32, s32) CMP6(X, u32, s32) CMP6(X, s32, u32)              \
    X(vset_u32_u32_lt_add, "vset.u32.u32.lt.add " WITHC) X(vset_s32_s32_ge_add, "vset.s32.s32.ge.add " WITHC) \
    X(vset_s32_s32_ne_min, "vset.s32.s32.ne.min " WITHC) X(vset_u32_u32_eq_max, "vset.u32.u32.eq.max " WITHC) \
    X(vset_s32_u32_gt_max, "vset.s32.u32.gt.max " WITHC) X(vset_u32_s32_le_min, "vset.u32.s32.le.min " WITHC) \
    X(vset_s32_s32_eq_b0, "vset.s32.s32.eq %0.b0, %1, %2, %3;") X(vset_u32_u32_lt_b1, "vset.u32.u32.lt %0.b1, %1, %2, %3;") \
    X(vset_s32_s32_gt_b2, "vset.s32.s32.gt %0.b2, %1, %2, %3;") X(vset_u32_s32_ne_b3, "vset.u32.s32.ne %0.b3, %1, %2, %3;") \
    X(vset_s32_s32_le_h0, "vset.s32.s32.le %0.h0, %1, %2, %3;") X(vset_u32_u32_ge_h1, "vset.u32.u32.ge %0.h1, %1, %2, %3;") \
    X(vset_s32_s32_lt_ab1_bh0, "vset.s32.s32.lt %0, %1.b1, %2.h0;")                      \
    X(vset_u32_u32_eq_ah1_bb2, "vset.u32.u32.eq %0, %1.h1, %2.b2;")                      \
    X(vset_s32_u32_ge_ab3_bb3_add, "vset.s32.u32.ge.add %0, %1.b3, %2.b3, %3;")          \
    X(vset_s32_s32_gt_ah0_bh1_b1, "vset.s32.s32.gt %0.b1, %1.h0, %2.h1, %3;")

#define ALL(X) ARITH_TYPES(X) ARITH_SECONDARY(X) ARITH_MERGE(X) ARITH_SELECT(X) SHIFTS(X) VMAD(X) VSET(X)
ALL(VK)

GOLDEN_CASES {
    ALL(VCASE)
};
GOLDEN_MAIN
