// Golden family "int64": 64-bit integer instructions, one kernel per PTX variant (inline asm, so
// the exact instruction is in the PTX), plus the 64-bit CUDA integer intrinsics as plain C++.
//   arithmetic   add sub (.cc/addc/subc carry chains) mul mad (.lo .hi) mul.wide sad div rem
//                (divisor 0 and INT64_MIN / -1 included) min max neg abs
//   bits         clz popc brev bfind(.shiftamt) bfe bfi shl shr (amounts past 64) and or xor not cnot
//   compare      setp on u64, s64 and b64, packed as a 0/1 value
//   convert      cvt between 64-bit and 32/16/8-bit integers, with and without .sat
// Inputs: a, b, c are 64-bit values (edge values crossed, then random). Shift amounts and bit
// positions are the low 32 bits of b (and c); the "_small" kernels mask them to an interesting range.
// Outputs: d[i] = result (32-bit results zero-extended); predicates as 0/1; carry chains below.
//
// Dropped variants (ptxas 13.0 rejects them for sm_75 and sm_90, checked by hand):
//   setp.{lo,ls,hi,hs}.s64       "Mismatch between instruction type and comparison qualifier"
//   cvt.sat.u64.u64, cvt.sat.s64.s64, cvt.sat.u64.u32, cvt.sat.s64.s32, cvt.sat.s64.u32
//                                (a .sat that cannot overflow)
//                                "Illegal modifier '.sat' for instruction 'cvt'"
#include "golden.cuh"
GOLDEN_FAMILY("int64", kU64, kU64, kU64)

#define A (a[i])
#define B (b[i])
#define C (c[i])
#define A32 ((u32)a[i])
#define B32 ((u32)b[i])
#define C32 ((u32)c[i])

// Kernel shapes.  L = 64-bit register, R = 32-bit register; name = result, operands.
#define K_L_L(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;           \
    asm(ins " %0, %1;" : "=l"(r) : "l"(A)); d[i] = r; }
#define K_R_L(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;           \
    asm(ins " %0, %1;" : "=r"(r) : "l"(A)); d[i] = r; }
#define K_L_R(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;           \
    asm(ins " %0, %1;" : "=l"(r) : "r"(A32)); d[i] = r; }
#define K_L_LL(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;          \
    asm(ins " %0, %1, %2;" : "=l"(r) : "l"(A), "l"(B)); d[i] = r; }
#define K_L_LR(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;          \
    asm(ins " %0, %1, %2;" : "=l"(r) : "l"(A), "r"(B32)); d[i] = r; }
#define K_L_RR(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;          \
    asm(ins " %0, %1, %2;" : "=l"(r) : "r"(A32), "r"(B32)); d[i] = r; }
#define K_L_LLL(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;         \
    asm(ins " %0, %1, %2, %3;" : "=l"(r) : "l"(A), "l"(B), "l"(C)); d[i] = r; }
#define K_L_LRR(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r;         \
    asm(ins " %0, %1, %2, %3;" : "=l"(r) : "l"(A), "r"(B32), "r"(C32)); d[i] = r; }
