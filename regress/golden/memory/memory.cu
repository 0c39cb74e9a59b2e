// Golden tests: memory spaces, loads/stores of every width, atomics and fences.
//   atom.{global,shared}: add/min/max/and/or/xor/exch/cas/inc/dec on u32/s32, add/min/max/and/or/xor/
//     exch/cas on u64/s64, add/exch on f32, add on f64, cas on b16. Each thread owns its address:
//     d = new | old << 32 (32-bit) or d[i] = new, d[i + 1024] = old (64-bit). Blocks 0..7 of a
//     case use global memory, the other blocks shared memory (the inputs differ accordingly).
//   atom.add.f32 with subnormal operands: global flushes them, shared does not (§9.2); old values too.
//   red.{global,shared} (no return value) for the same ops, in inline asm because nvcc 13 emits atom.*
//     even when the result is unused; scoped atomics (.cta/.sys, red.relaxed/.release); generic-address
//     atomics and red.
//   Contention: all threads of a block on 8 shared or global words; only the final values are
//     written, for commutative integer ops, inc/dec with one common limit, float adds of small
//     integers (exact), and a CAS loop.
//   ld/st u8/s8/u16/s16/u32/u64/f32/f64 and .v2/.v4 forms in global, shared and local memory (asm where
//     nvcc would pick other forms, e.g. .f32 vectors become .u32 when the floats are only moved),
//     ld/st.volatile, ld.global.nc (__ldg), __constant__ tables with initializers read with
//     dynamic indices, module-scope __device__ variables with initializers (arrays, scalars, a struct,
//     a pointer initialised with the address of another variable), generic pointers that point to
//     shared/local/global memory chosen at run time (with isspacep and cvta), and fences
//     (__threadfence_block/__threadfence/__threadfence_system, fence.* in asm).
// Dropped: nothing rejected for compute_75. Atomics on local memory are undefined, so the generic
// atomics choose between shared and global only.
#include "golden.cuh"
#pragma nv_diag_suppress 177, 550

GOLDEN_FAMILY("memory", kU32, kU32, kSmall)

typedef unsigned char u8;
typedef unsigned short u16;

__device__ __forceinline__ u64 mix64(u64 h, u64 v) { return (h ^ v) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }
template <class T> __device__ __forceinline__ u32 b32(T v) { u32 r; memcpy(&r, &v, 4); return r; }
template <class T> __device__ __forceinline__ u64 b64(T v) { u64 r; memcpy(&r, &v, 8); return r; }
template <class T> __device__ __forceinline__ T from32(u32 v) { T r; memcpy(&r, &v, 4); return r; }
template <class T> __device__ __forceinline__ T from64(u64 v) { T r; memcpy(&r, &v, 8); return r; }

// Scratch global memory (module scope, no initializer).
__device__ __align__(16) u32 g_w32[2048];
__device__ __align__(16) u32 g_w32b[2048];
__device__ __align__(16) u64 g_w64[2048];
__device__ __align__(16) u64 g_w64b[2048];
__device__ __align__(16) u64 g_buf[2048];

// ---------------------------------------------------------------- atomics, one address per thread

// 32-bit: x = a, y = b (any 32 bits), z = c (0..39). INIT is the starting bits, EXPR the atomic on p.
#define ATOM32(name, T, INIT, EXPR)                                                      \
    GOLDEN_KERNEL(name) {                                                                \
        __shared__ u32 sh[128];                                                          \
        u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i]; \
        (void)z;                                                                         \
        if (blockIdx.x < 8) {                                                            \
            T* p = (T*)&g_w32[i];                                                        \
            g_w32[i] = (INIT);                                                           \
            T old = EXPR;                                                                \
            d[i] = g_w32[i] | (u64)b32(old) << 32;                                       \
        } else {                                                                         \
            T* p = (T*)&sh[t];                                                           \
            sh[t] = (INIT);                                                              \
            T old = EXPR;                                                                \
            d[i] = sh[t] | (u64)b32(old) << 32;                                          \
        }                                                                                \
    }

ATOM32(atom_add_u32, u32, x, atomicAdd(p, y))
ATOM32(atom_add_s32, int, x, atomicAdd(p, (int)y))
ATOM32(atom_min_u32, u32, x, atomicMin(p, y))
ATOM32(atom_max_u32, u32, x, atomicMax(p, y))
ATOM32(atom_min_s32, int, x, atomicMin(p, (int)y))
ATOM32(atom_max_s32, int, x, atomicMax(p, (int)y))
ATOM32(atom_and_b32, u32, x, atomicAnd(p, y))
ATOM32(atom_or_b32, u32, x, atomicOr(p, y))
ATOM32(atom_xor_b32, u32, x, atomicXor(p, y))
ATOM32(atom_exch_b32, u32, x, atomicExch(p, y))
ATOM32(atom_cas_b32, u32, x, atomicCAS(p, (z & 1) ? x : y, y ^ 0x5555AAAAu))
// inc/dec: start and limit are either raw or small, so wraps (r >= s, r == 0, r > s) all occur.
ATOM32(atom_inc_u32, u32, (z & 1) ? x % 48 : x, atomicInc(p, (z & 2) ? y % 40 : y))
ATOM32(atom_dec_u32, u32, (z & 1) ? x % 48 : x, atomicDec(p, (z & 2) ? y % 40 : y))
ATOM32(atom_add_f32, float, x, atomicAdd(p, from32<float>(y)))
ATOM32(atom_exch_f32, float, x, atomicExch(p, from32<float>(y)))
// Subnormal (or zero) start and operand; with z & 4 the operand may also be a small normal.
ATOM32(atom_add_f32_subnormal, float, x & 0x807FFFFFu,
       atomicAdd(p, from32<float>((z & 4) ? (y & 0x80FFFFFFu) : (y & 0x807FFFFFu))))

