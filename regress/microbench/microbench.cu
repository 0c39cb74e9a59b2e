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
constexpr int kSink = 65535;

// 256 loads per thread from ADDR into eight rotating destinations (no write-after-write waits);
// C is the destination constraint, AC the address's. The values land in v0..v7.
#define LOADS8(INSTR, C, AC, ADDR)                                                                 \
    REP32(asm volatile(INSTR " %0, [%8];\n\t" INSTR " %1, [%8];\n\t" INSTR " %2, [%8];\n\t"            \
                       INSTR " %3, [%8];\n\t" INSTR " %4, [%8];\n\t" INSTR " %5, [%8];\n\t"            \
                       INSTR " %6, [%8];\n\t" INSTR " %7, [%8];"                                       \
                       : "=" C(v0), "=" C(v1), "=" C(v2), "=" C(v3), "=" C(v4), "=" C(v5), "=" C(v6),  \
                         "=" C(v7)                                                                   \
                       : AC(ADDR));)   // where results are written that only keep the compiler honest

// Distinct starting values, set by volatile moves so the compiler cannot sink them past the clock read.
#define SEED8(C, A0, A1, A2, A3, A4, A5, A6, A7, B, X)                                             \
    asm volatile("mov.b%10 %0, %9;\n\tmov.b%10 %1, %9;\n\tmov.b%10 %2, %9;\n\tmov.b%10 %3, %9;\n\t"     \
                 "mov.b%10 %4, %9;\n\tmov.b%10 %5, %9;\n\tmov.b%10 %6, %9;\n\tmov.b%10 %7, %9;\n\tmov.b%10 %8, %9;" \
                 : "=" C(A0), "=" C(A1), "=" C(A2), "=" C(A3), "=" C(A4), "=" C(A5), "=" C(A6), "=" C(A7), "=" C(B) \
                 : C(X), "n"(sizeof(X) * 8))

// Source operands after "d, a": TP_SRC<n> names n copies of b (%8), LAT_SRC<n> of b (%1).
#define TP_SRC0 ""
#define TP_SRC1 ", %8"
#define TP_SRC2 ", %8, %8"
#define LAT_SRC0 ""
#define LAT_SRC1 ", %1"

// Throughput: every thread runs 8 independent chains of 32 operations (256 per thread),
// a = INSTR(a, b...) with N sources besides a. T is the value type, C its asm constraint.
#define TP(NAME, T, C, INSTR, N)                                                                   \
    extern "C" __global__ void NAME(long long* out, T x) {                                           \
        T a0, a1, a2, a3, a4, a5, a6, a7, b;                                                         \
        SEED8(C, a0, a1, a2, a3, a4, a5, a6, a7, b, x);                                             \
        __syncthreads();                                                                             \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(INSTR " %0, %0" TP_SRC##N ";\n\t" INSTR " %1, %1" TP_SRC##N ";\n\t"        \
                           INSTR " %2, %2" TP_SRC##N ";\n\t" INSTR " %3, %3" TP_SRC##N ";\n\t"        \
                           INSTR " %4, %4" TP_SRC##N ";\n\t" INSTR " %5, %5" TP_SRC##N ";\n\t"        \
                           INSTR " %6, %6" TP_SRC##N ";\n\t" INSTR " %7, %7" TP_SRC##N ";"              \
                           : "+" C(a0), "+" C(a1), "+" C(a2), "+" C(a3), "+" C(a4), "+" C(a5), "+" C(a6), \
                             "+" C(a7)                                                              \
                           : C(b));)                                                                 \
        __syncthreads();                                                                             \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                                                              \
        if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == T(12345)) out[kSink] = 1;                       \
    }

