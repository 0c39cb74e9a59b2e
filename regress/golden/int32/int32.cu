// Golden family "int32": 32-bit integer instructions, one kernel per PTX variant (inline asm, so
// the exact instruction is in the PTX), plus the CUDA integer intrinsics written as plain C++ so
// the PTX shows how nvcc lowers them.
//   arithmetic   add sub (.sat, .cc/addc/subc carry chains) mul mad (.lo .hi .wide, mad.hi.sat)
//                mul24 mad24 sad div rem (divisor 0 included) min max neg abs dp4a dp2a
//   bits         clz popc brev bfind(.shiftamt) bfe bfi prmt (generic and every mode) shf
//                shl shr (amounts past 32) not cnot and or xor lop3 fns
//   compare      setp (every compare on u32 and s32, two predicates, .and combine) selp
//   convert      cvt between 8/16/32-bit integers, with and without .sat
// Inputs: a, b, c are 32-bit values (edge values crossed, then random). Kernels that need a
// position or length mask c (or b) in C++ so random inputs stay in an interesting range.
// Outputs: d[i] = result zero-extended; a predicate or carry output is packed as r | (p << 32).
//
// Dropped variants (ptxas 13.0 rejects them for sm_75 and sm_90, checked by hand):
//   setp.{lo,ls,hi,hs}.s32       "Mismatch between instruction type and comparison qualifier"
//   cvt.sat.s32.s32, cvt.sat.u32.u32, cvt.sat.u32.u8 (any .sat that cannot overflow)
//                                "Illegal modifier '.sat' for instruction 'cvt'"
// Not dropped but constrained: fns base > 31 is undefined (ISA), so the base is masked to 0..31.
#include "golden.cuh"
GOLDEN_FAMILY("int32", kU32, kU32, kU32)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define C ((u32)c[i])

// Kernel shapes: r = op(a), op(a, b), op(a, b, c); 64-bit results; predicate results.
#define K1(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;              \
    asm(ins " %0, %1;" : "=r"(r) : "r"(A)); d[i] = r; }
#define K2(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;              \
    asm(ins " %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
#define K3(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;              \
    asm(ins " %0, %1, %2, %3;" : "=r"(r) : "r"(A), "r"(B), "r"(C)); d[i] = r; }
#define K2W(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;             \
    asm(ins " %0, %1, %2;" : "=l"(r) : "r"(A), "r"(B)); d[i] = r; }
#define K3W(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;             \
    asm(ins " %0, %1, %2, %3;" : "=l"(r) : "r"(A), "r"(B), "l"(c[i])); d[i] = r; }
