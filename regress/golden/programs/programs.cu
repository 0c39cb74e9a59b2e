// Golden tests: whole programs.
//   Last-block reduction (CUDA sample threadFenceReduction): block sums, __threadfence, a ticket from
//     atomicInc on a __device__ counter, the last block adds the partial sums and resets the counter;
//     run twice (two kernels, other grid) so the reset is checked. Integer and small-integer floats.
//   Block reductions built from warp shuffles, one kernel per segment width 1..32.
//   Warp-aggregated counting under divergence (activemask, match.any, ballot, ffs, popc, one atomic
//     per group) and a ballot/popc stream compaction.
//   An iterative block loop driven by __syncthreads_or / _count / _and (Collatz steps).
//   Recursion through __noinline__ functions (call with .param): fibonacci, factorial (u64, with a
//     store after the call so it is not turned into a loop), Ackermann, in-place recursive prefix sum
//     over a local array (generic pointer to local memory).
//   brx.idx: nvcc 13 never emits it for switches (tried 16 and 32 dense cases; it builds compare
//     trees), so it is written in inline PTX with .branchtargets, once in a kernel and once in a
//     __noinline__ function called in a loop. A plain C switch is kept too.
//   Local-memory loops (insertion sort, sieve), a stack-based bytecode interpreter (program in
//     __constant__ memory, stack in local memory), libm in loops, a __noinline__ function returning
//     a struct, calls through function pointers (call with a .callprototype), pmevent via
//     __prof_trigger(0..7).
// libm: sinf and logf compile to plain IEEE operations (sinf's large-argument reduction uses local
// memory), no .approx, so they are bit-exact. expf uses ex2.approx.ftz.f32 and powf uses
// rcp.approx.ftz.f32, which the model reproduces bit for bit (docs/sfu.md): exact too.
// Dropped: nothing rejected for compute_75.
#include "golden.cuh"

GOLDEN_FAMILY("programs", kU32, kU32, kSmall)

#define FULL 0xffffffffu
typedef unsigned char u8;

__device__ __forceinline__ u64 mix64(u64 h, u64 v) { return (h ^ v) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }
__device__ __forceinline__ u32 lanemask_lt() { u32 r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }

// ---------------------------------------------------------------- last-block reduction

__device__ unsigned int g_count = 0;
__device__ u64 g_partial[64];
__device__ float g_fpartial[64];

