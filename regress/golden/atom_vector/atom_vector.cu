// Golden family "atom_vector": the vector forms of atom and red (sm_90): add on .v2/.v4 of f32
// (CUDA's atomicAdd on float2 and float4), add, min and max (.noftz) on .v2/.v4/.v8 of f16 and
// bf16 and on .v2/.v4 of f16x2 and bf16x2; global and generic addresses. Built for compute_90
// (the arch file). Thread t < 512 owns d[4t], d[4t+1] (16 bytes, the atomic's memory, set first
// from its inputs) and writes the old values the atom returned to d[4t+2], d[4t+3]: memory words
// {a[t], b[t], c[t], a[t+512]} and operand words {b[t+512], c[t+512], a[t+1024], b[t+1024]} (their
// low 32 bits; 16-bit elements are the words' halves, low first). Inputs are f32 bit patterns
// (edge values crossed, then random), so the halves hold zeros, subnormals, infinities and NaNs.
#include "golden.cuh"
GOLDEN_FAMILY("atom_vector", kF32, kF32, kF32)

#define SETUP                                                                                   \
    unsigned t = GOLDEN_TID;                                                                    \
    u32 m[4] = {(u32)a[t], (u32)b[t], (u32)c[t], (u32)a[t + 512]};                              \
    u32 v[4] = {(u32)b[t + 512], (u32)c[t + 512], (u32)a[t + 1024], (u32)b[t + 1024]};          \
    u32* mem = (u32*)&d[4 * t];                                                                 \
    for (int k = 0; k < 4; ++k) mem[k] = m[k];                                                  \
    u32 o[4] = {0, 0, 0, 0};                                                                    \
    (void)v; (void)o;
#define FINISH u32* out = (u32*)&d[4 * t + 2]; for (int k = 0; k < 4; ++k) out[k] = o[k];
#define P (const_cast<u32*>(mem))
#define H(x, k) ((unsigned short)((x)[(k) / 2] >> (16 * ((k) % 2))))
#define F(x, k) (__uint_as_float((x)[k]))

// f32 vectors: .v2 and .v4.
#define ATOM_V2F(name, ins) GOLDEN_KERNEL(name) { SETUP float r0, r1;                           \
    asm volatile(ins " {%0, %1}, [%2], {%3, %4};" : "=f"(r0), "=f"(r1) : "l"(P), "f"(F(v, 0)), "f"(F(v, 1)) : "memory"); \
    o[0] = __float_as_uint(r0); o[1] = __float_as_uint(r1); FINISH }
#define ATOM_V4F(name, ins) GOLDEN_KERNEL(name) { SETUP float r0, r1, r2, r3;                   \
    asm volatile(ins " {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"                                \
                 : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3) : "l"(P), "f"(F(v, 0)), "f"(F(v, 1)), "f"(F(v, 2)), "f"(F(v, 3)) : "memory"); \
    o[0] = __float_as_uint(r0); o[1] = __float_as_uint(r1); o[2] = __float_as_uint(r2); o[3] = __float_as_uint(r3); FINISH }
#define RED_V4F(name, ins) GOLDEN_KERNEL(name) { SETUP                                          \
    asm volatile(ins " [%0], {%1, %2, %3, %4};" : : "l"(P), "f"(F(v, 0)), "f"(F(v, 1)), "f"(F(v, 2)), "f"(F(v, 3)) : "memory"); FINISH }
// 16-bit elements: .v2, .v4, .v8 of f16 or bf16 (the first 2, 4 or 8 halves of the memory).
#define ATOM_V8H(name, ins) GOLDEN_KERNEL(name) { SETUP unsigned short r[8];                    \
    asm volatile(ins " {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], {%9, %10, %11, %12, %13, %14, %15, %16};" \
                 : "=h"(r[0]), "=h"(r[1]), "=h"(r[2]), "=h"(r[3]), "=h"(r[4]), "=h"(r[5]), "=h"(r[6]), "=h"(r[7]) \
                 : "l"(P), "h"(H(v, 0)), "h"(H(v, 1)), "h"(H(v, 2)), "h"(H(v, 3)), "h"(H(v, 4)), "h"(H(v, 5)),  \
                   "h"(H(v, 6)), "h"(H(v, 7)) : "memory");                                      \
    for (int k = 0; k < 4; ++k) o[k] = r[2 * k] | (u32)r[2 * k + 1] << 16; FINISH }