// 64-bit: d[i] = new, d[i + 1024] = old; 1024 threads, blocks 0..3 global, 4..7 shared.
#define ATOM64(name, T, EXPR)                                                            \
    GOLDEN_KERNEL(name) {                                                                \
        __shared__ u64 sh[128];                                                          \
        u32 i = GOLDEN_TID, t = threadIdx.x, z = (u32)c[i];                              \
        u64 x = (z & 1) ? a[i] : (a[i] << 32 | (u32)b[i ^ 1]);                           \
        u64 y = (z & 2) ? b[i] : ((u64)(u32)b[i] << 32 | (u32)a[i ^ 1]);                 \
        u64 nw;                                                                          \
        T old;                                                                           \
        if (blockIdx.x < 4) {                                                            \
            T* p = (T*)&g_w64[i];                                                        \
            g_w64[i] = x;                                                                \
            old = EXPR;                                                                  \
            nw = g_w64[i];                                                               \
        } else {                                                                         \
            T* p = (T*)&sh[t];                                                           \
            sh[t] = x;                                                                   \
            old = EXPR;                                                                  \
            nw = sh[t];                                                                  \
        }                                                                                \
        d[i] = nw;                                                                       \
        d[i + 1024] = b64(old);                                                          \
    }

ATOM64(atom_add_u64, u64, atomicAdd(p, y))
ATOM64(atom_min_u64, u64, atomicMin(p, y))
ATOM64(atom_max_u64, u64, atomicMax(p, y))
ATOM64(atom_min_s64, long long, atomicMin(p, (long long)y))
ATOM64(atom_max_s64, long long, atomicMax(p, (long long)y))
ATOM64(atom_and_b64, u64, atomicAnd(p, y))
ATOM64(atom_or_b64, u64, atomicOr(p, y))
ATOM64(atom_xor_b64, u64, atomicXor(p, y))
ATOM64(atom_exch_b64, u64, atomicExch(p, y))
ATOM64(atom_cas_b64, u64, atomicCAS(p, (z & 4) ? x : y, ~y))
ATOM64(atom_add_f64, double, atomicAdd(p, from64<double>(y)))

// 16-bit CAS on the low half of a word; the high half must survive.
GOLDEN_KERNEL(atom_cas_b16) {
    __shared__ u32 sh[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u32* w = blockIdx.x < 8 ? &g_w32[i] : &sh[t];
    u16 cmp = (z & 1) ? (u16)x : (u16)y, nv = (u16)(y >> 16);
    u16 old;
    if (blockIdx.x < 8) {
        g_w32[i] = x;
        old = atomicCAS((u16*)&g_w32[i] + (z & 2 ? 1 : 0), cmp, nv);
    } else {
        sh[t] = x;
        old = atomicCAS((u16*)&sh[t] + (z & 2 ? 1 : 0), cmp, nv);
    }
    d[i] = *w | (u64)old << 32;
}

// Old values of atom.add.f32 with subnormals: global vs shared.
GOLDEN_KERNEL(atom_add_f32_subnormal_old) {
    __shared__ float sh[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i] & 0x807FFFFFu, y = (u32)b[i] & 0x807FFFFFu;
    g_w32[i] = x;
    sh[t] = from32<float>(x);
    float og = atomicAdd((float*)&g_w32[i], from32<float>(y));
    float os = atomicAdd(&sh[t], from32<float>(y));
    d[i] = b32(og) | (u64)b32(os) << 32;
}

// ---------------------------------------------------------------- red (result unused)

// nvcc emits atom.* even when the result is unused, so red.* is written in inline asm.
#define REDG(opty, cons, p, v)                                                           \
    asm volatile("red.global." opty " [%0], %1;" :: "l"((u64)__cvta_generic_to_global(p)), cons(v) : "memory")
#define REDS(opty, cons, p, v)                                                           \
    asm volatile("red.shared." opty " [%0], %1;" :: "l"((u64)__cvta_generic_to_shared(p)), cons(v) : "memory")

#define RED32(name, INIT1, OPTY1, V1, INIT2, OPTY2, V2)                                  \
    GOLDEN_KERNEL(name) {                                                                \
        __shared__ u32 s1[128], s2[128];                                                 \
        u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i]; \
        (void)z;                                                                         \
        if (blockIdx.x < 8) {                                                            \
            g_w32[i] = (INIT1); g_w32b[i] = (INIT2);                                     \
            REDG(OPTY1, "r", &g_w32[i], V1); REDG(OPTY2, "r", &g_w32b[i], V2);           \
            d[i] = g_w32[i] | (u64)g_w32b[i] << 32;                                      \
        } else {                                                                         \
            s1[t] = (INIT1); s2[t] = (INIT2);                                            \
            REDS(OPTY1, "r", &s1[t], V1); REDS(OPTY2, "r", &s2[t], V2);                  \
            d[i] = s1[t] | (u64)s2[t] << 32;                                             \
        }                                                                                \
    }
RED32(red_add_u32_min_s32, x, "add.u32", y, x, "min.s32", y)
RED32(red_max_u32_and_b32, x, "max.u32", y, x, "and.b32", y)
RED32(red_or_xor_b32, x, "or.b32", y, x, "xor.b32", y)
RED32(red_max_s32_min_u32, x, "max.s32", y, x, "min.u32", y)
RED32(red_inc_dec_u32, x % 48, "inc.u32", (z & 2) ? y % 40 : y, x % 48, "dec.u32", (z & 2) ? y % 40 : y)
RED32(red_add_f32_add_s32, x, "add.f32", y, x, "add.s32", y)
RED32(red_add_f32_subnormal, x & 0x807FFFFFu, "add.f32", y & 0x807FFFFFu, x & 0x80FFFFFFu, "add.f32", y & 0x807FFFFFu)