// d[0] = integer total, d[1] = float total (bits) | last-block flag count << 32,
// d[2 + b] = integer partial of block b, d[32 + b] = float partial of block b, d[i] (i >= 64) per thread.
__device__ __forceinline__ void fence_reduce_body(const u64* a, const u64* b, u64* d) {
    __shared__ u64 s[256];
    __shared__ float sf[256];
    __shared__ bool am_last;
    u32 i = GOLDEN_TID, t = threadIdx.x;
    u64 v = a[i] * 3 + 1;
    float fv = (float)((u32)b[i] & 1023);
    s[t] = v;
    sf[t] = fv;
    __syncthreads();
    for (u32 st = blockDim.x / 2; st > 0; st >>= 1) {
        if (t < st) { s[t] += s[t + st]; sf[t] += sf[t + st]; }
        __syncthreads();
    }
    if (t == 0) {
        g_partial[blockIdx.x] = s[0];
        g_fpartial[blockIdx.x] = sf[0];
        d[2 + blockIdx.x] = s[0];
        d[32 + blockIdx.x] = __float_as_uint(sf[0]);
        __threadfence();
        unsigned ticket = atomicInc(&g_count, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last && t == 0) {
        u64 tot = 0;
        float ftot = 0.0f;
        for (u32 k = 0; k < gridDim.x; ++k) {
            tot += ((volatile u64*)g_partial)[k];
            ftot += ((volatile float*)g_fpartial)[k];
        }
        d[0] = tot;
        d[1] = __float_as_uint(ftot) | (u64)*(volatile unsigned*)&g_count << 32;  // == gridDim.x here
        g_count = 0;
    }
    if (i >= 64) d[i] = v;
}
GOLDEN_KERNEL(fence_reduce_a) { fence_reduce_body(a, b, d); }
GOLDEN_KERNEL(fence_reduce_b) { fence_reduce_body(a, b, d); }

// ---------------------------------------------------------------- shuffle block reductions

template <int W>
__device__ __forceinline__ void shfl_block_reduce_body(const u64* a, u64* d) {
    __shared__ u32 seg[128];
    __shared__ u32 total;
    u32 i = GOLDEN_TID, t = threadIdx.x, v = (u32)a[i];
    for (int o = W / 2; o > 0; o /= 2) v += __shfl_down_sync(FULL, v, o, W);
    if ((t & (W - 1)) == 0) seg[t / W] = v;
    __syncthreads();
    if (t == 0) {
        u32 s = 0;
        for (u32 k = 0; k < blockDim.x / W; ++k) s += seg[k] * (k + 1);  // weighted: order matters
        total = s;
    }
    __syncthreads();
    d[i] = v | (u64)total << 32;
}
GOLDEN_KERNEL(shfl_block_reduce_w1) { shfl_block_reduce_body<1>(a, d); }
GOLDEN_KERNEL(shfl_block_reduce_w2) { shfl_block_reduce_body<2>(a, d); }
GOLDEN_KERNEL(shfl_block_reduce_w4) { shfl_block_reduce_body<4>(a, d); }
GOLDEN_KERNEL(shfl_block_reduce_w8) { shfl_block_reduce_body<8>(a, d); }
GOLDEN_KERNEL(shfl_block_reduce_w16) { shfl_block_reduce_body<16>(a, d); }
GOLDEN_KERNEL(shfl_block_reduce_w32) { shfl_block_reduce_body<32>(a, d); }

// ---------------------------------------------------------------- ballots under divergence

// Warp-aggregated counting per bucket; each thread also gets its rank in its group.
GOLDEN_KERNEL(warp_aggregated_count) {
    __shared__ u32 cnt[4];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], lane = t & 31;
    u32 bucket = x & 3;
    if (t < 4) cnt[t] = 0;
    __syncthreads();
    __syncwarp();
    u32 rank, grp;
    if (bucket == 0 || bucket == 2) {
        u32 m = __activemask();
        grp = __match_any_sync(m, bucket);
        rank = __popc(grp & lanemask_lt());
        if (lane == (u32)__ffs(grp) - 1) atomicAdd(&cnt[bucket], __popc(grp));
    } else {
        u32 m = __activemask();
        u32 ones = __ballot_sync(m, bucket == 1);
        grp = (bucket == 1) ? ones : (m & ~ones);
        rank = __popc(grp & lanemask_lt());
        if (rank == 0) atomicAdd(&cnt[bucket], __popc(grp));
    }
    __syncthreads();
    d[i] = cnt[bucket] | (u64)rank << 32 | (u64)__popc(grp) << 40;
}

// Stream compaction within a block: ballot, popc of lower lanes, a scan over warps.
GOLDEN_KERNEL(ballot_compact) {
    __shared__ u32 wcount[32], wbase[32], out[1024];
    u32 i = GOLDEN_TID, t = threadIdx.x, x = (u32)a[i], lane = t & 31, w = t >> 5, nw = (blockDim.x + 31) / 32;
    bool p = (x % 3) == 0 || ((u32)b[i] & 0x100);
    u32 m = __ballot_sync(FULL, p);
    u32 rank = __popc(m & lanemask_lt());
    if (lane == 0) wcount[w] = __popc(m);
    __syncthreads();
    if (t == 0) {
        u32 s = 0;
        for (u32 k = 0; k < nw; ++k) { wbase[k] = s; s += wcount[k]; }
    }
    __syncthreads();
    if (p) out[wbase[w] + rank] = x;
    __syncthreads();
    u32 total = wbase[nw - 1] + wcount[nw - 1];
    d[i] = (t < total ? out[t] : 0xFFFFFFFFu) | (u64)total << 32;
}

// ---------------------------------------------------------------- block loop driven by bar.red