#define ATOM_V4H(name, ins) GOLDEN_KERNEL(name) { SETUP unsigned short r[4];                    \
    asm volatile(ins " {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"                                \
                 : "=h"(r[0]), "=h"(r[1]), "=h"(r[2]), "=h"(r[3]) : "l"(P), "h"(H(v, 0)), "h"(H(v, 1)), "h"(H(v, 2)), "h"(H(v, 3)) : "memory"); \
    o[0] = r[0] | (u32)r[1] << 16; o[1] = r[2] | (u32)r[3] << 16; FINISH }
#define ATOM_V2H(name, ins) GOLDEN_KERNEL(name) { SETUP unsigned short r[2];                    \
    asm volatile(ins " {%0, %1}, [%2], {%3, %4};" : "=h"(r[0]), "=h"(r[1]) : "l"(P), "h"(H(v, 0)), "h"(H(v, 1)) : "memory"); \
    o[0] = r[0] | (u32)r[1] << 16; FINISH }
#define RED_V8H(name, ins) GOLDEN_KERNEL(name) { SETUP                                          \
    asm volatile(ins " [%0], {%1, %2, %3, %4, %5, %6, %7, %8};" : : "l"(P), "h"(H(v, 0)), "h"(H(v, 1)), "h"(H(v, 2)), \
                 "h"(H(v, 3)), "h"(H(v, 4)), "h"(H(v, 5)), "h"(H(v, 6)), "h"(H(v, 7)) : "memory"); FINISH }
// Packed pairs: .v2 and .v4 of f16x2 or bf16x2.
#define ATOM_V4P(name, ins) GOLDEN_KERNEL(name) { SETUP                                         \
    asm volatile(ins " {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"                                \
                 : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3]) : "l"(P), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]) : "memory"); FINISH }
#define ATOM_V2P(name, ins) GOLDEN_KERNEL(name) { SETUP                                         \
    asm volatile(ins " {%0, %1}, [%2], {%3, %4};" : "=r"(o[0]), "=r"(o[1]) : "l"(P), "r"(v[0]), "r"(v[1]) : "memory"); FINISH }

ATOM_V2F(add_v2_f32, "atom.global.add.v2.f32")
ATOM_V4F(add_v4_f32, "atom.global.add.v4.f32")
ATOM_V4F(add_v4_f32_generic, "atom.add.v4.f32")
RED_V4F(red_add_v4_f32, "red.global.add.v4.f32")
ATOM_V2H(add_v2_f16, "atom.global.add.noftz.v2.f16")
ATOM_V8H(add_v8_f16, "atom.global.add.noftz.v8.f16")
ATOM_V4H(add_v4_bf16, "atom.global.add.noftz.v4.bf16")
ATOM_V8H(add_v8_bf16, "atom.global.add.noftz.v8.bf16")
ATOM_V2P(add_v2_f16x2, "atom.global.add.noftz.v2.f16x2")
ATOM_V4P(add_v4_bf16x2, "atom.global.add.noftz.v4.bf16x2")
ATOM_V8H(min_v8_f16, "atom.global.min.noftz.v8.f16")
ATOM_V8H(max_v8_f16, "atom.global.max.noftz.v8.f16")
ATOM_V8H(min_v8_bf16, "atom.global.min.noftz.v8.bf16")
ATOM_V8H(max_v8_bf16, "atom.global.max.noftz.v8.bf16")
ATOM_V4P(min_v4_f16x2, "atom.global.min.noftz.v4.f16x2")
ATOM_V4P(max_v4_bf16x2, "atom.global.max.noftz.v4.bf16x2")
RED_V8H(red_max_v8_f16, "red.global.max.noftz.v8.f16")

GOLDEN_CASES {
    {"add_v2_f32", 4, 128, ""}, {"add_v4_f32", 4, 128, ""}, {"add_v4_f32_generic", 4, 128, ""},
    {"red_add_v4_f32", 4, 128, ""}, {"add_v2_f16", 4, 128, ""}, {"add_v8_f16", 4, 128, ""},
    {"add_v4_bf16", 4, 128, ""}, {"add_v8_bf16", 4, 128, ""}, {"add_v2_f16x2", 4, 128, ""},
    {"add_v4_bf16x2", 4, 128, ""}, {"min_v8_f16", 4, 128, ""}, {"max_v8_f16", 4, 128, ""},
    {"min_v8_bf16", 4, 128, ""}, {"max_v8_bf16", 4, 128, ""}, {"min_v4_f16x2", 4, 128, ""},
    {"max_v4_bf16x2", 4, 128, ""}, {"red_max_v8_f16", 4, 128, ""},
};
GOLDEN_MAIN