#define RED64(name, OPTY1, V1, OPTY2, V2)                                                \
    GOLDEN_KERNEL(name) {                                                                \
        __shared__ u64 s1[128], s2[128];                                                 \
        u32 i = GOLDEN_TID, t = threadIdx.x;                                             \
        u64 x = a[i] << 32 | (u32)b[i ^ 1], y = (c[i] & 1) ? b[i] : ((u64)(u32)b[i] << 32 | (u32)a[i ^ 1]); \
        if (blockIdx.x < 4) {                                                            \
            g_w64[i] = x; g_w64b[i] = x;                                                 \
            REDG(OPTY1, "l", &g_w64[i], V1); REDG(OPTY2, "l", &g_w64b[i], V2);           \
            d[i] = g_w64[i]; d[i + 1024] = g_w64b[i];                                    \
        } else {                                                                         \
            s1[t] = x; s2[t] = x;                                                        \
            REDS(OPTY1, "l", &s1[t], V1); REDS(OPTY2, "l", &s2[t], V2);                  \
            d[i] = s1[t]; d[i + 1024] = s2[t];                                           \
        }                                                                                \
    }
RED64(red_add_u64_f64, "add.u64", y, "add.f64", y)
RED64(red_min_max_s64, "min.s64", y, "max.s64", y)
RED64(red_min_max_u64, "min.u64", y, "max.u64", y)
RED64(red_and_or_b64, "and.b64", y, "or.b64", y)
RED64(red_xor_b64_add_s64, "xor.b64", y, "add.u64", ~y)

// ---------------------------------------------------------------- scopes and generic addresses

GOLDEN_KERNEL(atom_scopes) {
    __shared__ u32 sh[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    g_w32[i] = x;
    g_w32b[i] = ~y;
    sh[t] = y;
    u32 o1 = atomicAdd_block(&g_w32[i], y);
    u32 o2 = atomicOr_system(&g_w32[i], z << 20);
    u32 o3 = atomicCAS_block(&sh[t], (z & 1) ? y : x, x);
    u32 o4 = atomicExch_system(&g_w32b[i], o1 ^ o3);
    float o5 = atomicAdd_block((float*)&sh[t], 1.5f);
    atomicMax_system(&g_w32[i], 0x40000000u);
    asm volatile("red.relaxed.cta.shared.add.u32 [%0], %1;" :: "l"((u64)__cvta_generic_to_shared(&sh[t])), "r"(z) : "memory");
    asm volatile("red.release.gpu.global.xor.b32 [%0], %1;" :: "l"((u64)__cvta_generic_to_global(&g_w32[i])), "r"(y) : "memory");
    d[i] = (g_w32[i] ^ o2) | (u64)(sh[t] ^ o3 ^ o4 ^ b32(o5)) << 32;
}

// Generic pointer that points to shared or global memory, chosen per thread.
GOLDEN_KERNEL(atom_generic) {
    __shared__ u32 sh[128];
    __shared__ u64 sh64[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    g_w32[i] = x; sh[t] = x;
    g_w64[i] = (u64)y << 32 | x; sh64[t] = (u64)y << 32 | x;
    u32* p = (z & 1) ? &sh[t] : &g_w32[i];
    u64* q = (z & 2) ? &sh64[t] : &g_w64[i];
    u32 o1 = atomicAdd(p, y);
    u32 o2 = atomicInc(p, 0x1000);
    u32 o3 = atomicCAS(p, o2 + 1, y ^ x);
    u64 o4 = atomicMax(q, (u64)x << 16);
    float o5 = atomicAdd((float*)p, from32<float>(y & 0x807FFFFFu));
    asm volatile("red.add.u32 [%0], %1;" :: "l"(p), "r"(z * 3) : "memory");   // generic red
    u32 sp = __isShared(p) | __isGlobal(p) << 1 | __isShared(q) << 2 | __isGlobal(q) << 3;
    d[i] = (*p ^ o1 ^ (o2 << 1) ^ (o3 << 2) ^ b32(o5)) | (u64)((u32)(*q >> 7) ^ (u32)o4 ^ sp << 28) << 32;
}

// ---------------------------------------------------------------- contention

// All threads of a block update 8 shared words per op; d shows the final words.
GOLDEN_KERNEL(contend_shared_u32) {
    __shared__ u32 acc[9][8];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], z = (u32)c[i], k = z & 7;
    if (t < 8) {
        acc[0][t] = 0; acc[1][t] = 0xFFFFFFFF; acc[2][t] = 0; acc[3][t] = 0xFFFFFFFF; acc[4][t] = 0;
        acc[5][t] = 0x5A5A5A5A; acc[6][t] = 0; acc[7][t] = 0; acc[8][t] = 0x7FFFFFFF;
    }
    __syncthreads();
    atomicAdd(&acc[0][k], x);
    atomicMin(&acc[1][k], x);
    atomicMax(&acc[2][k], x);
    atomicAnd(&acc[3][k], x | (1u << (t & 31)));
    atomicOr(&acc[4][k], x & (0x10001u << (t & 15)));
    atomicXor(&acc[5][k], x);
    atomicInc(&acc[6][k], 13u);
    atomicDec(&acc[7][k], 9u);
    atomicMin((int*)&acc[8][k], (int)x);
    __syncthreads();
    u32 j = t & 7, sel = (t >> 3) % 5;
    u64 r = sel == 0 ? acc[0][j] | (u64)acc[1][j] << 32
          : sel == 1 ? acc[2][j] | (u64)acc[3][j] << 32
          : sel == 2 ? acc[4][j] | (u64)acc[5][j] << 32
          : sel == 3 ? acc[6][j] | (u64)acc[7][j] << 32 : acc[8][j] | (u64)j << 32;
    d[i] = r;
}

GOLDEN_KERNEL(contend_shared_64) {
    __shared__ u64 acc[6][8];
    u32 i = GOLDEN_TID, t = threadIdx.x, k = (u32)c[i] & 7;
    u64 x = a[i] << 20 ^ b[i];
    if (t < 8) { acc[0][t] = 0; acc[1][t] = ~0ull; acc[2][t] = 0; acc[3][t] = 0; acc[4][t] = 0; acc[5][t] = 0; }
    __syncthreads();
    atomicAdd(&acc[0][k], x);
    atomicMin(&acc[1][k], x);
    atomicMax(&acc[2][k], x);
    atomicMin((long long*)&acc[3][k], (long long)x);
    atomicMax((long long*)&acc[4][k], (long long)x);
    atomicXor(&acc[5][k], x);
    __syncthreads();
    d[i] = acc[(t >> 3) % 6][t & 7];
}

// Float adds of small integers: every order gives the same exact sum.
GOLDEN_KERNEL(contend_shared_float) {
    __shared__ float fs[8];
    __shared__ double ds[8];
    __shared__ float cs[8];
    u32 i = GOLDEN_TID, t = threadIdx.x, k = (u32)c[i] & 7;
    float v = (float)((int)((u32)a[i] & 255) - 128);
    if (t < 8) { fs[t] = 0.5f; ds[t] = -0.25; cs[t] = 0.0f; }
    __syncthreads();
    atomicAdd(&fs[k], v);
    atomicAdd(&ds[k], (double)(int)(u32)b[i]);
    // CAS loop (the pre-sm_20 way of adding floats)
    u32* cp = (u32*)&cs[k];
    u32 old = *cp, assumed;
    do {
        assumed = old;
        old = atomicCAS(cp, assumed, b32(from32<float>(assumed) + v * 2.0f));
    } while (old != assumed);
    __syncthreads();
    u32 j = t & 7;
    d[i] = (t & 8) ? b64(ds[j]) : (b32(fs[j]) | (u64)b32(cs[j]) << 32);
}

// Global words private to each block (so a barrier orders them), same ops as in shared memory.
GOLDEN_KERNEL(contend_global) {
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], k = (u32)c[i] & 7;
    u32* acc = &g_w32b[blockIdx.x * 64];
    u64* acc64 = &g_w64b[blockIdx.x * 16];
    float* accf = (float*)&g_w32b[blockIdx.x * 64 + 48];
    if (t < 8) {
        acc[t] = 0; acc[8 + t] = 0xFFFFFFFF; acc[16 + t] = 0; acc[24 + t] = 0; acc[32 + t] = 0;
        acc[40 + t] = 0; acc64[t] = 0; acc64[8 + t] = 0; accf[t] = 0.0f;
    }
    __syncthreads();
    atomicAdd(&acc[k], x);
    atomicMin(&acc[8 + k], x);
    atomicMax((int*)&acc[16 + k], (int)x);
    atomicXor(&acc[24 + k], x);
    atomicInc(&acc[32 + k], 21u);
    atomicDec(&acc[40 + k], 5u);
    atomicAdd(&acc64[k], a[i] * 0x10001ull);
    atomicMax((long long*)&acc64[8 + k], (long long)(a[i] ^ (b[i] << 33)));
    atomicAdd(&accf[k], (float)((int)((u32)b[i] & 1023) - 512));
    __syncthreads();
    u32 j = t & 7, sel = (t >> 3) % 6;
    d[i] = sel < 3 ? (acc[16 * sel + j] | (u64)acc[16 * sel + 8 + j] << 32)
         : sel == 3 ? acc64[j] : sel == 4 ? acc64[8 + j] : b32(accf[j]);
}