GOLDEN_KERNEL(collatz_block_loop) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    u32 n = (x & 0x3FF) + 1, steps = 0, iters = 0, done_sum = 0;
    bool done = (n == 1);
    while (__syncthreads_or(!done)) {
        if (!done) {
            n = (n & 1) ? 3 * n + 1 : n / 2;
            ++steps;
            done = (n == 1);
        }
        ++iters;
        done_sum += __syncthreads_count(done);
    }
    u32 all = __syncthreads_and(done);
    d[i] = steps | (u64)iters << 16 | (u64)done_sum << 32 | (u64)all << 63;
}

// ---------------------------------------------------------------- recursion

__device__ __noinline__ u32 fib(u32 n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ u64 fact(u32 n, u32* depth) {
    if (n <= 1) return 1;
    u64 r = fact(n - 1, depth);
    *depth += n;  // a store after the call keeps this a real recursion
    return r * n;
}

__device__ __noinline__ u32 ack(u32 m, u32 n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

// In-place prefix sums, recursively; p points into the caller's local array.
__device__ __noinline__ u64 rsum(u32* p, int n) {
    if (n == 0) return 0;
    u64 s = rsum(p, n - 1) + p[n - 1];
    p[n - 1] = (u32)s;
    return s;
}

GOLDEN_KERNEL(rec_fib) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    d[i] = fib(x % 16) | (u64)fib((x >> 8) % 8) << 32;
}

GOLDEN_KERNEL(rec_fact) {
    u32 i = GOLDEN_TID, x = (u32)a[i], depth = 0;
    u64 f = fact(x % 26, &depth);  // wraps beyond 20!; 25 frames of 24 bytes
    d[i] = f ^ ((u64)depth << 48);
}

GOLDEN_KERNEL(rec_ack) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    // depth stays near 15 frames of 40 bytes: the default 1 KiB device stack must not overflow
    u32 m = x % 4, n = (m == 3) ? y % 2 : y % 6;
    d[i] = ack(m, n) | (u64)m << 32 | (u64)n << 40;
}

GOLDEN_KERNEL(rec_rsum) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u32 arr[24];
    for (u32 k = 0; k < 24; ++k) arr[k] = x * (k + 1) ^ (y >> k);
    int n = (int)(z % 25);
    u64 s = rsum(arr, n);
    d[i] = s ^ ((u64)arr[z % 24] << 32);
}

// ---------------------------------------------------------------- switches and brx.idx

GOLDEN_KERNEL(switch_dense) {
    u32 i = GOLDEN_TID, x = (u32)a[i], r;
    switch (x & 15) {
    case 0: r = x * 3; break;
    case 1: r = x ^ 0x55; break;
    case 2: r = x + 77; break;
    case 3: r = x >> 3; break;
    case 4: r = x * x; break;
    case 5: r = ~x; break;
    case 6: r = x - 1000; break;
    case 7: r = x << 5; break;
    case 8: r = x / 7; break;
    case 9: r = x % 13; break;
    case 10: r = x | 0xF0F0; break;
    case 11: r = x & 0xFF00; break;
    case 12: r = __popc(x); break;
    case 13: r = __clz(x); break;
    case 14: r = __brev(x); break;
    default: r = x * 0x01000193u; break;
    }
    d[i] = r | (u64)(x & 15) << 32;
}

// An 8-way jump table in inline PTX. Lanes of a warp take different targets.
GOLDEN_KERNEL(brx_idx_kernel) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i], r;
    u32 idx = (x ^ y) & 7;
    asm volatile("{\n\t"
                 "ktab: .branchtargets kc0, kc1, kc2, kc3, kc4, kc5, kc6, kc7;\n\t"
                 "brx.idx %1, ktab;\n"
                 "kc0:\n\tmul.lo.u32 %0, %2, 3;\n\tbra.uni kend;\n"
                 "kc1:\n\txor.b32 %0, %2, %3;\n\tbra.uni kend;\n"
                 "kc2:\n\tadd.u32 %0, %2, 77;\n\tbra.uni kend;\n"
                 "kc3:\n\tshr.u32 %0, %2, 3;\n\tbra.uni kend;\n"
                 "kc4:\n\tmul.hi.u32 %0, %2, %3;\n\tbra.uni kend;\n"
                 "kc5:\n\tnot.b32 %0, %2;\n\tbra.uni kend;\n"
                 "kc6:\n\tsub.u32 %0, %3, %2;\n\tbra.uni kend;\n"
                 "kc7:\n\tpopc.b32 %0, %2;\n"
                 "kend:\n\t}"
                 : "=r"(r) : "r"(idx), "r"(x), "r"(y));
    d[i] = r | (u64)idx << 32;
}