#define KP(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;              \
    asm("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
#define CASE(name, ins) {#name, 16, 128, ""},

#define UNARY(X)                                                                         \
    X(clz_b32, "clz.b32") X(popc_b32, "popc.b32") X(brev_b32, "brev.b32")                \
    X(bfind_u32, "bfind.u32") X(bfind_s32, "bfind.s32")                                  \
    X(bfind_shiftamt_u32, "bfind.shiftamt.u32") X(bfind_shiftamt_s32, "bfind.shiftamt.s32") \
    X(neg_s32, "neg.s32") X(abs_s32, "abs.s32") X(not_b32, "not.b32") X(cnot_b32, "cnot.b32") \
    X(mov_b32, "mov.b32")                                                                \
    X(cvt_s8_s32, "cvt.s8.s32") X(cvt_s8_u32, "cvt.s8.u32") X(cvt_u8_s32, "cvt.u8.s32")  \
    X(cvt_u8_u32, "cvt.u8.u32") X(cvt_s16_s32, "cvt.s16.s32") X(cvt_s16_u32, "cvt.s16.u32") \
    X(cvt_u16_s32, "cvt.u16.s32") X(cvt_u16_u32, "cvt.u16.u32") X(cvt_s32_s32, "cvt.s32.s32") \
    X(cvt_s32_u32, "cvt.s32.u32") X(cvt_u32_s32, "cvt.u32.s32") X(cvt_u32_u32, "cvt.u32.u32") \
    X(cvt_sat_s8_s32, "cvt.sat.s8.s32") X(cvt_sat_s8_u32, "cvt.sat.s8.u32")              \
    X(cvt_sat_u8_s32, "cvt.sat.u8.s32") X(cvt_sat_u8_u32, "cvt.sat.u8.u32")              \
    X(cvt_sat_s16_s32, "cvt.sat.s16.s32") X(cvt_sat_s16_u32, "cvt.sat.s16.u32")          \
    X(cvt_sat_u16_s32, "cvt.sat.u16.s32") X(cvt_sat_u16_u32, "cvt.sat.u16.u32")          \
    X(cvt_sat_s32_u32, "cvt.sat.s32.u32") X(cvt_sat_u32_s32, "cvt.sat.u32.s32")          \
    X(cvt_u32_u8, "cvt.u32.u8") X(cvt_u32_s8, "cvt.u32.s8") X(cvt_s32_u8, "cvt.s32.u8")  \
    X(cvt_s32_s8, "cvt.s32.s8") X(cvt_u32_u16, "cvt.u32.u16") X(cvt_u32_s16, "cvt.u32.s16") \
    X(cvt_s32_u16, "cvt.s32.u16") X(cvt_s32_s16, "cvt.s32.s16")                          \
    X(cvt_sat_u32_s8, "cvt.sat.u32.s8") X(cvt_sat_u32_s16, "cvt.sat.u32.s16")            \
    X(cvt_sat_s8_u8, "cvt.sat.s8.u8") X(cvt_sat_u8_s8, "cvt.sat.u8.s8")                  \
    X(cvt_sat_s8_s16, "cvt.sat.s8.s16") X(cvt_sat_u16_s8, "cvt.sat.u16.s8")

#define BINARY(X)                                                                        \
    X(add_u32, "add.u32") X(add_s32, "add.s32") X(add_sat_s32, "add.sat.s32")            \
    X(sub_u32, "sub.u32") X(sub_s32, "sub.s32") X(sub_sat_s32, "sub.sat.s32")            \
    X(mul_lo_u32, "mul.lo.u32") X(mul_lo_s32, "mul.lo.s32")                              \
    X(mul_hi_u32, "mul.hi.u32") X(mul_hi_s32, "mul.hi.s32")                              \
    X(mul24_lo_u32, "mul24.lo.u32") X(mul24_lo_s32, "mul24.lo.s32")                      \
    X(mul24_hi_u32, "mul24.hi.u32") X(mul24_hi_s32, "mul24.hi.s32")                      \
    X(div_u32, "div.u32") X(div_s32, "div.s32") X(rem_u32, "rem.u32") X(rem_s32, "rem.s32") \
    X(min_u32, "min.u32") X(min_s32, "min.s32") X(max_u32, "max.u32") X(max_s32, "max.s32") \
    X(shl_b32, "shl.b32") X(shr_u32, "shr.u32") X(shr_s32, "shr.s32") X(shr_b32, "shr.b32") \
    X(and_b32, "and.b32") X(or_b32, "or.b32") X(xor_b32, "xor.b32")

#define TERNARY(X)                                                                       \
    X(mad_lo_u32, "mad.lo.u32") X(mad_lo_s32, "mad.lo.s32")                              \
    X(mad_hi_u32, "mad.hi.u32") X(mad_hi_s32, "mad.hi.s32") X(mad_hi_sat_s32, "mad.hi.sat.s32") \
    X(mad24_lo_u32, "mad24.lo.u32") X(mad24_lo_s32, "mad24.lo.s32")                      \
    X(mad24_hi_u32, "mad24.hi.u32") X(mad24_hi_s32, "mad24.hi.s32")                      \
    X(mad24_hi_sat_s32, "mad24.hi.sat.s32")                                              \
    X(sad_u32, "sad.u32") X(sad_s32, "sad.s32")                                          \
    X(bfe_u32, "bfe.u32") X(bfe_s32, "bfe.s32")                                          \
    X(prmt_b32, "prmt.b32") X(prmt_f4e, "prmt.b32.f4e") X(prmt_b4e, "prmt.b32.b4e")      \
    X(prmt_rc8, "prmt.b32.rc8") X(prmt_ecl, "prmt.b32.ecl") X(prmt_ecr, "prmt.b32.ecr")  \
    X(prmt_rc16, "prmt.b32.rc16")                                                        \
    X(shf_l_wrap_b32, "shf.l.wrap.b32") X(shf_l_clamp_b32, "shf.l.clamp.b32")            \
    X(shf_r_wrap_b32, "shf.r.wrap.b32") X(shf_r_clamp_b32, "shf.r.clamp.b32")            \
    X(dp4a_u32_u32, "dp4a.u32.u32") X(dp4a_s32_s32, "dp4a.s32.s32")                      \
    X(dp4a_u32_s32, "dp4a.u32.s32") X(dp4a_s32_u32, "dp4a.s32.u32")                      \
    X(dp2a_lo_u32_u32, "dp2a.lo.u32.u32") X(dp2a_lo_s32_s32, "dp2a.lo.s32.s32")          \
    X(dp2a_lo_u32_s32, "dp2a.lo.u32.s32") X(dp2a_lo_s32_u32, "dp2a.lo.s32.u32")          \
    X(dp2a_hi_u32_u32, "dp2a.hi.u32.u32") X(dp2a_hi_s32_s32, "dp2a.hi.s32.s32")          \
    X(dp2a_hi_u32_s32, "dp2a.hi.u32.s32") X(dp2a_hi_s32_u32, "dp2a.hi.s32.u32")

#define WIDE(X) X(mul_wide_u32, "mul.wide.u32") X(mul_wide_s32, "mul.wide.s32")
#define WIDE3(X) X(mad_wide_u32, "mad.wide.u32") X(mad_wide_s32, "mad.wide.s32")

#define COMPARE(X)                                                                       \
    X(setp_eq_u32, "setp.eq.u32") X(setp_ne_u32, "setp.ne.u32") X(setp_lt_u32, "setp.lt.u32") \
    X(setp_le_u32, "setp.le.u32") X(setp_gt_u32, "setp.gt.u32") X(setp_ge_u32, "setp.ge.u32") \
    X(setp_lo_u32, "setp.lo.u32") X(setp_ls_u32, "setp.ls.u32") X(setp_hi_u32, "setp.hi.u32") \
    X(setp_hs_u32, "setp.hs.u32")                                                        \
    X(setp_eq_s32, "setp.eq.s32") X(setp_ne_s32, "setp.ne.s32") X(setp_lt_s32, "setp.lt.s32") \
    X(setp_le_s32, "setp.le.s32") X(setp_gt_s32, "setp.gt.s32") X(setp_ge_s32, "setp.ge.s32") \
    X(setp_eq_b32, "setp.eq.b32") X(setp_ne_b32, "setp.ne.b32")

UNARY(K1)
BINARY(K2)
TERNARY(K3)
WIDE(K2W)
WIDE3(K3W)
COMPARE(KP)

// bfe/bfi with position and length kept in 0..63 (the random inputs would mostly be past 32).
GOLDEN_KERNEL(bfe_u32_small) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(A), "r"(B & 63), "r"(C & 63)); d[i] = r; }
GOLDEN_KERNEL(bfe_s32_small) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(A), "r"(B & 63), "r"(C & 63)); d[i] = r; }
// bfi f, a, b, pos, len: pos = c, len = c >> 16 (both used &0xff by the instruction).
GOLDEN_KERNEL(bfi_b32) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(A), "r"(B), "r"(C), "r"(C >> 16)); d[i] = r; }
GOLDEN_KERNEL(bfi_b32_small) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(A), "r"(B), "r"(C & 63), "r"((C >> 8) & 63)); d[i] = r; }
// Immediate pos/len forms.
GOLDEN_KERNEL(bfe_u32_imm) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfe.u32 %0, %1, 5, 13;" : "=r"(r) : "r"(A)); d[i] = r; }
GOLDEN_KERNEL(bfe_s32_imm) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfe.s32 %0, %1, 20, 20;" : "=r"(r) : "r"(A)); d[i] = r; }
GOLDEN_KERNEL(bfi_b32_imm) { unsigned i = GOLDEN_TID; u32 r;
    asm("bfi.b32 %0, %1, %2, 28, 8;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
// prmt with an immediate selector, and with sign replication (selector bit 3).
GOLDEN_KERNEL(prmt_b32_imm) { unsigned i = GOLDEN_TID; u32 r;
    asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
GOLDEN_KERNEL(prmt_b32_signrep) { unsigned i = GOLDEN_TID; u32 r;
    asm("prmt.b32 %0, %1, %2, 0x9BDF;" : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }

// lop3 with a few lookup tables.
#define LOP3(name, lut) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;            \
    asm("lop3.b32 %0, %1, %2, %3, " #lut ";" : "=r"(r) : "r"(A), "r"(B), "r"(C)); d[i] = r; }
#define LOPS(X) X(lop3_xor3, 0x96) X(lop3_maj, 0xE8) X(lop3_sel, 0xCA) X(lop3_1e, 0x1E) X(lop3_01, 0x01)
LOPS(LOP3)

// fns: base must be 0..31 (undefined otherwise); offset raw, and small signed.
GOLDEN_KERNEL(fns_b32) { unsigned i = GOLDEN_TID; u32 r;
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(A), "r"(B & 31), "r"(C)); d[i] = r; }
GOLDEN_KERNEL(fns_b32_small) { unsigned i = GOLDEN_TID; u32 r;
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(A), "r"(B & 31), "r"((int)(C & 63) - 32)); d[i] = r; }

// Carry chains: carry/borrow out packed in the high word; carry in from c != 0.
GOLDEN_KERNEL(add_cc_u32) { unsigned i = GOLDEN_TID; u32 r, co;
    asm("{ add.cc.u32 %0, %2, %3; addc.u32 %1, 0, 0; }" : "=r"(r), "=r"(co) : "r"(A), "r"(B));
    d[i] = r | ((u64)co << 32); }
GOLDEN_KERNEL(addc_cc_u32) { unsigned i = GOLDEN_TID; u32 r, co;
    asm("{ .reg .u32 t; add.cc.u32 t, %4, -1; addc.cc.u32 %0, %2, %3; addc.u32 %1, 0, 0; }"
        : "=r"(r), "=r"(co) : "r"(A), "r"(B), "r"(C)); d[i] = r | ((u64)co << 32); }
GOLDEN_KERNEL(sub_cc_u32) { unsigned i = GOLDEN_TID; u32 r, bo;
    asm("{ sub.cc.u32 %0, %2, %3; subc.u32 %1, 0, 0; }" : "=r"(r), "=r"(bo) : "r"(A), "r"(B));
    d[i] = r | ((u64)bo << 32); }
GOLDEN_KERNEL(subc_cc_u32) { unsigned i = GOLDEN_TID; u32 r, bo;
    asm("{ .reg .u32 t; sub.cc.u32 t, 0, %4; subc.cc.u32 %0, %2, %3; subc.u32 %1, 0, 0; }"
        : "=r"(r), "=r"(bo) : "r"(A), "r"(B), "r"(C)); d[i] = r | ((u64)bo << 32); }
GOLDEN_KERNEL(mad_lo_cc_u32) { unsigned i = GOLDEN_TID; u32 r, co;
    asm("{ mad.lo.cc.u32 %0, %2, %3, %4; addc.u32 %1, 0, 0; }" : "=r"(r), "=r"(co) : "r"(A), "r"(B), "r"(C));
    d[i] = r | ((u64)co << 32); }
GOLDEN_KERNEL(madc_hi_cc_u32) { unsigned i = GOLDEN_TID; u32 r, co;
    asm("{ .reg .u32 t; add.cc.u32 t, %4, -1; madc.hi.cc.u32 %0, %2, %3, %4; addc.u32 %1, 0, 0; }"
        : "=r"(r), "=r"(co) : "r"(A), "r"(B), "r"(C)); d[i] = r | ((u64)co << 32); }

// setp with two predicate outputs, with a boolean combine, and selp.
GOLDEN_KERNEL(setp_lt_s32_pq) { unsigned i = GOLDEN_TID; u32 r;
    asm("{ .reg .pred p, q; .reg .u32 t; setp.lt.s32 p|q, %1, %2; selp.u32 %0, 1, 0, p; selp.u32 t, 2, 0, q; "
        "or.b32 %0, %0, t; }"
        : "=r"(r) : "r"(A), "r"(B)); d[i] = r; }
GOLDEN_KERNEL(setp_gt_u32_and) { unsigned i = GOLDEN_TID; u32 r;
    asm("{ .reg .pred p, q; setp.ne.u32 q, %3, 0; setp.gt.u32.and p, %1, %2, q; selp.u32 %0, 1, 0, p; }"
        : "=r"(r) : "r"(A), "r"(B), "r"(C & 1)); d[i] = r; }
GOLDEN_KERNEL(setp_le_s32_xor_not) { unsigned i = GOLDEN_TID; u32 r;
    asm("{ .reg .pred p, q; setp.ne.u32 q, %3, 0; setp.le.s32.xor p, %1, %2, !q; selp.u32 %0, 1, 0, p; }"
        : "=r"(r) : "r"(A), "r"(B), "r"(C & 1)); d[i] = r; }
GOLDEN_KERNEL(selp_b32) { unsigned i = GOLDEN_TID; u32 r;
    asm("{ .reg .pred p; setp.ne.u32 p, %3, 0; selp.b32 %0, %1, %2, p; }" : "=r"(r) : "r"(A), "r"(B), "r"(C & 1));
    d[i] = r; }

// cvt with 16-bit registers.
GOLDEN_KERNEL(cvt_u32_u16_h) { unsigned i = GOLDEN_TID; u32 r;
    asm("cvt.u32.u16 %0, %1;" : "=r"(r) : "h"((unsigned short)A)); d[i] = r; }
GOLDEN_KERNEL(cvt_s32_s16_h) { unsigned i = GOLDEN_TID; u32 r;
    asm("cvt.s32.s16 %0, %1;" : "=r"(r) : "h"((unsigned short)A)); d[i] = r; }
GOLDEN_KERNEL(cvt_u16_u32_h) { unsigned i = GOLDEN_TID; unsigned short r;
    asm("cvt.u16.u32 %0, %1;" : "=h"(r) : "r"(A)); d[i] = r; }
GOLDEN_KERNEL(cvt_sat_s8_s16_h) { unsigned i = GOLDEN_TID; unsigned short r;
    asm("cvt.sat.s8.s16 %0, %1;" : "=h"(r) : "h"((unsigned short)A)); d[i] = r; }

// CUDA intrinsics as plain C++ (A, B, C are the u32 inputs).
#define INTR(name, expr) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID;                  \
    d[i] = (u32)(expr); }
#define INTRINSICS(X)                                                                    \
    X(cuda_ffs, __ffs((int)A)) X(cuda_popc, __popc(A)) X(cuda_clz, __clz((int)A))        \
    X(cuda_brev, __brev(A)) X(cuda_byte_perm, __byte_perm(A, B, C))                      \
    X(cuda_funnelshift_l, __funnelshift_l(A, B, C)) X(cuda_funnelshift_r, __funnelshift_r(A, B, C)) \
    X(cuda_funnelshift_lc, __funnelshift_lc(A, B, C)) X(cuda_funnelshift_rc, __funnelshift_rc(A, B, C)) \
    X(cuda_mulhi, __mulhi((int)A, (int)B)) X(cuda_umulhi, __umulhi(A, B))                \
    X(cuda_mul24, __mul24((int)A, (int)B)) X(cuda_umul24, __umul24(A, B))                \
    X(cuda_sad, __sad((int)A, (int)B, C)) X(cuda_usad, __usad(A, B, C))                  \
    X(cuda_hadd, __hadd((int)A, (int)B)) X(cuda_rhadd, __rhadd((int)A, (int)B))          \
    X(cuda_uhadd, __uhadd(A, B)) X(cuda_urhadd, __urhadd(A, B))                          \
    X(cuda_dp4a_s, __dp4a((int)A, (int)B, (int)C)) X(cuda_dp4a_u, __dp4a(A, B, C))       \
    X(cuda_dp2a_lo_s, __dp2a_lo((int)A, (int)B, (int)C)) X(cuda_dp2a_lo_u, __dp2a_lo(A, B, C)) \
    X(cuda_dp2a_hi_s, __dp2a_hi((int)A, (int)B, (int)C)) X(cuda_dp2a_hi_u, __dp2a_hi(A, B, C)) \
    X(cuda_fns, __fns(A, B & 31, (int)(C & 63) - 32))                                    \
    X(cuda_div_u, A / (B | 1)) X(cuda_div_s, (int)A / ((int)B | 1)) X(cuda_rem_s, (int)A % ((int)B | 1))
INTRINSICS(INTR)

#define NAME(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    UNARY(CASE) BINARY(CASE) TERNARY(CASE) WIDE(CASE) WIDE3(CASE) COMPARE(CASE)
    NAME(bfe_u32_small) NAME(bfe_s32_small) NAME(bfi_b32) NAME(bfi_b32_small)
    NAME(bfe_u32_imm) NAME(bfe_s32_imm) NAME(bfi_b32_imm) NAME(prmt_b32_imm) NAME(prmt_b32_signrep)
    LOPS(NAME)
    NAME(fns_b32) NAME(fns_b32_small)
    NAME(add_cc_u32) NAME(addc_cc_u32) NAME(sub_cc_u32) NAME(subc_cc_u32) NAME(mad_lo_cc_u32) NAME(madc_hi_cc_u32)
    NAME(setp_lt_s32_pq) NAME(setp_gt_u32_and) NAME(setp_le_s32_xor_not) NAME(selp_b32)
    NAME(cvt_u32_u16_h) NAME(cvt_s32_s16_h) NAME(cvt_u16_u32_h) NAME(cvt_sat_s8_s16_h)
    INTRINSICS(NAME)
};
GOLDEN_MAIN
