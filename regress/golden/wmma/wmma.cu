// Golden family "wmma": the warp matrix functions of CUDA's mma.h (the wmma.load, wmma.mma and
// wmma.store PTX that nvcc emits for them), in every shape and type. Built for compute_90.
//
// Fragment kernels (frag_*) write a matrix of element indices into their part of d (leading
// dimension padded by 16 bytes), load a fragment from it and write each lane's fragment storage
// over it: the fragment layout is not specified by PTX, so this capture is what the H100 does. Store kernels (store_*) fill an
// accumulator fragment's storage from b and write what wmma.store puts in memory. GEMM kernels
// (gemm_*) build A, B and C in shared memory from shaped random values (operands.cuh: narrow
// exponents, or "special" with zeros, subnormals, infinities and NaNs), load, multiply-accumulate
// and store D: their results do not depend on the layout. Outputs: 64-bit words of d as each
// kernel writes them (a fragment's 32-bit storage words, d[(w*words + k)*32 + lane]).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "golden.cuh"
#include "operands.cuh"
GOLDEN_FAMILY("wmma", kU64, kU64, kU64)

using namespace nvcuda;
namespace ex = nvcuda::wmma::experimental;
typedef unsigned short u16;
typedef unsigned char u8;

// Storage type of an operand in memory, and its size in bits (sub-byte types pack 8 or 32 per word).
template <class T> struct Mem { typedef T type; static constexpr int bits = 8 * sizeof(T); };
template <> struct Mem<wmma::precision::tf32> { typedef float type; static constexpr int bits = 32; };
template <> struct Mem<ex::precision::s4> { typedef void type; static constexpr int bits = 4; };
template <> struct Mem<ex::precision::u4> { typedef void type; static constexpr int bits = 4; };
template <> struct Mem<ex::precision::b1> { typedef void type; static constexpr int bits = 1; };

template <class Frag> __device__ void dump(const Frag& f, u64* d, unsigned w, unsigned l) {
    constexpr int words = (sizeof(f.x) + 3) / 4;
    u32 buf[words] = {};
    memcpy(buf, &f.x[0], sizeof(f.x));
    for (int k = 0; k < words; ++k) d[(w * words + k) * 32 + l] = buf[k];
}

// The leading dimension, in elements, of a rows x cols matrix of T: padded by 16 bytes.
template <class T> __device__ constexpr unsigned ldm_of(unsigned cols) { return cols + 128 / Mem<T>::bits; }

// A matrix of rows x cols elements of `bits` each, written into the warp's own part of d (so that
// the load reads global memory) with leading dimension ld: element (r, c) holds its row-major
// index r*cols + c (unique for 16-bit and wider elements; 8-bit keeps the low byte; 4- and 1-bit
// elements take random bits), in the layout's order.
__device__ void write_indices(u64* d, unsigned rows, unsigned cols, unsigned ld, bool row_major, int bits, unsigned w) {
    unsigned l = threadIdx.x % 32, n = row_major ? rows * ld : cols * ld;
    char* p = (char*)d;
    for (unsigned e = l; e < n; e += 32) {
        unsigned outer = e / ld, inner = e % ld;
        unsigned r = row_major ? outer : inner, c = row_major ? inner : outer;
        bool pad = row_major ? inner >= cols : inner >= rows;
        u64 v = pad ? 0 : r * cols + c;
        if (bits == 8) ((u8*)p)[e] = (u8)v;
        else if (bits == 16) ((u16*)p)[e] = (u16)v;
        else if (bits == 32) ((u32*)p)[e] = (u32)v;
        else if (bits == 64) ((u64*)p)[e] = v;
    }
    if (bits < 8)
        for (unsigned e = l; e < n * bits / 32; e += 32) ((u32*)p)[e] = (u32)mix64(w * 4096 + e);
}

