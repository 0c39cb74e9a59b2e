// Golden family "bitfield": the bit-field instructions of sm_70 that CUB and Thrust emit, one
// kernel per variant (inline asm, so the exact instruction is in the PTX).
//   bmsk.{clamp,wrap}.b32          a mask of b bits from bit a
//   szext.{clamp,wrap}.{s32,u32}   the low b bits of a, sign- or zero-extended
// Inputs: a and b are small (0..39: positions and widths on both sides of 32), c is a random
// 32-bit value; the "_large" kernels take a position or width from c, so that values far past 32
// are covered too. Outputs: d[i] = the 32-bit result, zero-extended.
#include "golden.cuh"
GOLDEN_FAMILY("bitfield", kSmall, kSmall, kU32)

#define A ((u32)a[i])
#define B ((u32)b[i])
#define C ((u32)c[i])

#define K(name, ins, x, y) GOLDEN_KERNEL(name) { unsigned i = GOLDEN_TID; u32 r;         \
    asm(ins " %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); d[i] = r; }

K(bmsk_clamp, "bmsk.clamp.b32", A, B)
K(bmsk_wrap, "bmsk.wrap.b32", A, B)
K(bmsk_clamp_large_position, "bmsk.clamp.b32", C, B)
K(bmsk_wrap_large_position, "bmsk.wrap.b32", C, B)
K(bmsk_clamp_large_width, "bmsk.clamp.b32", A, C)
K(bmsk_wrap_large_width, "bmsk.wrap.b32", A, C)
K(szext_clamp_s32, "szext.clamp.s32", C, A)
K(szext_clamp_u32, "szext.clamp.u32", C, A)
K(szext_wrap_s32, "szext.wrap.s32", C, A)
K(szext_wrap_u32, "szext.wrap.u32", C, A)
K(szext_clamp_s32_large_width, "szext.clamp.s32", C, C)
K(szext_wrap_s32_large_width, "szext.wrap.s32", C, C)
K(szext_clamp_u32_large_width, "szext.clamp.u32", C, C)
K(szext_wrap_u32_large_width, "szext.wrap.u32", C, C)

// An immediate width, as CUB writes it for its radix digits.
GOLDEN_KERNEL(bmsk_clamp_immediate) { unsigned i = GOLDEN_TID; u32 r;
    asm("bmsk.clamp.b32 %0, %1, 4;" : "=r"(r) : "r"(A)); d[i] = r; }

GOLDEN_CASES {
    {"bmsk_clamp", 16, 128, ""},
    {"bmsk_wrap", 16, 128, ""},
    {"bmsk_clamp_large_position", 16, 128, ""},
    {"bmsk_wrap_large_position", 16, 128, ""},
    {"bmsk_clamp_large_width", 16, 128, ""},
    {"bmsk_wrap_large_width", 16, 128, ""},
    {"szext_clamp_s32", 16, 128, ""},
    {"szext_clamp_u32", 16, 128, ""},
    {"szext_wrap_s32", 16, 128, ""},
    {"szext_wrap_u32", 16, 128, ""},
    {"szext_clamp_s32_large_width", 16, 128, ""},
    {"szext_wrap_s32_large_width", 16, 128, ""},
    {"szext_clamp_u32_large_width", 16, 128, ""},
    {"szext_wrap_u32_large_width", 16, 128, ""},
    {"bmsk_clamp_immediate", 16, 128, ""},
};
GOLDEN_MAIN