// ---------------------------------------------------------------- loads and stores of every width

#define LDX(space, type, cons, T, addr) ({ T _v; asm volatile("ld." space "." type " %0, [%1];" : "=" cons(_v) : "l"(addr) : "memory"); _v; })
#define STX(space, type, cons, addr, v) asm volatile("st." space "." type " [%0], %1;" :: "l"(addr), cons(v) : "memory")

// Each thread stores its 8 bytes of g_buf with stores of several widths, then (after a barrier)
// reads a neighbour's bytes with loads of every width.
GOLDEN_KERNEL(ldst_global_widths) {
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u8* pb = (u8*)&g_buf[i];
    STX("global", "u8", "r", pb, x);
    STX("global", "s8", "r", pb + 1, y);
    STX("global", "u16", "h", pb + 2, (u16)(x >> 8));
    STX("global", "u32", "r", pb + 4, x ^ y);
    if (z & 1) STX("global", "s16", "h", pb + 6, (u16)z);
    if (z & 2) STX("global", "f32", "f", pb, from32<float>(y));
    if (z & 4) STX("global", "u64", "l", pb, (u64)x << 32 | y);
    if (z & 8) STX("global", "f64", "d", pb, from64<double>(a[i] ^ (u64)y << 32));
    __syncthreads();
    const u8* q = (const u8*)&g_buf[blockIdx.x * blockDim.x + (t + z) % blockDim.x];
    u32 k = z & 7;
    u32 v_u8 = LDX("global", "u8", "r", u32, q + k);
    int v_s8 = LDX("global", "s8", "r", int, q + (7 - k));
    u16 v_u16 = LDX("global", "u16", "h", u16, q + 2 * (k & 3));
    u32 v_s16 = LDX("global", "s16", "r", u32, q + 2 * ((k + 1) & 3));  // sign-extended into 32 bits
    u32 v_u32 = LDX("global", "u32", "r", u32, q + 4 * (k & 1));
    float v_f32 = LDX("global", "f32", "f", float, q + 4 * ((k >> 1) & 1));
    u64 v_u64 = LDX("global", "u64", "l", u64, q);
    double v_f64 = LDX("global", "f64", "d", double, q);
    u64 h = mix64(v_u8, (u32)v_s8);
    h = mix64(h, v_u16); h = mix64(h, v_s16); h = mix64(h, v_u32); h = mix64(h, b32(v_f32));
    d[i] = (z & 16) ? h : (z & 32) ? b64(v_f64) : v_u64 ^ ((u64)v_s8 << 8);
}