template <class Use, int M, int N, int K, class T, class L>
__device__ void frag_load(u64* d) {
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32;
    wmma::fragment<Use, M, N, K, T, L> f;
    constexpr int words = (sizeof(f.x) + 3) / 4;
    constexpr bool is_a = std::is_same<Use, wmma::matrix_a>::value;
    constexpr unsigned rows = is_a ? M : K, cols = is_a ? K : N;
    constexpr bool row = std::is_same<L, wmma::row_major>::value;
    constexpr unsigned ld = ldm_of<T>(row ? cols : rows);
    u64* region = d + w * words * 32;
    write_indices(region, rows, cols, ld, row, Mem<T>::bits, w);
    __syncwarp();
    __threadfence_block();
    wmma::load_matrix_sync(f, (const typename Mem<T>::type*)region, ld);
    __syncwarp();
    dump(f, d, w, l);
}

template <int M, int N, int K, class T, wmma::layout_t L>
__device__ void frag_load_acc(u64* d) {
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32;
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    constexpr int words = (sizeof(f.x) + 3) / 4;
    constexpr bool row = L == wmma::mem_row_major;
    constexpr unsigned ld = ldm_of<T>(row ? N : M);
    u64* region = d + w * words * 32;
    write_indices(region, M, N, ld, row, 8 * sizeof(T), w);
    __syncwarp();
    __threadfence_block();
    wmma::load_matrix_sync(f, (const T*)region, ld, L);
    __syncwarp();
    dump(f, d, w, l);
}

// wmma.store of an accumulator whose storage words come from b; memory starts as a marker.
template <int M, int N, int K, class T, wmma::layout_t L>
__device__ void frag_store(const u64* b, u64* d) {
    __shared__ __align__(32) u64 s[4][256];
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32, wb = threadIdx.x / 32;
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    constexpr int words = (sizeof(f.x) + 3) / 4;
    u32 buf[words];
    for (int k = 0; k < words; ++k) buf[k] = (u32)mix64(b[(w * 256 + k * 32 + l) % 2048] + k);
    memcpy(&f.x[0], buf, sizeof(f.x));
    for (int k = 0; k < 8; ++k) s[wb][k * 32 + l] = 0xA5A5A5A5A5A5A5A5ull;
    __syncwarp();
    constexpr unsigned ld = ldm_of<T>(L == wmma::mem_row_major ? N : M);
    wmma::store_matrix_sync((T*)s[wb], f, ld, L);
    __syncwarp();
    for (int k = 0; k < 8; ++k) d[w * 256 + k * 32 + l] = s[wb][k * 32 + l];
}

// Raw bits of one shaped element of format f (operands.cuh), sized for T.
template <class T> __device__ u64 shaped(u64 r, int mode);
template <> __device__ u64 shaped<half>(u64 r, int mode) { return element(r, 5, 10, mode); }
template <> __device__ u64 shaped<__nv_bfloat16>(u64 r, int mode) { return element(r, 8, 7, mode); }
template <> __device__ u64 shaped<float>(u64 r, int mode) { return element(r, 8, 23, mode); }
template <> __device__ u64 shaped<double>(u64 r, int mode) { return element(r, 11, 52, mode); }
template <> __device__ u64 shaped<signed char>(u64 r, int) { return r; }
template <> __device__ u64 shaped<unsigned char>(u64 r, int) { return r; }
template <> __device__ u64 shaped<int>(u64 r, int) { return (u32)r; }

// A rows x cols matrix in shared memory (leading dimension ld elements of `bits`), shaped random.
template <class T> __device__ void fill(void* s, unsigned elems, int bits, const u64* in, unsigned w, int mode) {
    unsigned l = threadIdx.x % 32;
    for (unsigned e = l; e < elems; e += 32) {
        u64 v = shaped<T>(mix64(in[(w * 37 + e) % 2048] ^ ((u64)e << 44)), mode);
        if (bits == 8) ((u8*)s)[e] = (u8)v;
        else if (bits == 16) ((u16*)s)[e] = (u16)v;
        else if (bits == 32) ((u32*)s)[e] = (u32)v;
        else ((u64*)s)[e] = v;
    }
}