TP(tp_fadd, float, "f", "add.f32", 1)
TP(tp_fmul, float, "f", "mul.f32", 1)
TP(tp_ffma, float, "f", "fma.rn.f32", 2)
TP(tp_fdiv_full, float, "f", "div.full.f32", 1)
TP(tp_fdiv_approx, float, "f", "div.approx.f32", 1)
TP(tp_rcp, float, "f", "rcp.approx.f32", 0)
TP(tp_rsqrt, float, "f", "rsqrt.approx.f32", 0)
TP(tp_lg2, float, "f", "lg2.approx.f32", 0)
TP(tp_sqrt, float, "f", "sqrt.approx.f32", 0)
TP(tp_sin, float, "f", "sin.approx.f32", 0)
TP(tp_cos, float, "f", "cos.approx.f32", 0)
TP(tp_ex2, float, "f", "ex2.approx.f32", 0)
TP(tp_iadd, unsigned, "r", "add.u32", 1)
TP(tp_and, unsigned, "r", "and.b32", 1)
TP(tp_shl, unsigned, "r", "shl.b32", 1)
TP(tp_imul, unsigned, "r", "mul.lo.u32", 1)
TP(tp_mul24, unsigned, "r", "mul24.lo.u32", 1)
TP(tp_vabsdiff4, unsigned, "r", "vabsdiff4.u32.u32.u32", 2)
TP(tp_vadd4, unsigned, "r", "vadd4.u32.u32.u32", 2)
TP(tp_popc, unsigned, "r", "popc.b32", 0)
TP(tp_cvt_f32_u32, unsigned, "r", "cvt.rn.f32.u32", 0)
TP(tp_dadd, double, "d", "add.f64", 1)
TP(tp_dfma_mul, double, "d", "mul.f64", 1)

// __syncthreads throughput: 256 barriers in a row.
extern "C" __global__ void tp_bar(long long* out) {
    __syncthreads();
    long long t0 = clock64();
    REP32(asm volatile(REP8("bar.sync 0;\n\t"));)
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
}

// Latency: one thread, one chain of 256 dependent operations a = INSTR(a, b...).
#define LAT(NAME, T, C, INSTR, N)                                                                  \
    extern "C" __global__ void NAME(long long* out, T x) {                                           \
        T a = x, b = x;                                                                              \
        long long t0 = clock64();                                                                    \
        REP32(asm volatile(REP8(INSTR " %0, %0" LAT_SRC##N ";\n\t") : "+" C(a) : C(b));)            \
        long long t1 = clock64();                                                                    \
        RECORD(t0, t1);                                                                              \
        if (a == T(12345)) out[kSink] = 1;                                                           \
    }

LAT(lat_fadd, float, "f", "add.f32", 1)
LAT(lat_rsqrt, float, "f", "rsqrt.approx.f32", 0)
LAT(lat_sin, float, "f", "sin.approx.f32", 0)
LAT(lat_iadd, unsigned, "r", "add.u32", 1)
LAT(lat_imul, unsigned, "r", "mul.lo.u32", 1)
LAT(lat_dadd, double, "d", "add.f64", 1)

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
    LOADS8("ld.const.u64", "l", "l", addr);
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
    LOADS8("ld.shared.u32", "r", "r", addr);
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
    LOADS8("ld.shared.u32", "r", "r", addr);
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
    LOADS8("ld.shared.u8", "h", "r", addr);
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
    LOADS8("ld.shared.u64", "l", "r", addr);
    __syncthreads();
    long long t1 = clock64();
    RECORD(t0, t1);
    if ((v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7) == 12345u) out[kSink] = 1;
}

// Texture fetch latency: a pointer chase through tex1Dfetch on a linear texture of ints, element
// p holding the index of the next (the runner builds the chain). A chain inside one cache line,
// run twice, hits the texture cache; a chain one page per step misses it every time.
extern "C" __global__ void lat_tex(long long* out, unsigned long long tex) {
    int p = 0, a, b, c;
    long long t0 = clock64();
    REP32(asm volatile(REP8("tex.1d.v4.s32.s32 {%0, %1, %2, %3}, [%4, {%0}];\n\t") : "+r"(p), "=r"(a), "=r"(b), "=r"(c) : "l"(tex));)
    long long t1 = clock64();
    RECORD(t0, t1);
    if (p + a + b + c == 12345) out[kSink] = 1;
}
