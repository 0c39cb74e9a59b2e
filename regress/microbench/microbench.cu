// Microbenchmarks for the timing model, timed with clock64() on the model (regress/microbench/README.md).
// Each warp records the cycles around the timed code (RECORD); the runner divides block 0's span by
// the instructions timed. Inline PTX pins the instruction class exactly.
#include <cstdint>

#define REP8(x) x x x x x x x x
#define REP32(x) REP8(x) REP8(x) REP8(x) REP8(x)

// Lane 0 of every warp records its start and end cycle and its SM; the runner takes the span of the
// warps that ran on block 0's SM (first start to last end), which no scheduling order can shorten.
#define RECORD(T0, T1)                                                                             \
    if (threadIdx.x % 32 == 0) {                                                                   \
        unsigned w_ = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32, sm_;               \
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm_));                                           \
        out[4 * w_] = T0;                                                                          \
        out[4 * w_ + 1] = T1;                                                                      \
        out[4 * w_ + 2] = sm_;                                                                     \
    }
constexpr int kSink = 65535;   // where results are written that only keep the compiler honest

// Distinct starting values, set by volatile moves so the compiler cannot sink them past the clock read.
#define SEED8(C, A0, A1, A2, A3, A4, A5, A6, A7, B, X)                                             \
    asm volatile("mov.b%10 %0, %9;\n\tmov.b%10 %1, %9;\n\tmov.b%10 %2, %9;\n\tmov.b%10 %3, %9;\n\t"     \
                 "mov.b%10 %4, %9;\n\tmov.b%10 %5, %9;\n\tmov.b%10 %6, %9;\n\tmov.b%10 %7, %9;\n\tmov.b%10 %8, %9;" \
                 : "=" C(A0), "=" C(A1), "=" C(A2), "=" C(A3), "=" C(A4), "=" C(A5), "=" C(A6), "=" C(A7), "=" C(B) \
                 : C(X), "n"(sizeof(X) * 8))

// Throughput: every thread runs 8 independent chains of 32 operations (256 per thread).
#define TP_F32(NAME, INSTR)                                                                        \
    extern "C" __global__ void NAME(long long* out, float x) {                                       \
        float a0, a1, a2, a3, a4, a5, a6, a7, b;                                                     \
        SEED8("f", a0, a1, a2, a3, a4, a5, a6, a7, b, x);                                          \
        __syncthreads();                                                                             \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(INSTR " %0, %0, %8;\n\t" INSTR " %1, %1, %8;\n\t" INSTR " %2, %2, %8;\n\t"   \
                           INSTR " %3, %3, %8;\n\t" INSTR " %4, %4, %8;\n\t" INSTR " %5, %5, %8;\n\t"   \
                           INSTR " %6, %6, %8;\n\t" INSTR " %7, %7, %8;"                               \
                           : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), "+f"(a6), "+f"(a7) \
                           : "f"(b));)                                                               \
        __syncthreads();                                                                             \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                             \
        if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == 12345.f) out[kSink] = 1;               \
    }

// Unary form (SFU operations): a = op(a).
#define TP_F32_UNARY(NAME, INSTR)                                                                  \
    extern "C" __global__ void NAME(long long* out, float x) {                                       \
        float a0, a1, a2, a3, a4, a5, a6, a7, b;                                                     \
        SEED8("f", a0, a1, a2, a3, a4, a5, a6, a7, b, x);                                          \
        __syncthreads();                                                                             \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(INSTR " %0, %0;\n\t" INSTR " %1, %1;\n\t" INSTR " %2, %2;\n\t" INSTR " %3, %3;\n\t" \
                           INSTR " %4, %4;\n\t" INSTR " %5, %5;\n\t" INSTR " %6, %6;\n\t" INSTR " %7, %7;"     \
                           : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), "+f"(a6), "+f"(a7));) \
        __syncthreads();                                                                             \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                             \
        if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == 12345.f) out[kSink] = 1;               \
    }