// D = A*B + C through shared memory, with the given layouts; D comes back in d (row-major, dense).
template <int M, int N, int K, class TI, class TA, class LA, class LB, wmma::layout_t LC, int mode>
__device__ void gemm(const u64* a, const u64* b, const u64* c, u64* d) {
    __shared__ __align__(32) u64 smem[4][3][256];
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32, wb = threadIdx.x / 32;
    typedef typename Mem<TI>::type ST;
    constexpr int ib = Mem<TI>::bits, cb = 8 * sizeof(TA);
    fill<ST>(smem[wb][0], M * K, ib, a, w, mode);
    fill<ST>(smem[wb][1], K * N, ib, b, w, mode);
    fill<TA>(smem[wb][2], M * N, cb, c, w, mode);
    __syncwarp();
    wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, TA> fc;
    constexpr bool arow = std::is_same<LA, wmma::row_major>::value, brow = std::is_same<LB, wmma::row_major>::value;
    wmma::load_matrix_sync(fa, (const ST*)smem[wb][0], arow ? K : M);
    wmma::load_matrix_sync(fb, (const ST*)smem[wb][1], brow ? N : K);
    wmma::load_matrix_sync(fc, (const TA*)smem[wb][2], LC == wmma::mem_row_major ? N : M, LC);
    wmma::mma_sync(fc, fa, fb, fc);
    __syncwarp();
    wmma::store_matrix_sync((TA*)smem[wb][2], fc, N, wmma::mem_row_major);
    __syncwarp();
    constexpr unsigned words = M * N * sizeof(TA) / 8;
    for (unsigned k = l; k < words; k += 32) d[w * words + k] = smem[wb][2][k];
}

// Sub-byte GEMMs (experimental API): a row-major, b column-major, int accumulators; raw bits.
template <int M, int N, int K, class TI, bool is_b1>
__device__ void gemm_subbyte(const u64* a, const u64* b, const u64* c, u64* d) {
    __shared__ __align__(32) u64 smem[4][3][256];
    unsigned w = GOLDEN_TID / 32, l = threadIdx.x % 32, wb = threadIdx.x / 32;
    constexpr int bits = Mem<TI>::bits;
    fill<int>(smem[wb][0], M * K * bits / 32, 32, a, w, 0);
    fill<int>(smem[wb][1], K * N * bits / 32, 32, b, w, 0);
    fill<int>(smem[wb][2], M * N, 32, c, w, 0);
    __syncwarp();
    wmma::fragment<wmma::matrix_a, M, N, K, TI, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, TI, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, int> fc;
    wmma::load_matrix_sync(fa, smem[wb][0], K);
    wmma::load_matrix_sync(fb, smem[wb][1], K);
    wmma::load_matrix_sync(fc, (const int*)smem[wb][2], N, wmma::mem_row_major);
    if constexpr (is_b1) wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpXOR, ex::bmmaAccumulateOpPOPC);
    else wmma::mma_sync(fc, fa, fb, fc);
    __syncwarp();
    wmma::store_matrix_sync((int*)smem[wb][2], fc, N, wmma::mem_row_major);
    __syncwarp();
    for (unsigned k = l; k < M * N / 2; k += 32) d[w * (M * N / 2) + k] = smem[wb][2][k];
}

#define ROW wmma::row_major
#define COL wmma::col_major
#define MA wmma::matrix_a
#define MB wmma::matrix_b
#define TF32 wmma::precision::tf32
#define BF16 __nv_bfloat16
#define FRAG(name, use, m, n, k, t, lay) GOLDEN_KERNEL(name) { frag_load<use, m, n, k, t, lay>(d); }
#define FRAGC(name, m, n, k, t, lay) GOLDEN_KERNEL(name) { frag_load_acc<m, n, k, t, lay>(d); }
#define STORE(name, m, n, k, t, lay) GOLDEN_KERNEL(name) { frag_store<m, n, k, t, lay>(b, d); }
#define GEMM(name, m, n, k, ti, ta, la, lb, lc, mode) \
    GOLDEN_KERNEL(name) { gemm<m, n, k, ti, ta, la, lb, lc, mode>(a, b, c, d); }