// The same through ordinary C++ (nvcc picks the forms), read back from the C++ types.
GOLDEN_KERNEL(ldst_global_cpp) {
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u8* pb = (u8*)&g_buf[i];
    pb[0] = (u8)x;
    ((signed char*)pb)[1] = (signed char)y;
    ((u16*)pb)[1] = (u16)(x >> 8);
    ((short*)pb)[2] = (short)(y >> 3);
    ((u16*)pb)[3] = (u16)z;
    __syncthreads();
    const u8* q = (const u8*)&g_buf[blockIdx.x * blockDim.x + (t + 3 * z) % blockDim.x];
    u32 k = z & 7;
    int s8 = ((const signed char*)q)[k];
    int s16 = ((const short*)q)[k & 3];
    u32 u16v = ((const u16*)q)[(k + 1) & 3];
    u32 u32v = ((const u32*)q)[k & 1];
    float f = ((const float*)q)[(k >> 1) & 1];
    double df = *(const double*)q;
    d[i] = (u64)(s64)(s8 * 0x10000 + s16) ^ ((u64)u16v << 40) ^ ((u64)u32v << 13) ^
           (u64)(s64)(int)(f > 0.0f ? 1 : f < 0.0f ? -1 : 0) ^ ((u64)(df == df) << 63);
}

GOLDEN_KERNEL(ldst_shared_widths) {
    __shared__ __align__(16) u64 sh[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u8* pb = (u8*)&sh[t];
    pb[0] = (u8)x;
    ((signed char*)pb)[1] = (signed char)y;
    ((u16*)pb)[1] = (u16)(x >> 8);
    ((u32*)pb)[1] = x ^ y;
    if (z & 2) *(float*)pb = (float)(int)y;
    if (z & 4) sh[t] = (u64)x << 32 | y;
    if (z & 8) *(double*)pb = (double)(int)x * 0.5;
    __syncthreads();
    const u8* q = (const u8*)&sh[(t + z) & 127];
    u32 k = z & 7;
    int s8 = ((const signed char*)q)[7 - k];
    u32 u8v = q[k];
    int s16 = ((const short*)q)[k & 3];
    u32 u16v = ((const u16*)q)[(k + 1) & 3];
    u32 u32v = ((const u32*)q)[k & 1];
    float f = ((const float*)q)[(k >> 1) & 1];
    u64 u64v = *(const u64*)q;
    double df = *(const double*)q;
    u64 h = mix64((u64)(s64)s8, u8v);
    h = mix64(h, (u64)(s64)s16); h = mix64(h, u16v); h = mix64(h, u32v);
    h = mix64(h, f == f ? b32(f) : 0x7FC00000u);  // NaNs canonical
    d[i] = (z & 16) ? h : (z & 32) ? b64(df + 1.0) : u64v;
}

// Local arrays indexed with run-time values, every width.
GOLDEN_KERNEL(ldst_local_widths) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u8 l8[24];
    signed char ls8[8];
    u16 l16[12];
    short ls16[8];
    u32 l32[12];
    u64 l64[8];
    float lf[8];
    double ldb[8];
    for (u32 k = 0; k < 24; ++k) l8[(k * 7 + z) % 24] = (u8)(x >> (k & 31)) + (u8)k;
    for (u32 k = 0; k < 8; ++k) {
        ls8[(k + z) & 7] = (signed char)(y >> (3 * k));
        ls16[(k * 3 + z) & 7] = (short)(x * (k + 1));
        l64[(k + y) & 7] = ((u64)x << k) ^ ((u64)y << (32 - k));
        lf[(k + z) & 7] = (float)(int)(x >> k) * 0.125f;
        ldb[(k * 5 + z) & 7] = (double)(int)(y ^ k) * 0.25;
    }
    for (u32 k = 0; k < 12; ++k) {
        l16[(k * 5 + z) % 12] = (u16)(y * k + x);
        l32[(k + x) % 12] = x * 0x01000193u ^ (y + k);
    }
    u32 j = (z * 13) ^ y;
    u64 h = mix64(l8[j % 24], (u64)(s64)ls8[j & 7]);
    h = mix64(h, l16[(j >> 3) % 12]);
    h = mix64(h, (u64)(s64)ls16[(j >> 1) & 7]);
    h = mix64(h, l32[(j >> 2) % 12]);
    h = mix64(h, l64[(j >> 4) & 7]);
    h = mix64(h, (u64)(s64)(lf[(j >> 5) & 7] * 8.0f));   // integers, exact
    h = mix64(h, (u64)(s64)(ldb[(j >> 6) & 7] * 4.0));
    d[i] = h;
}