#define TP_U32X(NAME, INSTR, TAIL)                                                                        \
    extern "C" __global__ void NAME(long long* out, unsigned x) {                                    \
        unsigned a0, a1, a2, a3, a4, a5, a6, a7, b;                                                  \
        SEED8("r", a0, a1, a2, a3, a4, a5, a6, a7, b, x);                                          \
        __syncthreads();                                                                             \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(INSTR " %0, %0, %8" TAIL ";\n\t" INSTR " %1, %1, %8" TAIL ";\n\t" INSTR " %2, %2, %8" TAIL ";\n\t"   \
                           INSTR " %3, %3, %8" TAIL ";\n\t" INSTR " %4, %4, %8" TAIL ";\n\t" INSTR " %5, %5, %8" TAIL ";\n\t"   \
                           INSTR " %6, %6, %8" TAIL ";\n\t" INSTR " %7, %7, %8" TAIL ";"                               \
                           : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7) \
                           : "r"(b));)                                                               \
        __syncthreads();                                                                             \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                             \
        if ((a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7) == 12345u) out[kSink] = 1;              \
    }

#define TP_U32(NAME, INSTR) TP_U32X(NAME, INSTR, "")

#define TP_U32_UNARY(NAME, INSTR)                                                                  \
    extern "C" __global__ void NAME(long long* out, unsigned x) {                                    \
        unsigned a0, a1, a2, a3, a4, a5, a6, a7, b;                                                  \
        SEED8("r", a0, a1, a2, a3, a4, a5, a6, a7, b, x);                                          \
        __syncthreads();                                                                             \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(INSTR " %0, %0;\n\t" INSTR " %1, %1;\n\t" INSTR " %2, %2;\n\t" INSTR " %3, %3;\n\t" \
                           INSTR " %4, %4;\n\t" INSTR " %5, %5;\n\t" INSTR " %6, %6;\n\t" INSTR " %7, %7;"     \
                           : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7));) \
        __syncthreads();                                                                             \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                             \
        if ((a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7) == 12345u) out[kSink] = 1;              \
    }

#define TP_F64(NAME, INSTR)                                                                        \
    extern "C" __global__ void NAME(long long* out, double x) {                                      \
        double a0, a1, a2, a3, a4, a5, a6, a7, b;                                                    \
        SEED8("d", a0, a1, a2, a3, a4, a5, a6, a7, b, x);                                          \
        __syncthreads();                                                                             \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(INSTR " %0, %0, %8;\n\t" INSTR " %1, %1, %8;\n\t" INSTR " %2, %2, %8;\n\t"   \
                           INSTR " %3, %3, %8;\n\t" INSTR " %4, %4, %8;\n\t" INSTR " %5, %5, %8;\n\t"   \
                           INSTR " %6, %6, %8;\n\t" INSTR " %7, %7, %8;"                               \
                           : "+d"(a0), "+d"(a1), "+d"(a2), "+d"(a3), "+d"(a4), "+d"(a5), "+d"(a6), "+d"(a7) \
                           : "d"(b));)                                                               \
        __syncthreads();                                                                             \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                             \
        if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == 12345.) out[kSink] = 1;               \
    }