#define RM wmma::mem_row_major
#define CM wmma::mem_col_major

// f16 in its three shapes, both layouts
FRAG(frag_a_f16_m16n16k16_row, MA, 16, 16, 16, half, ROW)
FRAG(frag_a_f16_m16n16k16_col, MA, 16, 16, 16, half, COL)
FRAG(frag_b_f16_m16n16k16_row, MB, 16, 16, 16, half, ROW)
FRAG(frag_b_f16_m16n16k16_col, MB, 16, 16, 16, half, COL)
FRAGC(frag_c_f32_m16n16k16_row, 16, 16, 16, float, RM)
FRAGC(frag_c_f32_m16n16k16_col, 16, 16, 16, float, CM)
FRAGC(frag_c_f16_m16n16k16_row, 16, 16, 16, half, RM)
FRAG(frag_a_f16_m32n8k16_row, MA, 32, 8, 16, half, ROW)
FRAG(frag_b_f16_m32n8k16_col, MB, 32, 8, 16, half, COL)
FRAGC(frag_c_f32_m32n8k16_row, 32, 8, 16, float, RM)
FRAG(frag_a_f16_m8n32k16_col, MA, 8, 32, 16, half, COL)
FRAG(frag_b_f16_m8n32k16_row, MB, 8, 32, 16, half, ROW)
FRAGC(frag_c_f16_m8n32k16_col, 8, 32, 16, half, CM)
// bf16, tf32, 8-bit integers, f64
FRAG(frag_a_bf16_m16n16k16_row, MA, 16, 16, 16, BF16, ROW)
FRAG(frag_b_bf16_m16n16k16_col, MB, 16, 16, 16, BF16, COL)
FRAG(frag_a_bf16_m32n8k16_col, MA, 32, 8, 16, BF16, COL)
FRAG(frag_b_bf16_m8n32k16_row, MB, 8, 32, 16, BF16, ROW)
FRAG(frag_a_tf32_m16n16k8_row, MA, 16, 16, 8, TF32, ROW)
FRAG(frag_a_tf32_m16n16k8_col, MA, 16, 16, 8, TF32, COL)
FRAG(frag_b_tf32_m16n16k8_row, MB, 16, 16, 8, TF32, ROW)
FRAG(frag_b_tf32_m16n16k8_col, MB, 16, 16, 8, TF32, COL)
FRAG(frag_a_s8_m16n16k16_row, MA, 16, 16, 16, signed char, ROW)
FRAG(frag_b_s8_m16n16k16_col, MB, 16, 16, 16, signed char, COL)
FRAG(frag_a_u8_m32n8k16_col, MA, 32, 8, 16, unsigned char, COL)
FRAG(frag_b_u8_m8n32k16_row, MB, 8, 32, 16, unsigned char, ROW)
FRAGC(frag_c_s32_m16n16k16_row, 16, 16, 16, int, RM)
FRAGC(frag_c_s32_m8n32k16_col, 8, 32, 16, int, CM)
FRAG(frag_a_f64_m8n8k4_row, MA, 8, 8, 4, double, ROW)
FRAG(frag_a_f64_m8n8k4_col, MA, 8, 8, 4, double, COL)
FRAG(frag_b_f64_m8n8k4_row, MB, 8, 8, 4, double, ROW)
FRAGC(frag_c_f64_m8n8k4_row, 8, 8, 4, double, RM)
FRAGC(frag_c_f64_m8n8k4_col, 8, 8, 4, double, CM)
FRAG(frag_a_s4_m8n8k32_row, MA, 8, 8, 32, ex::precision::s4, ROW)
FRAG(frag_b_u4_m8n8k32_col, MB, 8, 8, 32, ex::precision::u4, COL)
FRAG(frag_a_b1_m8n8k128_row, MA, 8, 8, 128, ex::precision::b1, ROW)
FRAG(frag_b_b1_m8n8k128_col, MB, 8, 8, 128, ex::precision::b1, COL)
FRAGC(frag_c_s32_m8n8k32_row, 8, 8, 32, int, RM)
// stores
STORE(store_f32_m16n16k16_row, 16, 16, 16, float, RM)
STORE(store_f32_m16n16k16_col, 16, 16, 16, float, CM)
STORE(store_f16_m32n8k16_row, 32, 8, 16, half, RM)
STORE(store_s32_m8n32k16_col, 8, 32, 16, int, CM)
STORE(store_f64_m8n8k4_row, 8, 8, 4, double, RM)
STORE(store_f32_m16n16k8_col, 16, 16, 8, float, CM)
// GEMMs (mode 0 narrow, 3 special)
GEMM(gemm_f16_f32_m16n16k16_rcr, 16, 16, 16, half, float, ROW, COL, RM, 0)
GEMM(gemm_f16_f32_m16n16k16_crc_special, 16, 16, 16, half, float, COL, ROW, CM, 3)
GEMM(gemm_f16_f16_m16n16k16_rrr, 16, 16, 16, half, half, ROW, ROW, RM, 0)
GEMM(gemm_f16_f32_m32n8k16_rcr, 32, 8, 16, half, float, ROW, COL, RM, 0)
GEMM(gemm_f16_f16_m8n32k16_ccc, 8, 32, 16, half, half, COL, COL, CM, 0)
GEMM(gemm_bf16_f32_m16n16k16_rcr, 16, 16, 16, BF16, float, ROW, COL, RM, 0)
GEMM(gemm_bf16_f32_m32n8k16_crr_special, 32, 8, 16, BF16, float, COL, ROW, RM, 3)
GEMM(gemm_bf16_f32_m8n32k16_rrc, 8, 32, 16, BF16, float, ROW, ROW, CM, 0)
GEMM(gemm_tf32_f32_m16n16k8_rcr, 16, 16, 8, TF32, float, ROW, COL, RM, 0)
GEMM(gemm_tf32_f32_m16n16k8_crc_special, 16, 16, 8, TF32, float, COL, ROW, CM, 3)
GEMM(gemm_s8_s32_m16n16k16_rcr, 16, 16, 16, signed char, int, ROW, COL, RM, 0)
GEMM(gemm_u8_s32_m32n8k16_rrr, 32, 8, 16, unsigned char, int, ROW, ROW, RM, 0)
GEMM(gemm_s8_s32_m8n32k16_ccc, 8, 32, 16, signed char, int, COL, COL, CM, 0)
GEMM(gemm_f64_m8n8k4_rcr, 8, 8, 4, double, double, ROW, COL, RM, 0)
GEMM(gemm_f64_m8n8k4_crc_special, 8, 8, 4, double, double, COL, ROW, CM, 3)
GOLDEN_KERNEL(gemm_s4_m8n8k32) { gemm_subbyte<8, 8, 32, ex::precision::s4, false>(a, b, c, d); }
GOLDEN_KERNEL(gemm_u4_m8n8k32) { gemm_subbyte<8, 8, 32, ex::precision::u4, false>(a, b, c, d); }
GOLDEN_KERNEL(gemm_b1_m8n8k128) { gemm_subbyte<8, 8, 128, ex::precision::b1, true>(a, b, c, d); }