// The same dispatch in a __noinline__ function, called in a loop (an interpreter's inner step).
__device__ __noinline__ u32 brx_dispatch(u32 op, u32 v, u32 k) {
    u32 r;
    asm volatile("{\n\t"
                 "ftab: .branchtargets fc0, fc1, fc2, fc3;\n\t"
                 "brx.idx %1, ftab;\n"
                 "fc0:\n\tadd.u32 %0, %2, %3;\n\tbra.uni fend;\n"
                 "fc1:\n\tmul.lo.u32 %0, %2, 0x01000193;\n\tbra.uni fend;\n"
                 "fc2:\n\tshf.l.wrap.b32 %0, %2, %2, %3;\n\tbra.uni fend;\n"
                 "fc3:\n\txor.b32 %0, %2, 0x9E3779B9;\n"
                 "fend:\n\t}"
                 : "=r"(r) : "r"(op & 3), "r"(v), "r"(k));
    return r;
}

GOLDEN_KERNEL(brx_idx_loop) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    u32 v = y;
    for (u32 k = 0; k < 16; ++k) v = brx_dispatch(x >> (2 * k), v, k);
    d[i] = v;
}

// ---------------------------------------------------------------- local-memory loops

GOLDEN_KERNEL(local_sort_sieve) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u32 v[16];
    for (u32 k = 0; k < 16; ++k) v[k] = (x * (2 * k + 1)) ^ (y >> (k & 15)) ^ (k * 0x9E3779B9u);
    for (int k = 1; k < 16; ++k) {  // insertion sort
        u32 key = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > key) { v[j + 1] = v[j]; --j; }
        v[j + 1] = key;
    }
    u8 comp[128];
    u32 lim = 64 + (x & 63), primes = 0;
    for (u32 k = 0; k < lim; ++k) comp[k] = 0;
    for (u32 p = 2; p < lim; ++p) {
        if (comp[p]) continue;
        ++primes;
        for (u32 q = p * p; q < lim; q += p) comp[q] = 1;
    }
    d[i] = v[z & 15] ^ ((u64)v[(z + 7) & 15] << 32) ^ ((u64)primes << 56);
}

// ---------------------------------------------------------------- bytecode interpreter

enum : u32 { HALT, PUSHX, PUSHY, PUSHI, ADD, SUB, MUL, XOR, DUP, SWAP, SHR, JNZ, DEC, OVER, POP, ANDI, JMP, ROT };
#define BC(op, arg) (u32)((op) | ((arg) << 8))
__constant__ u32 c_prog[4][16] = {
    // x * y + 7 - (x >> 3)
    {BC(PUSHX, 0), BC(PUSHY, 0), BC(MUL, 0), BC(PUSHI, 7), BC(ADD, 0), BC(PUSHX, 0), BC(SHR, 3), BC(SUB, 0), BC(HALT, 0)},
    // acc = x; for n = y & 15 down to 1: acc = acc * 3 ^ n
    {BC(PUSHX, 0), BC(PUSHY, 0), BC(ANDI, 15), BC(DUP, 0), BC(JNZ, 7), BC(POP, 0), BC(HALT, 0), BC(SWAP, 0), BC(PUSHI, 3),
     BC(MUL, 0), BC(OVER, 0), BC(XOR, 0), BC(SWAP, 0), BC(DEC, 0), BC(JMP, 3)},
    // x ** (y & 7) mod 2^32
    {BC(PUSHI, 1), BC(PUSHY, 0), BC(ANDI, 7), BC(DUP, 0), BC(JNZ, 7), BC(POP, 0), BC(HALT, 0), BC(SWAP, 0), BC(PUSHX, 0),
     BC(MUL, 0), BC(SWAP, 0), BC(DEC, 0), BC(JMP, 3)},
    // popcount(x) by shifting
    {BC(PUSHI, 0), BC(PUSHX, 0), BC(DUP, 0), BC(JNZ, 6), BC(POP, 0), BC(HALT, 0), BC(DUP, 0), BC(ANDI, 1), BC(ROT, 0),
     BC(ADD, 0), BC(SWAP, 0), BC(SHR, 1), BC(JMP, 2)},
};