#define K_P_LL(name, ins) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;          \
    asm("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(A), "l"(B)); d[i] = r; }
#define CASE(name, ins) {#name, 16, 128, ""},

#define L_L(X)                                                                           \
    X(neg_s64, "neg.s64") X(abs_s64, "abs.s64") X(not_b64, "not.b64") X(cnot_b64, "cnot.b64") \
    X(brev_b64, "brev.b64") X(mov_b64, "mov.b64")                                        \
    X(cvt_sat_u64_s64, "cvt.sat.u64.s64") X(cvt_sat_s64_u64, "cvt.sat.s64.u64")          \
    X(cvt_u64_s64, "cvt.u64.s64") X(cvt_s64_u64, "cvt.s64.u64")
#define R_L(X)                                                                           \
    X(clz_b64, "clz.b64") X(popc_b64, "popc.b64") X(bfind_u64, "bfind.u64") X(bfind_s64, "bfind.s64") \
    X(bfind_shiftamt_u64, "bfind.shiftamt.u64") X(bfind_shiftamt_s64, "bfind.shiftamt.s64") \
    X(cvt_u32_u64, "cvt.u32.u64") X(cvt_u32_s64, "cvt.u32.s64") X(cvt_s32_u64, "cvt.s32.u64") \
    X(cvt_s32_s64, "cvt.s32.s64") X(cvt_sat_u32_u64, "cvt.sat.u32.u64")                  \
    X(cvt_sat_u32_s64, "cvt.sat.u32.s64") X(cvt_sat_s32_u64, "cvt.sat.s32.u64")          \
    X(cvt_sat_s32_s64, "cvt.sat.s32.s64")                                                \
    X(cvt_u16_u64, "cvt.u16.u64") X(cvt_s16_s64, "cvt.s16.s64") X(cvt_u8_s64, "cvt.u8.s64") \
    X(cvt_s8_u64, "cvt.s8.u64") X(cvt_sat_u16_u64, "cvt.sat.u16.u64")                    \
    X(cvt_sat_s16_s64, "cvt.sat.s16.s64") X(cvt_sat_u8_s64, "cvt.sat.u8.s64")            \
    X(cvt_sat_s8_u64, "cvt.sat.s8.u64") X(cvt_sat_s8_s64, "cvt.sat.s8.s64")              \
    X(cvt_sat_u16_s64, "cvt.sat.u16.s64")
#define L_R(X)                                                                           \
    X(cvt_u64_u32, "cvt.u64.u32") X(cvt_u64_s32, "cvt.u64.s32") X(cvt_s64_u32, "cvt.s64.u32") \
    X(cvt_s64_s32, "cvt.s64.s32") X(cvt_sat_u64_s32, "cvt.sat.u64.s32")                  \
    X(cvt_u64_u16, "cvt.u64.u16") X(cvt_s64_s16, "cvt.s64.s16") X(cvt_u64_s8, "cvt.u64.s8") \
    X(cvt_s64_u8, "cvt.s64.u8") X(cvt_sat_u64_s16, "cvt.sat.u64.s16") X(cvt_sat_u64_s8, "cvt.sat.u64.s8")
#define L_LL(X)                                                                          \
    X(add_u64, "add.u64") X(add_s64, "add.s64") X(sub_u64, "sub.u64") X(sub_s64, "sub.s64") \
    X(mul_lo_u64, "mul.lo.u64") X(mul_lo_s64, "mul.lo.s64") X(mul_hi_u64, "mul.hi.u64")  \
    X(mul_hi_s64, "mul.hi.s64") X(div_u64, "div.u64") X(div_s64, "div.s64") X(rem_u64, "rem.u64") \
    X(rem_s64, "rem.s64") X(min_u64, "min.u64") X(min_s64, "min.s64") X(max_u64, "max.u64") \
    X(max_s64, "max.s64") X(and_b64, "and.b64") X(or_b64, "or.b64") X(xor_b64, "xor.b64")
#define L_LR(X)                                                                          \
    X(shl_b64, "shl.b64") X(shr_u64, "shr.u64") X(shr_s64, "shr.s64") X(shr_b64, "shr.b64")
#define L_RR(X) X(mul_wide_u32, "mul.wide.u32") X(mul_wide_s32, "mul.wide.s32")
#define L_LLL(X)                                                                         \
    X(mad_lo_u64, "mad.lo.u64") X(mad_lo_s64, "mad.lo.s64") X(mad_hi_u64, "mad.hi.u64")  \
    X(mad_hi_s64, "mad.hi.s64") X(sad_u64, "sad.u64") X(sad_s64, "sad.s64")
#define L_LRR(X) X(bfe_u64, "bfe.u64") X(bfe_s64, "bfe.s64")
#define P_LL(X)                                                                          \
    X(setp_eq_u64, "setp.eq.u64") X(setp_ne_u64, "setp.ne.u64") X(setp_lt_u64, "setp.lt.u64") \
    X(setp_le_u64, "setp.le.u64") X(setp_gt_u64, "setp.gt.u64") X(setp_ge_u64, "setp.ge.u64") \
    X(setp_lo_u64, "setp.lo.u64") X(setp_ls_u64, "setp.ls.u64") X(setp_hi_u64, "setp.hi.u64") \
    X(setp_hs_u64, "setp.hs.u64")                                                        \
    X(setp_eq_s64, "setp.eq.s64") X(setp_ne_s64, "setp.ne.s64") X(setp_lt_s64, "setp.lt.s64") \
    X(setp_le_s64, "setp.le.s64") X(setp_gt_s64, "setp.gt.s64") X(setp_ge_s64, "setp.ge.s64") \
    X(setp_eq_b64, "setp.eq.b64") X(setp_ne_b64, "setp.ne.b64")

L_L(K_L_L)
R_L(K_R_L)
L_R(K_L_R)
L_LL(K_L_LL)
L_LR(K_L_LR)
L_RR(K_L_RR)
L_LLL(K_L_LLL)
L_LRR(K_L_LRR)
P_LL(K_P_LL)

// bfe with position and length kept in 0..127.
GOLDEN_KERNEL(bfe_u64_small) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(A), "r"(B32 & 127), "r"(C32 & 127)); d[i] = r; }
GOLDEN_KERNEL(bfe_s64_small) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(A), "r"(B32 & 127), "r"(C32 & 127)); d[i] = r; }
// bfi.b64 f, a, b, pos, len: raw pos = low word of c, len = high word of c; and a small form.
GOLDEN_KERNEL(bfi_b64) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"(A), "l"(B), "r"(C32), "r"((u32)(C >> 32))); d[i] = r; }
GOLDEN_KERNEL(bfi_b64_small) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"(A), "l"(B), "r"(C32 & 127), "r"((C32 >> 8) & 127)); d[i] = r; }
// pos and len up to 0x1FF: the 64-bit forms use the whole 32-bit value (measured, ptx_semantics §7.1).
GOLDEN_KERNEL(bfi_b64_wide) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"(A), "l"(B), "r"(C32 & 0x1FF), "r"((C32 >> 9) & 0x1FF)); d[i] = r; }
GOLDEN_KERNEL(bfe_u64_wide) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(A), "r"(C32 & 0x1FF), "r"((C32 >> 9) & 0x1FF)); d[i] = r; }
GOLDEN_KERNEL(bfe_s64_wide) { unsigned i = GOLDEN_TID; u64 r;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(A), "r"(C32 & 0x1FF), "r"((C32 >> 9) & 0x1FF)); d[i] = r; }
// Shifts with small amounts (0..127) so the random region exercises in-range shifts too.
GOLDEN_KERNEL(shl_b64_small) { unsigned i = GOLDEN_TID; u64 r;
    asm("shl.b64 %0, %1, %2;" : "=l"(r) : "l"(A), "r"(B32 & 127)); d[i] = r; }