// .v2/.v4 vector loads and stores in global, shared and local memory. 1024 threads; block b
// writes and reads only g_buf[256 b .. 256 b + 255] (128 uint4), so a barrier orders it.
GOLDEN_KERNEL(ldst_vectors) {
    __shared__ uint4 sv[128];
    __shared__ double2 sd[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u32 base = blockIdx.x * 128;                                    // in uint4 units
    uint4* gv = (uint4*)g_buf;
    uint4 v = make_uint4(x, y, x ^ y, z);
    gv[i] = v;                                                      // st.global.v4.u32
    sv[t] = v;                                                      // st.shared.v4.u32
    sd[t] = make_double2((double)(int)x, (double)y * 0.5);          // st.shared.v2.f64
    uint4 lv[4];
    float2 lf[4];
    for (u32 k = 0; k < 4; ++k) {
        lv[(k + z) & 3] = make_uint4(x + k, y - k, x * k, y * k);   // local vectors
        lf[(k + y) & 3] = make_float2((float)k, (float)(int)(x >> k));
    }
    __syncthreads();
    u32 n = (t + z) & 127;
    uint4 g = gv[base + n];                                         // ld.global.v4.u32
    uint4 s = sv[n];                                                // ld.shared.v4.u32
    double2 dd = sd[(t + 1) & 127];                                 // ld.shared.v2.f64
    float4 gf = ((const float4*)g_buf)[base + ((t + 7) & 127)];     // ld.global.v4.f32
    ulonglong2 gq = ((const ulonglong2*)g_buf)[base + ((t * 3) & 127)];  // ld.global.v2.u64
    uint2 g2 = ((const uint2*)g_buf)[2 * base + ((t * 5) & 255)];   // ld.global.v2.u32
    double2 gd = ((const double2*)g_buf)[base + ((t + 64) & 127)];  // ld.global.v2.f64
    uint4 l = lv[(x ^ z) & 3];                                      // ld.local.v4
    float2 lf2 = lf[(y ^ z) & 3];
    u64 h = mix64(g.x ^ g.y, g.z ^ g.w);
    h = mix64(h, (u64)s.x << 32 | s.w);
    h = mix64(h, b64(dd.x + dd.y));
    u64 h2 = mix64((gf.x == gf.x ? b32(gf.x) : 1u) ^ (gf.y == gf.y ? b32(gf.y) : 2u),
                   (gf.z == gf.z ? b32(gf.z) : 3u) ^ (gf.w == gf.w ? b32(gf.w) : 4u));
    h2 = mix64(h2, gq.x ^ gq.y);
    h2 = mix64(h2, (u64)g2.x << 32 | g2.y);
    h2 = mix64(h2, (gd.x == gd.x ? b64(gd.x) : 1) ^ (gd.y == gd.y ? b64(gd.y) : 2));
    h = mix64(h, (u64)l.x << 32 | (l.y ^ l.z ^ l.w));
    h = mix64(h, (u64)(s64)(lf2.x * 2.0f) << 32 ^ (u64)(s64)lf2.y);
    d[i] = h;
    d[i + 1024] = h2;
}

// Vector stores straight into d: each of 512 threads writes 32 bytes (d[4i..4i+3]).
GOLDEN_KERNEL(ldst_vector_stores) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    uint4* p = (uint4*)&d[4 * i];
    p[0] = make_uint4(x, y, ~x, ~y);                                                  // st.global.v4.u32
    ((uint2*)&d[4 * i + 3])[0] = make_uint2(x * 3, y * 5);                              // st.global.v2.u32
    if (x & 1) ((float2*)&d[4 * i + 2])[0] = make_float2((float)(int)x, (float)y);      // st.global.v2.f32
    else d[4 * i + 2] = (u64)y << 32 | (x >> 1);
}

// st.global.v2.f64 (even threads) and st.global.v2.u64 (odd threads), 16 bytes each, 1024 threads.
GOLDEN_KERNEL(ldst_vector_f64_u64) {
    u32 i = GOLDEN_TID;
    if (i & 1) ((ulonglong2*)d)[i] = make_ulonglong2(a[i] * 3, b[i] ^ c[i]);
    else ((double2*)d)[i] = make_double2((double)(int)(u32)a[i] * 0.25, (double)(u32)b[i]);
}

// .f32 vector forms (nvcc turns moved floats into .u32 forms), written in asm; the local array is
// addressed through cvta.to.local. Block b owns g_buf[256 b ..], 1024 threads.
GOLDEN_KERNEL(ldst_vector_f32_asm) {
    __shared__ __align__(16) float sf[128 * 4];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    float fx = (float)(int)x, fy = (float)y * 0.5f, fz = (float)z;
    float* gp = (float*)&g_buf[2 * i];                       // 16 bytes per thread
    u64 gs = (u64)__cvta_generic_to_shared(&sf[4 * t]);
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" :: "l"((u64)__cvta_generic_to_global(gp)), "f"(fx), "f"(fy), "f"(fz), "f"(-fx) : "memory");
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" :: "l"(gs), "f"(fy), "f"(fx) : "memory");
    asm volatile("st.shared.v2.f32 [%0+8], {%1, %2};" :: "l"(gs), "f"(fz), "f"(fx + fz) : "memory");
    __align__(16) float loc[8];
    for (u32 k = 0; k < 8; ++k) loc[k] = (float)(k * z) - fy;
    u64 lp = (u64)__cvta_generic_to_local(&loc[(z & 1) * 4]);
    __syncthreads();
    u32 n = blockIdx.x * 128 + ((t + z) & 127);
    float g0, g1, g2, g3, h0, h1, s0, s1, s2, s3, l0, l1, l2, l3;
    asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(g0), "=f"(g1), "=f"(g2), "=f"(g3)
                 : "l"((u64)__cvta_generic_to_global(&g_buf[2 * n])) : "memory");
    asm volatile("ld.global.v2.f32 {%0, %1}, [%2+8];" : "=f"(h0), "=f"(h1) : "l"((u64)__cvta_generic_to_global(&g_buf[2 * n])) : "memory");
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(s0), "=f"(s1), "=f"(s2), "=f"(s3)
                 : "l"((u64)__cvta_generic_to_shared(&sf[4 * ((t + 1) & 127)])) : "memory");
    asm volatile("ld.local.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(l0), "=f"(l1), "=f"(l2), "=f"(l3) : "l"(lp) : "memory");
    asm volatile("st.local.v2.f32 [%0], {%1, %2};" :: "l"(lp), "f"(g0), "f"(s0) : "memory");
    float m0, m1;
    asm volatile("ld.local.v2.f32 {%0, %1}, [%2];" : "=f"(m0), "=f"(m1) : "l"(lp) : "memory");
    d[i] = (u64)b32(g0 + g1 + h0) << 32 | b32(g2 - g3 + h1);
    d[i + 1024] = mix64(mix64((u64)b32(s0 + s1) << 32 | b32(s2 * s3), (u64)b32(l0 + l1) << 32 | b32(l2 - l3)),
                        (u64)b32(m0) << 32 | b32(m1));
}

// ld.volatile / st.volatile in global and shared memory.
GOLDEN_KERNEL(ldst_volatile) {
    __shared__ u32 sh[128];
    __shared__ u8 sb[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i];
    volatile u32* gp = &g_w32[i];
    volatile u32* sp = &sh[t];
    volatile u64* gq = &g_w64[i];
    volatile u8* sbp = &sb[t];
    *gp = x; *gp = *gp + y;
    *sp = y; *sp = *sp ^ x;
    *gq = (u64)x << 32 | y;
    *sbp = (u8)x;
    __syncthreads();
    u32 r1 = ((volatile u32*)sh)[(t + 1) & 127];
    u32 r2 = *gp;
    u64 r3 = *gq;
    u32 r4 = ((volatile u8*)sb)[(t + 5) & 127];
    d[i] = (r1 ^ r2 ^ (r4 << 24)) | (r3 & 0xFFFFFFFF00000000ull);
}