GOLDEN_CASES {
    {"frag_a_f16_m16n16k16_row", 2, 128, ""},
    {"frag_a_f16_m16n16k16_col", 2, 128, ""},
    {"frag_b_f16_m16n16k16_row", 2, 128, ""},
    {"frag_b_f16_m16n16k16_col", 2, 128, ""},
    {"frag_c_f32_m16n16k16_row", 2, 128, ""},
    {"frag_c_f32_m16n16k16_col", 2, 128, ""},
    {"frag_c_f16_m16n16k16_row", 2, 128, ""},
    {"frag_a_f16_m32n8k16_row", 2, 128, ""},
    {"frag_b_f16_m32n8k16_col", 2, 128, ""},
    {"frag_c_f32_m32n8k16_row", 2, 128, ""},
    {"frag_a_f16_m8n32k16_col", 2, 128, ""},
    {"frag_b_f16_m8n32k16_row", 2, 128, ""},
    {"frag_c_f16_m8n32k16_col", 2, 128, ""},
    {"frag_a_bf16_m16n16k16_row", 2, 128, ""},
    {"frag_b_bf16_m16n16k16_col", 2, 128, ""},
    {"frag_a_bf16_m32n8k16_col", 2, 128, ""},
    {"frag_b_bf16_m8n32k16_row", 2, 128, ""},
    {"frag_a_tf32_m16n16k8_row", 2, 128, ""},
    {"frag_a_tf32_m16n16k8_col", 2, 128, ""},
    {"frag_b_tf32_m16n16k8_row", 2, 128, ""},
    {"frag_b_tf32_m16n16k8_col", 2, 128, ""},
    {"frag_a_s8_m16n16k16_row", 2, 128, ""},
    {"frag_b_s8_m16n16k16_col", 2, 128, ""},
    {"frag_a_u8_m32n8k16_col", 2, 128, ""},
    {"frag_b_u8_m8n32k16_row", 2, 128, ""},
    {"frag_c_s32_m16n16k16_row", 2, 128, ""},
    {"frag_c_s32_m8n32k16_col", 2, 128, ""},
    {"frag_a_f64_m8n8k4_row", 2, 128, ""},
    {"frag_a_f64_m8n8k4_col", 2, 128, ""},
    {"frag_b_f64_m8n8k4_row", 2, 128, ""},
    {"frag_c_f64_m8n8k4_row", 2, 128, ""},
    {"frag_c_f64_m8n8k4_col", 2, 128, ""},
    {"frag_a_s4_m8n8k32_row", 2, 128, ""},
    {"frag_b_u4_m8n8k32_col", 2, 128, ""},
    {"frag_a_b1_m8n8k128_row", 2, 128, ""},
    {"frag_b_b1_m8n8k128_col", 2, 128, ""},
    {"frag_c_s32_m8n8k32_row", 2, 128, ""},
    {"store_f32_m16n16k16_row", 2, 128, ""},
    {"store_f32_m16n16k16_col", 2, 128, ""},
    {"store_f16_m32n8k16_row", 2, 128, ""},
    {"store_s32_m8n32k16_col", 2, 128, ""},
    {"store_f64_m8n8k4_row", 2, 128, ""},
    {"store_f32_m16n16k8_col", 2, 128, ""},
    {"gemm_f16_f32_m16n16k16_rcr", 4, 128, ""},
    {"gemm_f16_f32_m16n16k16_crc_special", 4, 128, ""},
    {"gemm_f16_f16_m16n16k16_rrr", 4, 128, ""},
    {"gemm_f16_f32_m32n8k16_rcr", 4, 128, ""},
    {"gemm_f16_f16_m8n32k16_ccc", 4, 128, ""},
    {"gemm_bf16_f32_m16n16k16_rcr", 4, 128, ""},
    {"gemm_bf16_f32_m32n8k16_crr_special", 4, 128, ""},
    {"gemm_bf16_f32_m8n32k16_rrc", 4, 128, ""},
    {"gemm_tf32_f32_m16n16k8_rcr", 4, 128, ""},
    {"gemm_tf32_f32_m16n16k8_crc_special", 4, 128, ""},
    {"gemm_s8_s32_m16n16k16_rcr", 4, 128, ""},
    {"gemm_u8_s32_m32n8k16_rrr", 4, 128, ""},
    {"gemm_s8_s32_m8n32k16_ccc", 4, 128, ""},
    {"gemm_f64_m8n8k4_rcr", 4, 128, ""},
    {"gemm_f64_m8n8k4_crc_special", 4, 128, ""},
    {"gemm_s4_m8n8k32", 4, 128, ""},
    {"gemm_u4_m8n8k32", 4, 128, ""},
    {"gemm_b1_m8n8k128", 4, 128, ""},
};
GOLDEN_MAIN