GOLDEN_KERNEL(stack_interpreter) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i], z = (u32)c[i];
    u32 prog = (z + (i >> 5)) & 3;
    u32 st[16];
    int sp = 0;
    u32 pc = 0, steps = 0;
    for (; steps < 1000; ++steps) {
        u32 ins = c_prog[prog][pc++], op = ins & 0xFF, arg = ins >> 8;
        if (op == HALT) break;
        switch (op) {
        case PUSHX: st[sp++] = x; break;
        case PUSHY: st[sp++] = y; break;
        case PUSHI: st[sp++] = arg; break;
        case ADD: --sp; st[sp - 1] += st[sp]; break;
        case SUB: --sp; st[sp - 1] -= st[sp]; break;
        case MUL: --sp; st[sp - 1] *= st[sp]; break;
        case XOR: --sp; st[sp - 1] ^= st[sp]; break;
        case DUP: st[sp] = st[sp - 1]; ++sp; break;
        case SWAP: { u32 tmp = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = tmp; } break;
        case SHR: st[sp - 1] >>= arg; break;
        case JNZ: --sp; if (st[sp]) pc = arg; break;
        case DEC: st[sp - 1] -= 1; break;
        case OVER: st[sp] = st[sp - 2]; ++sp; break;
        case POP: --sp; break;
        case ANDI: st[sp - 1] &= arg; break;
        case JMP: pc = arg; break;
        case ROT: { u32 t0 = st[sp - 3]; st[sp - 3] = st[sp - 2]; st[sp - 2] = st[sp - 1]; st[sp - 1] = t0; } break;
        }
    }
    d[i] = st[sp - 1] | (u64)steps << 32 | (u64)prog << 48 | (u64)sp << 52;
}

// ---------------------------------------------------------------- libm in loops

// Half the threads use raw input bits, the others moderate values. Bit-exact (no .approx inside).
GOLDEN_KERNEL(libm_sinf_logf) {
    u32 i = GOLDEN_TID, xa = (u32)a[i], z = (u32)c[i];
    float x = (z & 1) ? __uint_as_float(xa) : (float)(int)(xa & 0xFFFFF) * (1.0f / 1024.0f) - 512.0f;
    u32 n = (z & 7) + 1;
    float s = -2.0f, l = 1e30f;
    for (u32 k = 0; k < n; ++k) {
        s = fmaxf(s, sinf(x + (float)k * 0.375f));
        l = fminf(l, logf(fabsf(x) + (float)k));
    }
    d[i] = __float_as_uint(s) | (u64)__float_as_uint(l) << 32;
}

// expf uses ex2.approx.ftz.f32 and powf rcp.approx.ftz.f32, exact in the model's SFU.
GOLDEN_KERNEL(libm_expf_powf) {
    u32 i = GOLDEN_TID, xa = (u32)a[i], yb = (u32)b[i], z = (u32)c[i];
    float x = (z & 1) ? __uint_as_float(xa) : (float)(int)(xa & 0xFFFF) * (1.0f / 2048.0f) - 16.0f;
    float y = (float)((int)(yb & 15) - 8) * 0.5f;
    u32 n = (z & 3) + 1;
    float e = 0.0f, p = 0.0f;
    for (u32 k = 0; k < n; ++k) {
        e = fmaxf(e, expf(x - (float)k));
        p = fmaxf(p, powf(fabsf(x) + (float)k * 0.25f, y));
    }
    d[i] = __float_as_uint(e) | (u64)__float_as_uint(p) << 32;
}

// ---------------------------------------------------------------- struct return, function pointers