// ld.global.nc of several widths and vectors through __ldg.
GOLDEN_KERNEL(ldg_widths) {
    u32 i = GOLDEN_TID, z = (u32)c[i];
    u32 j = (i * 7 + z) & 2047;
    u32 v8 = __ldg((const u8*)b + 8 * j + (z & 7));
    int s8 = __ldg((const signed char*)a + 8 * j + 1);
    int s16 = __ldg((const short*)a + 4 * j + (z & 3));
    float f = __ldg((const float*)b + 2 * j);
    double df = __ldg((const double*)a + j);
    uint4 v4 = __ldg((const uint4*)a + (j >> 1));
    float2 f2 = __ldg((const float2*)b + j);
    ulonglong2 q2 = __ldg((const ulonglong2*)c + (j >> 1));
    u64 h = mix64(v8, (u64)(s64)s8);
    h = mix64(h, (u64)(s64)s16);
    h = mix64(h, b32(f) ^ b32(f2.x) ^ b32(f2.y));
    h = mix64(h, b64(df));
    h = mix64(h, v4.x ^ v4.y ^ v4.z ^ v4.w);
    h = mix64(h, q2.x + q2.y);
    d[i] = h;
}

// ---------------------------------------------------------------- constant and module-scope data

__constant__ u32 c_u32[64] = {
    0x52E6B438, 0xF2A74DE4, 0x269E0D37, 0x6513270E, 0xA6A3A450, 0x0C5C7FD0, 0x128B2F33, 0xD23F0824,
    0x892F902B, 0x1818E811, 0x5D9DC9F8, 0x9531985D, 0x0ED90475, 0xE8E25D94, 0x81E74EF5, 0x36F675CC,
    0x099950D8, 0x1600A35A, 0x6F03675A, 0x6B0D549B, 0x11E20B8F, 0x3D9C1724, 0x1738F7D9, 0x8D116ECE,
    0x6CAD4A26, 0x0F21DDB6, 0xD3AC94AF, 0x90C192CF, 0x1FB17C23, 0xF28C105D, 0x39263059, 0xA170B338,
    0xA09F76B5, 0x953F48F1, 0xF29D0DA9, 0x0FD630F1, 0x93BD04CF, 0x95E60AF5, 0x658CDA14, 0x0CB1E29C,
    0xF9EBDACC, 0x3898D190, 0x0BECD7B0, 0x8E81973E, 0xDBC496CB, 0x2217BEAD, 0x4A23D596, 0x6B4CB242,
    0x24EDE6A4, 0x8A6A63EC, 0x1E27A1C0, 0x92276658, 0x4EF8AA38, 0x8F6D0558, 0xD0EDA82F, 0xAE97BA94,
    0x2E44158B, 0x1A61DBE2, 0x94E3BF91, 0x923A7369, 0xA38FD547, 0x301850C5, 0x5F557203, 0x18F135D2};
__constant__ u64 c_u64[16] = {
    0xB64CE4228C38FB29ULL, 0x907A70C31012F037ULL, 0x9E7769B10F4205B4ULL, 0x7F15052434B9B5DFULL,
    0x881ED162AE2EB154ULL, 0xC6F877186D76B07EULL, 0x7731AF10506BF2EFULL, 0xEC66A78795E761D1ULL,
    0x5C90A9587403E430ULL, 0x3F98E2774CBD87ADULL, 0x2E05319ACB5C7427ULL, 0xC7A2EA20B2F14C94ULL,
    0x14F4733F3E7D1BFBULL, 0x4CDD2055930D6EAFULL, 0x7EBFF20686734721ULL, 0x57EE05CDE00902C7ULL};
__constant__ signed char c_s8[16] = {0, 1, -1, 127, -128, 55, -56, 3, -3, 100, -100, 7, 8, -9, 10, -11};
__constant__ short c_s16[8] = {0, -1, 32767, -32768, 1234, -4321, 255, -256};
__constant__ float c_f32[8] = {1.0f, -2.5f, 3.14159265f, 1e-30f, -1e30f, 0.0f, -0.0f, 65504.0f};
__constant__ double c_f64[4] = {1.0 / 3.0, -2.0e300, 4.9e-324, 2.718281828459045};
__constant__ uint4 c_v4[4] = {{1, 2, 3, 4}, {0xFFFFFFFF, 0, 0x80000000, 7}, {9, 8, 7, 6}, {0xDEAD, 0xBEEF, 0xCAFE, 0xF00D}};

GOLDEN_KERNEL(const_tables) {
    u32 i = GOLDEN_TID, x = (u32)a[i], z = (u32)c[i];
    u32 r1 = c_u32[(x + z) & 63];
    u32 r2 = c_u32[z];  // z < 40
    u64 r3 = c_u64[(x >> 4) & 15];
    int r4 = c_s8[(x ^ z) & 15] * 1000 + c_s16[(x >> 8) & 7];
    float r5 = c_f32[(x >> 12) & 7] * 2.0f;
    double r6 = c_f64[(x >> 16) & 3] + 1.0;
    uint4 r7 = c_v4[(x >> 20) & 3];
    u64 h = mix64(r1, r2);
    h = mix64(h, r3);
    h = mix64(h, (u64)(s64)r4);
    h = mix64(h, b32(r5));
    h = mix64(h, b64(r6));
    h = mix64(h, (u64)(r7.x ^ r7.z) << 32 | (r7.y ^ r7.w));
    d[i] = (z & 1) ? h : (r1 | (u64)r2 << 32);
}

