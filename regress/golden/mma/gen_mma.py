#!/usr/bin/env python3
"""Writes mma.cu, the golden family of the warp-level matrix instructions (mma.sync, ldmatrix,
stmatrix, movmatrix). Run it after changing the case list; build_captures.sh then makes mma.ptx.

Every mma kernel reads each lane's operand registers straight from the inputs (register r of lane
l of warp w is built from word w*64 + r*32 + l), shapes them into values of the operand's format
(narrow, wide, subnormal or special exponents), runs one mma.sync and writes each lane's result
registers. So the capture assumes no fragment layout: the model must place the registers where
the H100 does to reproduce d."""
import pathlib

# name, PTX shape and types, registers of a, b, c/d (32-bit each, 64-bit for f64), format of a, b, c
MMA = [
    # f16 and bf16
    ("m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, "f16", "f16", "f32"),
    ("m16n8k8.row.col.f32.f16.f16.f32", 2, 1, 4, "f16", "f16", "f32"),
    ("m16n8k16.row.col.f16.f16.f16.f16", 4, 2, 2, "f16", "f16", "f16"),
    ("m16n8k8.row.col.f16.f16.f16.f16", 2, 1, 2, "f16", "f16", "f16"),
    ("m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, 4, "bf16", "bf16", "f32"),
    ("m16n8k8.row.col.f32.bf16.bf16.f32", 2, 1, 4, "bf16", "bf16", "f32"),
    # tf32
    ("m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 4, "tf32", "tf32", "f32"),
    ("m16n8k4.row.col.f32.tf32.tf32.f32", 2, 1, 4, "tf32", "tf32", "f32"),
    # fp8 (sm_89)
    ("m16n8k32.row.col.f32.e4m3.e4m3.f32", 4, 2, 4, "e4m3", "e4m3", "f32"),
    ("m16n8k32.row.col.f32.e5m2.e5m2.f32", 4, 2, 4, "e5m2", "e5m2", "f32"),
    ("m16n8k32.row.col.f32.e4m3.e5m2.f32", 4, 2, 4, "e4m3", "e5m2", "f32"),
    ("m16n8k32.row.col.f32.e5m2.e4m3.f32", 4, 2, 4, "e5m2", "e4m3", "f32"),
    ("m16n8k32.row.col.f16.e4m3.e4m3.f16", 4, 2, 2, "e4m3", "e4m3", "f16"),
    ("m16n8k32.row.col.f16.e5m2.e5m2.f16", 4, 2, 2, "e5m2", "e5m2", "f16"),
    # f64
    ("m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, "f64", "f64", "f64"),
    ("m16n8k4.row.col.f64.f64.f64.f64", 2, 1, 4, "f64", "f64", "f64"),
    ("m16n8k8.row.col.f64.f64.f64.f64", 4, 2, 4, "f64", "f64", "f64"),
    ("m16n8k16.row.col.f64.f64.f64.f64", 8, 4, 4, "f64", "f64", "f64"),
    # integers
    ("m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 4, "int", "int", "s32"),
    ("m16n8k32.row.col.satfinite.s32.s8.u8.s32", 4, 2, 4, "int", "int", "s32"),
    ("m16n8k16.row.col.satfinite.s32.u8.u8.s32", 2, 1, 4, "int", "int", "s32"),
    ("m8n8k16.row.col.satfinite.s32.u8.s8.s32", 1, 1, 2, "int", "int", "s32"),
    ("m16n8k64.row.col.satfinite.s32.s4.s4.s32", 4, 2, 4, "int", "int", "s32"),
    ("m16n8k32.row.col.s32.u4.s4.s32", 2, 1, 4, "int", "int", "s32"),
    ("m8n8k32.row.col.satfinite.s32.s4.u4.s32", 1, 1, 2, "int", "int", "s32"),
    ("m16n8k256.row.col.s32.b1.b1.s32.xor.popc", 4, 2, 4, "int", "int", "s32"),
    ("m16n8k128.row.col.s32.b1.b1.s32.and.popc", 2, 1, 4, "int", "int", "s32"),
    ("m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 1, 1, 2, "int", "int", "s32"),
]

FLOAT_MODES = ["narrow", "wide", "sub", "special"]
MODE_ID = {"narrow": 0, "wide": 1, "sub": 2, "special": 3, "raw": 4, "nearmax": 5}


def modes(shape, a):
    if a == "int":
        return ["raw", "nearmax"]
    main = {"m16n8k16.row.col.f32.f16.f16.f32", "m16n8k16.row.col.f32.bf16.bf16.f32",
            "m16n8k8.row.col.f32.tf32.tf32.f32", "m16n8k32.row.col.f32.e4m3.e4m3.f32",
            "m16n8k32.row.col.f32.e5m2.e5m2.f32", "m8n8k4.row.col.f64.f64.f64.f64",
            "m16n8k16.row.col.f16.f16.f16.f16"}
    return FLOAT_MODES if shape in main else ["narrow", "special"]


def kname(shape, mode):
    parts = shape.replace(".row.col", "").replace(".col.row", "_cr").replace(".satfinite", "_sat").split(".")
    return "mma_" + "_".join(p for p in parts if p) + "_" + mode


def operand_list(start, n, kind):
    return "{" + ", ".join(f"%{start + i}" for i in range(n)) + "}", start + n


def mma_kernel(shape, na, nb, nc, fa, fb, fc, mode):
    wide = fc == "f64"
    reg = "u64" if wide else "u32"
    con = "l" if wide else "r"
    d_list, k = operand_list(0, nc, "d")
    a_list, k = operand_list(k, na, "a")
    b_list, k = operand_list(k, nb, "b")
    c_list, k = operand_list(k, nc, "c")
    outs = ", ".join(f'"={con}"(dr[{i}])' for i in range(nc))
    ins = ", ".join([f'"{con}"(ar[{i}])' for i in range(na)] + [f'"{con}"(br[{i}])' for i in range(nb)]
                    + [f'"{con}"(cr[{i}])' for i in range(nc)])
    m = MODE_ID[mode]
    return f"""GOLDEN_KERNEL({kname(shape, mode)}) {{
    {reg} ar[{na}], br[{nb}], cr[{nc}], dr[{nc}];
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32;
    for (int r = 0; r < {na}; ++r) ar[r] = ({reg})operand(a, w, r, l, F_{fa.upper()}, {m});
    for (int r = 0; r < {nb}; ++r) br[r] = ({reg})operand(b, w, r, l, F_{fb.upper()}, {m});
    for (int r = 0; r < {nc}; ++r) cr[r] = ({reg})operand(c, w, r, l, F_{fc.upper()}, {m});
    asm volatile("mma.sync.aligned.{shape} {d_list}, {a_list}, {b_list}, {c_list};"
                 : {outs} : {ins});
    for (int r = 0; r < {nc}; ++r) d[(w * {nc} + r) * 32 + l] = dr[r];
}}
"""


HEADER = r'''// Golden family "mma": the warp-level matrix instructions of sm_80 to sm_90 (mma.sync in every
// type, ldmatrix, stmatrix, movmatrix), captured to find the tensor cores' arithmetic and
// fragment layouts. GENERATED by gen_mma.py (edit that, not this file). Built for compute_90.
//
// An mma kernel builds each lane's operand registers from the inputs (register r of lane l of
// warp w from word (w*64 + r*32 + l) mod 2048, mixed with splitmix64), shaped into the operand's
// format: "narrow" exponents (values near 1), "wide" (most of the range, no infinities),
// "sub" (subnormals and the smallest normals), "special" (one element in eight is a zero,
// subnormal, infinity or NaN); integer operands are "raw" bits, or "nearmax" with accumulators
// near the s32 limits. Outputs: d[(w*nd + r)*32 + l] = result register r of lane l.
#include "golden.cuh"
#include "operands.cuh"
GOLDEN_FAMILY("mma", kU64, kU64, kU64)

typedef unsigned short u16;

enum Format { F_F16, F_BF16, F_TF32, F_E4M3, F_E5M2, F_F32, F_F64, F_INT, F_S32 };

__device__ u64 operand(const u64* in, unsigned w, int r, unsigned l, int f, int mode) {
    unsigned idx = w * 64 + r * 32 + l;
    u64 x = mix64(in[idx % 2048] ^ ((u64)idx << 40) ^ ((u64)f << 32));
    switch (f) {
    case F_F16: case F_BF16: {
        int eb = f == F_F16 ? 5 : 8, fb = f == F_F16 ? 10 : 7;
        u64 lo = element(mix64(x), eb, fb, mode), hi = element(mix64(x + 1), eb, fb, mode);
        return (u32)(lo & 0xFFFF) | (u32)((hi & 0xFFFF) << 16);
    }
    case F_E4M3: case F_E5M2: {
        int eb = f == F_E4M3 ? 4 : 5, fb = 7 - eb;
        u32 v = 0;
        for (int k = 0; k < 4; ++k) {
            u32 e = (u32)element(mix64(x + k), eb, fb, mode) & 0xFF;
            if (mode != 3 && f == F_E4M3 && (e & 0x7F) == 0x7F) e ^= 1;  // no NaN outside special
            v |= e << (8 * k);
        }
        return v;
    }
    case F_TF32: case F_F32: return element(x, 8, 23, mode) & 0xFFFFFFFFull;
    case F_F64: return element(x, 11, 52, mode);
    case F_S32:
        if (mode == 5) return (u32)((x & 1) ? 0x7FFF0000u + (u32)(x >> 48) : 0x80000000u + (u32)(x >> 48));
        return (u32)x;
    default: return (u32)x;
    }
}

'''

LDMATRIX = r'''
// ldmatrix: shared memory holds 64 rows of eight 16-bit words (random); lane l names row
// perm(l) of it. Outputs: the registers of each lane.
__device__ __forceinline__ unsigned row_of(unsigned l, unsigned w) { return (l * 37 + w * 11) % 64; }

#define LDMATRIX(name, ins, n)                                                                    \
    GOLDEN_KERNEL(name) {                                                                         \
        __shared__ __align__(16) u16 s[64 * 8];                                                   \
        unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32;                                       \
        if (threadIdx.x < 32)                                                                     \
            for (int k = 0; k < 16; ++k) s[l * 16 + k] = (u16)mix64(a[(w * 512 + l * 16 + k) % 2048] + k); \
        __syncthreads();                                                                          \
        u32 r[4] = {0, 0, 0, 0};                                                                  \
        u32 addr = (u32)__cvta_generic_to_shared(&s[row_of(l, w) * 8]);                          \
        if (n == 1) asm volatile(ins " {%0}, [%1];" : "=r"(r[0]) : "r"(addr));                    \
        if (n == 2) asm volatile(ins " {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));    \
        if (n == 4) asm volatile(ins " {%0, %1, %2, %3}, [%4];"                                    \
                                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));   \
        for (int k = 0; k < 4; ++k) d[(w * 4 + k) * 32 + l] = r[k];                               \
    }

// stmatrix: each lane's registers are random words; lane l names row perm(l). Outputs: the
// 64 rows of shared memory (untouched rows keep a marker), 256 words per warp.
#define STMATRIX(name, ins, n)                                                                    \
    GOLDEN_KERNEL(name) {                                                                         \
        __shared__ __align__(16) u16 s[4][64 * 8];                                                \
        unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32, wb = threadIdx.x / 32;               \
        for (int k = 0; k < 16; ++k) s[wb][l * 16 + k] = 0xA5A5;                                  \
        __syncwarp();                                                                             \
        u32 r[4];                                                                                 \
        for (int k = 0; k < 4; ++k) r[k] = (u32)mix64(b[(w * 128 + k * 32 + l) % 2048] + k);      \
        u32 addr = (u32)__cvta_generic_to_shared(&s[wb][row_of(l, w) * 8]);                      \
        if (n == 1) asm volatile(ins " [%0], {%1};" :: "r"(addr), "r"(r[0]) : "memory");           \
        if (n == 2) asm volatile(ins " [%0], {%1, %2};" :: "r"(addr), "r"(r[0]), "r"(r[1]) : "memory"); \
        if (n == 4) asm volatile(ins " [%0], {%1, %2, %3, %4};"                                    \
                                 :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory"); \
        __syncwarp();                                                                             \
        const u64* rows = (const u64*)s[wb];                                                      \
        for (int k = 0; k < 4; ++k) d[w * 128 + k * 32 + l] = rows[k * 32 + l];                  \
    }

LDMATRIX(ldmatrix_x1, "ldmatrix.sync.aligned.m8n8.x1.shared.b16", 1)
LDMATRIX(ldmatrix_x2, "ldmatrix.sync.aligned.m8n8.x2.shared.b16", 2)
LDMATRIX(ldmatrix_x4, "ldmatrix.sync.aligned.m8n8.x4.shared.b16", 4)
LDMATRIX(ldmatrix_x1_trans, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", 1)
LDMATRIX(ldmatrix_x2_trans, "ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16", 2)
LDMATRIX(ldmatrix_x4_trans, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", 4)
STMATRIX(stmatrix_x1, "stmatrix.sync.aligned.m8n8.x1.shared.b16", 1)
STMATRIX(stmatrix_x2, "stmatrix.sync.aligned.m8n8.x2.shared.b16", 2)
STMATRIX(stmatrix_x4, "stmatrix.sync.aligned.m8n8.x4.shared.b16", 4)
STMATRIX(stmatrix_x1_trans, "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", 1)
STMATRIX(stmatrix_x4_trans, "stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16", 4)

// movmatrix: each lane's word is random; the transposed fragment comes back.
GOLDEN_KERNEL(movmatrix_trans) {
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32;
    u32 x = (u32)mix64(c[GOLDEN_TID % 2048]), r;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r) : "r"(x));
    d[w * 32 + l] = r;
}
'''


def main():
    here = pathlib.Path(__file__).resolve().parent
    kernels, cases = [], []
    for shape, na, nb, nc, fa, fb, fc in MMA:
        for mode in modes(shape, fa):
            kernels.append(mma_kernel(shape, na, nb, nc, fa, fb, fc, mode))
            warps = 2048 // (nc * 32)  # d holds 2048 words (64-bit)
            cases.append((kname(shape, mode), warps // 4, 128))
    for n in ["ldmatrix_x1", "ldmatrix_x2", "ldmatrix_x4", "ldmatrix_x1_trans", "ldmatrix_x2_trans",
              "ldmatrix_x4_trans"]:
        cases.append((n, 4, 128))
    for n in ["stmatrix_x1", "stmatrix_x2", "stmatrix_x4", "stmatrix_x1_trans", "stmatrix_x4_trans"]:
        cases.append((n, 4, 128))
    cases.append(("movmatrix_trans", 16, 128))
    body = HEADER + "\n".join(kernels) + LDMATRIX + "\nGOLDEN_CASES {\n"
    body += "".join(f'    {{"{n}", {g}, {b}, ""}},\n' for n, g, b in cases) + "};\nGOLDEN_MAIN\n"
    (here / "mma.cu").write_text(body)


main()