GOLDEN_KERNEL(shr_s64_small) { unsigned i = GOLDEN_TID; u64 r;
    asm("shr.s64 %0, %1, %2;" : "=l"(r) : "l"(A), "r"(B32 & 127)); d[i] = r; }
GOLDEN_KERNEL(shr_u64_small) { unsigned i = GOLDEN_TID; u64 r;
    asm("shr.u64 %0, %1, %2;" : "=l"(r) : "l"(A), "r"(B32 & 127)); d[i] = r; }

// Carry chains: a 64-bit result leaves no room for the carry, so each chain has two kernels:
// <name> writes the result, <name>_co the carry-out (addc 0,0) or borrow-out (subc 0,0).
// Carry in is c != 0 (add.cc c + -1), borrow in is c != 0 (sub.cc 0 - c).
#define CARRY_KERNEL(name, body, carry) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u64 r, co; \
    asm(body : "=l"(r), "=l"(co) : "l"(A), "l"(B), "l"(C)); d[i] = carry ? co : r; }
#define CARRY(name, body) CARRY_KERNEL(name, body, false) CARRY_KERNEL(name##_co, body, true)
#define CARRIES(X)                                                                       \
    X(add_cc_u64, "{ add.cc.u64 %0, %2, %3; addc.u64 %1, 0, 0; }")                       \
    X(addc_cc_u64, "{ .reg .u64 t; add.cc.u64 t, %4, -1; addc.cc.u64 %0, %2, %3; addc.u64 %1, 0, 0; }") \
    X(sub_cc_u64, "{ sub.cc.u64 %0, %2, %3; subc.u64 %1, 0, 0; }")                       \
    X(subc_cc_u64, "{ .reg .u64 t; sub.cc.u64 t, 0, %4; subc.cc.u64 %0, %2, %3; subc.u64 %1, 0, 0; }")
CARRIES(CARRY)
#define CARRY_CASES(name, body) {#name, 16, 128, ""}, {#name "_co", 16, 128, ""},

// CUDA intrinsics and C++ operators on 64-bit values.
#define INTR(name, expr) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; d[i] = (u64)(expr); }
#define INTRINSICS(X)                                                                    \
    X(cuda_ffsll, __ffsll((s64)A)) X(cuda_popcll, __popcll(A)) X(cuda_clzll, __clzll((s64)A)) \
    X(cuda_brevll, __brevll(A)) X(cuda_mul64hi, __mul64hi((s64)A, (s64)B))               \
    X(cuda_umul64hi, __umul64hi(A, B)) X(cuda_llabs, llabs((s64)A))                      \
    X(cuda_llmin, llmin((s64)A, (s64)B)) X(cuda_ullmax, ullmax(A, B))                    \
    X(cpp_div_u64, A / (B | 1)) X(cpp_div_s64, (s64)A / ((s64)B | 1)) X(cpp_rem_s64, (s64)A % ((s64)B | 1)) \
    X(cpp_shl_u64, A << (B & 63)) X(cpp_shr_s64, (s64)A >> (B & 63))                     \
    X(cpp_mul_wide, (u64)A32 * B32) X(cpp_mul_wide_s, (s64)(int)A32 * (int)B32)
INTRINSICS(INTR)

#define NAME(name, ...) {#name, 16, 128, ""},
GOLDEN_CASES {
    L_L(CASE) R_L(CASE) L_R(CASE) L_LL(CASE) L_LR(CASE) L_RR(CASE) L_LLL(CASE) L_LRR(CASE) P_LL(CASE)
    NAME(bfe_u64_small) NAME(bfe_s64_small) NAME(bfi_b64) NAME(bfi_b64_small) NAME(bfi_b64_wide)
    NAME(bfe_u64_wide) NAME(bfe_s64_wide) NAME(shl_b64_small) NAME(shr_s64_small) NAME(shr_u64_small)
    CARRIES(CARRY_CASES)
    INTRINSICS(NAME)
};
GOLDEN_MAIN