struct Rec {
    u32 w;
    u16 h;
    u8 b;
    signed char sb;
    u64 q;
    float f;
    double g;
};
__device__ u32 g_lut[32] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5};
__device__ u64 g_scalar = 0x0123456789ABCDEFull;
__device__ int g_neg = -123456789;
__device__ float g_ftab[4] = {0.5f, -1.25f, 1e10f, 3.0e-40f};
__device__ u16 g_htab[6] = {1, 0xFFFF, 0x8000, 0x7FFF, 0x1234, 0};
__device__ Rec g_rec = {0xCAFEBABE, 0xBEEF, 0xAB, -5, 0x1122334455667788ull, -0.75f, 1.0e-310};
__device__ const u32* g_plut = g_lut + 5;  // initialised with the address of another variable

GOLDEN_KERNEL(module_vars) {
    u32 i = GOLDEN_TID, x = (u32)a[i], z = (u32)c[i];
    u32 r1 = g_lut[(x + z) & 31];
    u32 r2 = g_plut[z % 27];
    u64 h = mix64(r1, r2);
    h = mix64(h, g_scalar ^ (u64)(s64)g_neg);
    h = mix64(h, b32(g_ftab[x & 3]));
    h = mix64(h, g_htab[z % 6]);
    h = mix64(h, g_rec.w ^ ((u64)g_rec.h << 32) ^ ((u64)g_rec.b << 48) ^ ((u64)(u8)g_rec.sb << 56));
    h = mix64(h, g_rec.q ^ b32(g_rec.f) ^ b64(g_rec.g));
    d[i] = (z & 3) == 0 ? (r1 | (u64)r2 << 32) : h;
}

// ---------------------------------------------------------------- generic pointers

GOLDEN_KERNEL(generic_space_select) {
    __shared__ u64 sh[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u64 loc[8];
    for (u32 k = 0; k < 8; ++k) loc[(k + z) & 7] = (u64)x * (k + 1);
    sh[t] = (u64)y << 3;
    g_buf[i] = (u64)x << 32 | y;
    u32 sel = (z + t) % 3;
    u64* p = sel == 0 ? &sh[t] : sel == 1 ? &loc[z & 7] : &g_buf[i];
    u64 v = *p;                               // generic ld.u64
    u32 lo = *(u32*)p;                        // generic ld.u32
    u32 bt = ((u8*)p)[(z >> 1) & 7];          // generic ld.u8
    *p = v * 5 + 1;                           // generic st.u64
    ((u16*)p)[z & 3] = (u16)y;                // generic st.u16
    u32 sp = __isShared(p) | __isLocal(p) << 1 | __isGlobal(p) << 2 | __isConstant(p) << 3;
    u64 back = sel == 0 ? sh[t] : sel == 1 ? loc[z & 7] : g_buf[i];
    u32 off = (u32)(__cvta_generic_to_shared(&sh[t]) - __cvta_generic_to_shared(&sh[0]));
    d[i] = mix64(mix64(v, back), (u64)lo << 32 | bt) ^ ((u64)sp << 60) ^ ((u64)off << 40);
}

// ---------------------------------------------------------------- fences

GOLDEN_KERNEL(fences) {
    __shared__ u32 sh[128];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], y = (u32)b[i];
    sh[t] = x;
    __threadfence_block();
    g_w32[i] = y;
    __threadfence();
    g_w32b[i] = x ^ y;
    __threadfence_system();
    asm volatile("fence.sc.cta;" ::: "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("fence.sc.sys;" ::: "memory");
    asm volatile("membar.cta;" ::: "memory");
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("membar.sys;" ::: "memory");
    __syncthreads();
    u32 j = blockIdx.x * blockDim.x + ((t + 1) & 127);
    d[i] = (sh[(t + 1) & 127] + g_w32[j]) | (u64)g_w32b[j] << 32;
}

// ---------------------------------------------------------------- the table

#define C16(n) {#n, 16, 128, ""},
#define C8(n) {#n, 8, 128, ""},

GOLDEN_CASES {
    C16(atom_add_u32) C16(atom_add_s32) C16(atom_min_u32) C16(atom_max_u32) C16(atom_min_s32) C16(atom_max_s32)
    C16(atom_and_b32) C16(atom_or_b32) C16(atom_xor_b32) C16(atom_exch_b32) C16(atom_cas_b32)
    C16(atom_inc_u32) C16(atom_dec_u32) C16(atom_add_f32) C16(atom_exch_f32) C16(atom_add_f32_subnormal)
    C8(atom_add_u64) C8(atom_min_u64) C8(atom_max_u64) C8(atom_min_s64) C8(atom_max_s64) C8(atom_and_b64)
    C8(atom_or_b64) C8(atom_xor_b64) C8(atom_exch_b64) C8(atom_cas_b64) C8(atom_add_f64)
    C16(atom_cas_b16) C16(atom_add_f32_subnormal_old)
    C16(red_add_u32_min_s32) C16(red_max_u32_and_b32) C16(red_or_xor_b32) C16(red_max_s32_min_u32)
    C16(red_inc_dec_u32) C16(red_add_f32_add_s32) C16(red_add_f32_subnormal)
    C8(red_add_u64_f64) C8(red_min_max_s64) C8(red_min_max_u64) C8(red_and_or_b64) C8(red_xor_b64_add_s64)
    C16(atom_scopes) C16(atom_generic)
    C16(contend_shared_u32) C16(contend_shared_64) C16(contend_shared_float) C16(contend_global)
    C16(ldst_global_widths) C16(ldst_global_cpp) C16(ldst_shared_widths) C16(ldst_local_widths)
    C8(ldst_vectors) {"ldst_vector_stores", 4, 128, ""}, C8(ldst_vector_f64_u64) C8(ldst_vector_f32_asm)
    C16(ldst_volatile) C16(ldg_widths)
    C16(const_tables) C16(module_vars) C16(generic_space_select) C16(fences)
};
GOLDEN_MAIN