TP_F32(tp_fadd, "add.f32")
TP_F32(tp_fmul, "mul.f32")
TP_F32(tp_fdiv_full, "div.full.f32")
TP_F32(tp_fdiv_approx, "div.approx.f32")
TP_F32_UNARY(tp_rcp, "rcp.approx.f32")
TP_F32_UNARY(tp_rsqrt, "rsqrt.approx.f32")
TP_F32_UNARY(tp_lg2, "lg2.approx.f32")
TP_F32_UNARY(tp_sqrt, "sqrt.approx.f32")
TP_F32_UNARY(tp_sin, "sin.approx.f32")
TP_F32_UNARY(tp_cos, "cos.approx.f32")
TP_F32_UNARY(tp_ex2, "ex2.approx.f32")
TP_U32(tp_iadd, "add.u32")
TP_U32(tp_and, "and.b32")
TP_U32(tp_shl, "shl.b32")
TP_U32(tp_imul, "mul.lo.u32")
TP_U32(tp_mul24, "mul24.lo.u32")
TP_U32X(tp_vabsdiff4, "vabsdiff4.u32.u32.u32", ", %8")
TP_U32X(tp_vadd4, "vadd4.u32.u32.u32", ", %8")
TP_U32_UNARY(tp_popc, "popc.b32")
TP_U32_UNARY(tp_cvt_f32_u32, "cvt.rn.f32.u32")
TP_F64(tp_dadd, "add.f64")
TP_F64(tp_dfma_mul, "mul.f64")

// fma needs three operands.
extern "C" __global__ void tp_ffma(long long* out, float x) {
    float a0, a1, a2, a3, a4, a5, a6, a7, b, c;
    SEED8("f", a0, a1, a2, a3, a4, a5, a6, a7, b, x);
    asm volatile("mov.b32 %0, %1;" : "=f"(c) : "f"(x * 0.25f));
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("fma.rn.f32 %0, %0, %8, %9;\n\tfma.rn.f32 %1, %1, %8, %9;\n\tfma.rn.f32 %2, %2, %8, %9;\n\t"
                       "fma.rn.f32 %3, %3, %8, %9;\n\tfma.rn.f32 %4, %4, %8, %9;\n\tfma.rn.f32 %5, %5, %8, %9;\n\t"
                       "fma.rn.f32 %6, %6, %8, %9;\n\tfma.rn.f32 %7, %7, %8, %9;"
                       : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), "+f"(a6), "+f"(a7)
                       : "f"(b), "f"(c));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == 12345.f) out[kSink] = 1;
}

// __syncthreads throughput: 256 barriers in a row.
extern "C" __global__ void tp_bar(long long* out) {
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("bar.sync 0;\n\tbar.sync 0;\n\tbar.sync 0;\n\tbar.sync 0;\n\t"
                       "bar.sync 0;\n\tbar.sync 0;\n\tbar.sync 0;\n\tbar.sync 0;");)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
}

// Latency: one thread, one chain of 256 dependent operations.
#define LAT_F32(NAME, INSTR)                                                                       \
    extern "C" __global__ void NAME(long long* out, float x) {                                       \
        float a = x, b = x * 0.5f;                                                                   \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(REP8(INSTR " %0, %0, %1;\n\t") : "+f"(a) : "f"(b));)                      \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                                                            \
        if (a == 12345.f) out[kSink] = 1;                                                                \
    }
#define LAT_F32_UNARY(NAME, INSTR)                                                                 \
    extern "C" __global__ void NAME(long long* out, float x) {                                       \
        float a = x;                                                                                 \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(REP8(INSTR " %0, %0;\n\t") : "+f"(a));)                                   \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                                                            \
        if (a == 12345.f) out[kSink] = 1;                                                                \
    }
LAT_F32(lat_fadd, "add.f32")
LAT_F32_UNARY(lat_rsqrt, "rsqrt.approx.f32")
LAT_F32_UNARY(lat_sin, "sin.approx.f32")