struct Res {
    u32 q;
    u64 w;
    float f;
    u8 tag;
};
__device__ __noinline__ Res make_res(u32 x, u64 y, float f) {
    Res r;
    r.q = x * 7 ^ (u32)(y >> 3);
    r.w = y * x + 1;
    r.f = f * 0.5f + 1.0f;
    r.tag = (u8)(x >> 24);
    return r;
}
GOLDEN_KERNEL(struct_return) {
    u32 i = GOLDEN_TID, x = (u32)a[i];
    Res r = make_res(x, b[i] << 7 | c[i], (float)(int)(x & 0xFFFFFF));
    d[i] = mix64(mix64(r.q, r.w), (u64)__float_as_uint(r.f) << 8 | r.tag);
}

typedef u32 (*op_t)(u32, u32);
__device__ __noinline__ u32 op_add(u32 p, u32 q) { return p + q; }
__device__ __noinline__ u32 op_xor(u32 p, u32 q) { return p ^ q * 3; }
__device__ __noinline__ u32 op_mul(u32 p, u32 q) { return p * (q | 1); }
__device__ __noinline__ u32 op_rot(u32 p, u32 q) { return (p << (q & 31)) | (p >> ((32 - q) & 31)); }
__device__ op_t g_ops[4] = {op_add, op_xor, op_mul, op_rot};  // initialised with function addresses

GOLDEN_KERNEL(fnptr_select) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    op_t f = (x & 1) ? op_add : op_mul;
    op_t g = (x & 2) ? op_rot : op_xor;
    d[i] = f(x, y) | (u64)g(y, x) << 32;
}

GOLDEN_KERNEL(fnptr_table) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    u32 v = x;
    for (u32 k = 0; k < 4; ++k) v = g_ops[(y >> (2 * k)) & 3](v, y + k);
    d[i] = v;
}

// ---------------------------------------------------------------- pmevent

GOLDEN_KERNEL(pmevent_trigger) {
    u32 i = GOLDEN_TID, x = (u32)a[i], y = (u32)b[i];
    __prof_trigger(0);
    switch (x & 7) {
    case 1: __prof_trigger(1); break;
    case 2: __prof_trigger(2); break;
    case 3: __prof_trigger(3); break;
    case 4: __prof_trigger(4); break;
    case 5: __prof_trigger(5); break;
    case 6: __prof_trigger(6); break;
    case 7: __prof_trigger(7); break;
    default: break;
    }
    u32 r = x * 0x01000193u ^ y;
    if (y & 1) __prof_trigger(7);
    d[i] = r | (u64)(x & 7) << 32;
}

// ---------------------------------------------------------------- the table

GOLDEN_CASES {
    {"fence_reduce_a", 16, 128, ""},
    {"fence_reduce_b", 8, 256, ""},
    {"shfl_block_reduce_w1", 16, 128, ""},
    {"shfl_block_reduce_w2", 16, 128, ""},
    {"shfl_block_reduce_w4", 16, 128, ""},
    {"shfl_block_reduce_w8", 16, 128, ""},
    {"shfl_block_reduce_w16", 16, 128, ""},
    {"shfl_block_reduce_w32", 16, 128, ""},
    {"warp_aggregated_count", 16, 128, ""},
    {"ballot_compact", 8, 256, ""},
    {"collatz_block_loop", 16, 128, ""},
    {"rec_fib", 4, 128, ""},
    {"rec_fact", 16, 128, ""},
    {"rec_ack", 4, 128, ""},
    {"rec_rsum", 16, 128, ""},
    {"switch_dense", 16, 128, ""},
    {"brx_idx_kernel", 16, 128, ""},
    {"brx_idx_loop", 16, 128, ""},
    {"local_sort_sieve", 16, 128, ""},
    {"stack_interpreter", 16, 128, ""},
    {"libm_sinf_logf", 16, 128, ""},
    {"libm_expf_powf", 16, 128, ""},
    {"struct_return", 16, 128, ""},
    {"fnptr_select", 16, 128, ""},
    {"fnptr_table", 16, 128, ""},
    {"pmevent_trigger", 16, 128, ""},
};
GOLDEN_MAIN