extern "C" __global__ void lat_iadd(long long* out, unsigned x) {
    unsigned a = x, b = x | 1;
    long long t0 = clock64();
    REP32(asm volatile(REP8("add.u32 %0, %0, %1;\n\t") : "+r"(a) : "r"(b));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (a == 12345u) out[kSink] = 1;
}

extern "C" __global__ void lat_imul(long long* out, unsigned x) {
    unsigned a = x, b = x | 1;
    long long t0 = clock64();
    REP32(asm volatile(REP8("mul.lo.u32 %0, %0, %1;\n\t") : "+r"(a) : "r"(b));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (a == 12345u) out[kSink] = 1;
}

extern "C" __global__ void lat_dadd(long long* out, double x) {
    double a = x, b = x * 0.5;
    long long t0 = clock64();
    REP32(asm volatile(REP8("add.f64 %0, %0, %1;\n\t") : "+d"(a) : "d"(b));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (a == 12345.) out[kSink] = 1;
}

// Memory latency: a pointer chase of 256 dependent loads. chain[i] holds the next address.
extern "C" __global__ void lat_global(long long* out, const unsigned long long* chain) {
    unsigned long long p = (unsigned long long)chain;
    long long t0 = clock64();
    REP32(asm volatile(REP8("ld.global.cg.u64 %0, [%0];\n\t") : "+l"(p));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (p == 1) out[kSink] = 1;
}

extern "C" __global__ void lat_shared(long long* out, unsigned stride_words) {
    __shared__ unsigned s[1024];
    for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = ((i + stride_words) % 1024) * 4;
    __syncthreads();
    unsigned p = (unsigned)__cvta_generic_to_shared(s);
    unsigned base = p;
    p = 0;
    long long t0 = clock64();
    REP32(asm volatile(REP8("ld.shared.u32 %0, [%0];\n\t") : "+r"(p));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (p == base + 12345u) out[kSink] = 1;
}

__constant__ unsigned long long c_table[1024];

// Constant cache latency: a chase through constant memory, each step an address add and a load
// (the runner subtracts the add chain lat_add64). c_table[i] holds the byte offset of the next element.
extern "C" __global__ void lat_const(long long* out, unsigned long long start) {
    unsigned long long p = start, base, a = 0;
    asm("mov.u64 %0, c_table;" : "=l"(base));
    long long t0 = clock64();
    REP32(asm volatile(REP8("add.u64 %1, %2, %0;\n\tld.const.u64 %0, [%1];\n\t") : "+l"(p), "+l"(a) : "l"(base));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (p + a == 12345u) out[kSink] = 1;
}

extern "C" __global__ void lat_add64(long long* out, unsigned long long start) {
    unsigned long long p = start, base, a = 0;
    asm("mov.u64 %0, c_table;" : "=l"(base));
    long long t0 = clock64();
    REP32(asm volatile(REP8("add.u64 %0, %2, %0;\n\t") : "+l"(p), "+l"(a) : "l"(base));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (p == 12345u) out[kSink] = 1;
}

// Constant access with `distinct` different addresses per warp (lane % distinct), 256 per thread.
extern "C" __global__ void tp_const(long long* out, unsigned distinct) {
    unsigned long long base;
    asm("mov.u64 %0, c_table;" : "=l"(base));
    base += (threadIdx.x % 32 % distinct) * 8;
    unsigned long long v0, v1, v2, v3, v4, v5, v6, v7, addr = base;
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("ld.const.u64 %0, [%8];\n\t" "ld.const.u64 %1, [%8];\n\t" "ld.const.u64 %2, [%8];\n\t" "ld.const.u64 %3, [%8];\n\t" "ld.const.u64 %4, [%8];\n\t" "ld.const.u64 %5, [%8];\n\t" "ld.const.u64 %6, [%8];\n\t" "ld.const.u64 %7, [%8];\n\t" : "=l"(v0), "=l"(v1), "=l"(v2), "=l"(v3), "=l"(v4), "=l"(v5), "=l"(v6), "=l"(v7) : "l"(addr));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if ((v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7) == 12345u) out[kSink] = 1;
}

// Shared memory throughput at a word stride: 256 loads per thread of s[tid * stride] (4-byte words).
extern "C" __global__ void tp_shared32(long long* out, unsigned stride) {
    __shared__ unsigned s[32 * 32 * 2];
    unsigned lane = threadIdx.x % 32;
    for (unsigned i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = i;
    unsigned addr = (unsigned)__cvta_generic_to_shared(s) + (lane * stride % 2048) * 4;
    unsigned v0, v1, v2, v3, v4, v5, v6, v7;
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("ld.shared.u32 %0, [%8];\n\t" "ld.shared.u32 %1, [%8];\n\t" "ld.shared.u32 %2, [%8];\n\t" "ld.shared.u32 %3, [%8];\n\t" "ld.shared.u32 %4, [%8];\n\t" "ld.shared.u32 %5, [%8];\n\t" "ld.shared.u32 %6, [%8];\n\t" "ld.shared.u32 %7, [%8];\n\t" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3), "=r"(v4), "=r"(v5), "=r"(v6), "=r"(v7) : "r"(addr));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if ((v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7) == 12345u) out[kSink] = 1;
}

// The padding trick: s[tid + (tid >> 5) + 1], conflict-free for a warp.
extern "C" __global__ void tp_shared_padded(long long* out) {
    __shared__ unsigned s[1100];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1100; i += blockDim.x) s[i] = i;
    unsigned addr = (unsigned)__cvta_generic_to_shared(s) + (t + (t >> 5) + 1) * 4;
    unsigned v0, v1, v2, v3, v4, v5, v6, v7;
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("ld.shared.u32 %0, [%8];\n\t" "ld.shared.u32 %1, [%8];\n\t" "ld.shared.u32 %2, [%8];\n\t" "ld.shared.u32 %3, [%8];\n\t" "ld.shared.u32 %4, [%8];\n\t" "ld.shared.u32 %5, [%8];\n\t" "ld.shared.u32 %6, [%8];\n\t" "ld.shared.u32 %7, [%8];\n\t" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3), "=r"(v4), "=r"(v5), "=r"(v6), "=r"(v7) : "r"(addr));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if ((v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7) == 12345u) out[kSink] = 1;
}

// 8-bit accesses: s8[tid] (four threads share a 32-bit word).
extern "C" __global__ void tp_shared8(long long* out) {
    __shared__ unsigned char s[1024];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1024; i += blockDim.x) s[i] = (unsigned char)i;
    unsigned addr = (unsigned)__cvta_generic_to_shared(s) + t % 32;
    unsigned short v0, v1, v2, v3, v4, v5, v6, v7;
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("ld.shared.u8 %0, [%8];\n\t" "ld.shared.u8 %1, [%8];\n\t" "ld.shared.u8 %2, [%8];\n\t" "ld.shared.u8 %3, [%8];\n\t" "ld.shared.u8 %4, [%8];\n\t" "ld.shared.u8 %5, [%8];\n\t" "ld.shared.u8 %6, [%8];\n\t" "ld.shared.u8 %7, [%8];\n\t" : "=h"(v0), "=h"(v1), "=h"(v2), "=h"(v3), "=h"(v4), "=h"(v5), "=h"(v6), "=h"(v7) : "r"(addr));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if ((v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7) == 123) out[kSink] = 1;
}

// 64-bit accesses: d[tid].
extern "C" __global__ void tp_shared64(long long* out) {
    __shared__ unsigned long long s[512];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 512; i += blockDim.x) s[i] = i;
    unsigned addr = (unsigned)__cvta_generic_to_shared(s) + (t % 32) * 8;
    unsigned long long v0, v1, v2, v3, v4, v5, v6, v7;
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile("ld.shared.u64 %0, [%8];\n\t" "ld.shared.u64 %1, [%8];\n\t" "ld.shared.u64 %2, [%8];\n\t" "ld.shared.u64 %3, [%8];\n\t" "ld.shared.u64 %4, [%8];\n\t" "ld.shared.u64 %5, [%8];\n\t" "ld.shared.u64 %6, [%8];\n\t" "ld.shared.u64 %7, [%8];\n\t" : "=l"(v0), "=l"(v1), "=l"(v2), "=l"(v3), "=l"(v4), "=l"(v5), "=l"(v6), "=l"(v7) : "r"(addr));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if ((v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7) == 12345u) out[kSink] = 1;
}
