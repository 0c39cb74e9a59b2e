/*
 * A tour of the atomic intrinsics, C style, in the spirit of the CUDA samples' simpleAtomicIntrinsics
 * and the usual hand-rolled atomics of application code: add/sub/exch/min/max/inc/dec/and/or/xor/CAS
 * on 32- and 64-bit integers, float and double atomicAdd, an atomicCAS float max, a CAS-loop counter,
 * warp-aggregated append (ballot/popc/shfl), shared-memory histograms merged into global memory.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define NUM_BLOCKS 64
#define NUM_THREADS 256
#define TOTAL (NUM_BLOCKS * NUM_THREADS)
#define NUM_SLOTS 16
#define HIST_BINS 64
#define INC_LIMIT 17u
#define DEC_LIMIT 137u

#define CHECK(call)                                                                        \
    {                                                                                      \
        cudaError_t e_ = call;                                                             \
        if (e_ != cudaSuccess) {                                                           \
            printf("CUDA error %d (%s) at %s:%d\n", (int)e_, cudaGetErrorString(e_), __FILE__, \
                   __LINE__);                                                              \
            exit(EXIT_FAILURE);                                                            \
        }                                                                                  \
    }

/* indices into the int results */
enum {
    R_ADD, R_SUB, R_MAX, R_MIN, R_INC, R_DEC, R_CAS_COUNTER, R_AND, R_OR, R_XOR, R_APPEND_COUNT, R_FMIN_BITS, R_COUNT
};

struct Results {
    int i[R_COUNT];
    unsigned long long u64_add;
    unsigned long long u64_max;
    long long s64_min;
    float f_sum;
    float f_max;
    double d_sum;
    int exch_slot[NUM_SLOTS];
    unsigned int hist[HIST_BINS];
};

/* the input data: a cheap integer hash of the thread index */
__host__ __device__ static unsigned int hash32(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__host__ __device__ static float value_of(unsigned int gid)
{
    /* multiples of 1/1024 in [-64, 64) */
    return (float)((int)(hash32(gid) & 0x1FFFF) - 0x10000) / 1024.0f;
}

/* float max through a CAS loop on the bit pattern (works for any sign) */
__device__ float atomicMaxFloat(float *address, float val)
{
    int *address_as_int = (int *)address;
    int old = *address_as_int, assumed;
    while (__int_as_float(old) < val) {
        assumed = old;
        old = atomicCAS(address_as_int, assumed, __float_as_int(val));
        if (old == assumed) break;
    }
    return __int_as_float(old);
}

/* a counter bumped with compare-and-swap instead of atomicAdd; returns the value before */
__device__ int casAdd(int *address, int amount)
{
    int old = *(volatile int *)address;
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed + amount);
    } while (old != assumed);
    return old;
}

__global__ void globalAtomics(struct Results *r, int *exch_old, int *append_list)
{
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int h = hash32(tid);
    float v = value_of(tid);

    atomicAdd(&r->i[R_ADD], 10);
    atomicSub(&r->i[R_SUB], 10);
    atomicMax(&r->i[R_MAX], (int)tid);
    atomicMin(&r->i[R_MIN], (int)tid);
    atomicInc((unsigned int *)&r->i[R_INC], INC_LIMIT);
    atomicDec((unsigned int *)&r->i[R_DEC], DEC_LIMIT);
    {
        /* one lane per warp adds the warp's head count, so the CAS retries stay few */
        unsigned int warp_members = __ballot_sync(0xffffffffu, 1);
        if ((threadIdx.x & 31u) == 0u) casAdd(&r->i[R_CAS_COUNTER], __popc(warp_members));
    }
    atomicAnd(&r->i[R_AND], 2 * (int)tid + 7);
    atomicOr(&r->i[R_OR], 1 << (tid % 32));
    atomicXor(&r->i[R_XOR], (int)tid);

    /* 64-bit: the add carries into the high word, max/min on hashes */
    atomicAdd(&r->u64_add, (1ull << 32) + tid);
    atomicMax(&r->u64_max, ((unsigned long long)h << 20) ^ tid);
    atomicMin(&r->s64_min, (long long)(int)h * 1000003ll);

    /* floating point */
    atomicAdd(&r->f_sum, v + 64.0f); /* positive terms, so the relative error stays small */
    atomicAdd(&r->d_sum, (double)v * 3.0);
    atomicMaxFloat(&r->f_max, v);
    /* min of non-negative floats is the min of their bit patterns as ints */
    atomicMin(&r->i[R_FMIN_BITS], __float_as_int(fabsf(v)));

    /* exchange: who ends up in each slot depends on the order, the set of values does not */
    exch_old[tid] = atomicExch(&r->exch_slot[tid % NUM_SLOTS], (int)tid);

    /* warp-aggregated append of the threads whose hash is divisible by 3 */
    int pred = (h % 3u) == 0u;
    unsigned int lane = threadIdx.x & 31u;
    unsigned int mask = __ballot_sync(0xffffffffu, pred);
    if (pred) {
        int leader = __ffs(mask) - 1;
        int base = 0;
        if ((int)lane == leader) base = atomicAdd(&r->i[R_APPEND_COUNT], __popc(mask));
        base = __shfl_sync(mask, base, leader);
        unsigned int lower = mask & ((1u << lane) - 1u);
        append_list[base + __popc(lower)] = (int)tid;
    }
}

/* per-block histogram and block statistics in shared memory, merged into global memory */
__global__ void sharedAtomics(struct Results *r, unsigned int *block_stats)
{
    __shared__ unsigned int s_hist[HIST_BINS];
    __shared__ unsigned int s_max, s_min, s_or, s_inc;
    __shared__ int s_sum;

    unsigned int t = threadIdx.x;
    unsigned int gid = blockIdx.x * blockDim.x + t;
    for (unsigned int b = t; b < HIST_BINS; b += blockDim.x) s_hist[b] = 0;
    if (t == 0) {
        s_max = 0;
        s_min = 0xffffffffu;
        s_or = 0;
        s_inc = 0;
        s_sum = 0;
    }
    __syncthreads();

    unsigned int h = hash32(gid ^ 0xabcdefu);
    atomicAdd(&s_hist[h % HIST_BINS], 1u);
    atomicMax(&s_max, h);
    atomicMin(&s_min, h);
    atomicOr(&s_or, 1u << (h % 29u));
    atomicInc(&s_inc, 99u);   /* 256 increments wrap at 100 -> 56 */
    atomicAdd_block(&s_sum, (int)(h & 0xff));
    __syncthreads();

    for (unsigned int b = t; b < HIST_BINS; b += blockDim.x)
        if (s_hist[b]) atomicAdd(&r->hist[b], s_hist[b]);
    if (t == 0) {
        unsigned int *out = block_stats + 5 * blockIdx.x;
        out[0] = s_max;
        out[1] = s_min;
        out[2] = s_or;
        out[3] = s_inc;
        out[4] = (unsigned int)s_sum;
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int fails = 0;
static void check(const char *what, int ok)
{
    printf("%-44s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) fails++;
}

int main(int argc, char **argv)
{
    struct Results h_init, h_res;
    struct Results *d_res;
    int *d_exch_old, *d_append;
    unsigned int *d_block_stats;
    static int exch_old[TOTAL], append_list[TOTAL];
    static unsigned int block_stats[5 * NUM_BLOCKS];
    int i;

    printf("atomics_mix: %d blocks x %d threads\n", NUM_BLOCKS, NUM_THREADS);

    memset(&h_init, 0, sizeof(h_init));
    h_init.i[R_MIN] = 0x7fffffff;
    h_init.i[R_AND] = 0xff;
    h_init.i[R_FMIN_BITS] = 0x7f800000; /* +inf */
    h_init.s64_min = 0x7fffffffffffffffll;
    h_init.f_max = -INFINITY;
    for (i = 0; i < NUM_SLOTS; i++) h_init.exch_slot[i] = -1 - i;

    CHECK(cudaMalloc((void **)&d_res, sizeof(struct Results)));
    CHECK(cudaMalloc((void **)&d_exch_old, sizeof(int) * TOTAL));
    CHECK(cudaMalloc((void **)&d_append, sizeof(int) * TOTAL));
    CHECK(cudaMalloc((void **)&d_block_stats, sizeof(block_stats)));
    CHECK(cudaMemcpy(d_res, &h_init, sizeof(struct Results), cudaMemcpyHostToDevice));

    globalAtomics<<<NUM_BLOCKS, NUM_THREADS>>>(d_res, d_exch_old, d_append);
    CHECK(cudaGetLastError());
    sharedAtomics<<<NUM_BLOCKS, NUM_THREADS>>>(d_res, d_block_stats);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(&h_res, d_res, sizeof(struct Results), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(exch_old, d_exch_old, sizeof(int) * TOTAL, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(append_list, d_append, sizeof(int) * TOTAL, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(block_stats, d_block_stats, sizeof(block_stats), cudaMemcpyDeviceToHost));

    /* ---- CPU reference ---- */
    int e_and = 0xff, e_or = 0, e_xor = 0, e_append = 0, e_fmin_bits = 0x7f800000;
    unsigned int e_inc = 0, e_dec = 0;
    unsigned long long e_u64_add = 0, e_u64_max = 0;
    long long e_s64_min = 0x7fffffffffffffffll;
    float e_fmax = -INFINITY;
    double e_fsum = 0.0, e_dsum = 0.0;
    for (i = 0; i < TOTAL; i++) {
        unsigned int h = hash32(i);
        float v = value_of(i);
        e_inc = (e_inc >= INC_LIMIT) ? 0 : e_inc + 1;
        e_dec = (e_dec == 0 || e_dec > DEC_LIMIT) ? DEC_LIMIT : e_dec - 1;
        e_and &= 2 * i + 7;
        e_or |= 1 << (i % 32);
        e_xor ^= i;
        e_u64_add += (1ull << 32) + (unsigned)i;
        if ((((unsigned long long)h << 20) ^ (unsigned)i) > e_u64_max) e_u64_max = ((unsigned long long)h << 20) ^ (unsigned)i;
        if ((long long)(int)h * 1000003ll < e_s64_min) e_s64_min = (long long)(int)h * 1000003ll;
        if (v > e_fmax) e_fmax = v;
        {
            float a = fabsf(v);
            int bits;
            memcpy(&bits, &a, sizeof bits);
            if (bits < e_fmin_bits) e_fmin_bits = bits;
        }
        e_fsum += v + 64.0f;
        e_dsum += (double)v * 3.0;
        if (h % 3u == 0u) e_append++;
    }

    printf("atomicAdd int      = %d\n", h_res.i[R_ADD]);
    printf("atomicSub int      = %d\n", h_res.i[R_SUB]);
    printf("atomicMax int      = %d\n", h_res.i[R_MAX]);
    printf("atomicMin int      = %d\n", h_res.i[R_MIN]);
    printf("atomicInc (lim %u) = %u\n", INC_LIMIT, (unsigned)h_res.i[R_INC]);
    printf("atomicDec (lim %u) = %u\n", DEC_LIMIT, (unsigned)h_res.i[R_DEC]);
    printf("CAS counter        = %d\n", h_res.i[R_CAS_COUNTER]);
    printf("atomicAnd          = 0x%08x\n", (unsigned)h_res.i[R_AND]);
    printf("atomicOr           = 0x%08x\n", (unsigned)h_res.i[R_OR]);
    printf("atomicXor          = 0x%08x\n", (unsigned)h_res.i[R_XOR]);
    printf("atomicAdd u64      = 0x%016llx\n", h_res.u64_add);
    printf("atomicMax u64      = 0x%016llx\n", h_res.u64_max);
    printf("atomicMin s64      = %lld\n", h_res.s64_min);
    printf("CAS float max      = %.6f\n", h_res.f_max);
    printf("appended threads   = %d\n", h_res.i[R_APPEND_COUNT]);

    check("atomicAdd/atomicSub on int", h_res.i[R_ADD] == 10 * TOTAL && h_res.i[R_SUB] == -10 * TOTAL);
    check("atomicMax/atomicMin on int", h_res.i[R_MAX] == TOTAL - 1 && h_res.i[R_MIN] == 0);
    check("atomicInc wraps", (unsigned)h_res.i[R_INC] == e_inc && e_inc == TOTAL % (INC_LIMIT + 1));
    check("atomicDec wraps", (unsigned)h_res.i[R_DEC] == e_dec);
    check("atomicCAS loop counter", h_res.i[R_CAS_COUNTER] == TOTAL);
    check("atomicAnd/atomicOr/atomicXor",
          h_res.i[R_AND] == e_and && h_res.i[R_OR] == e_or && h_res.i[R_XOR] == e_xor);
    check("64-bit atomicAdd/atomicMax/atomicMin",
          h_res.u64_add == e_u64_add && h_res.u64_max == e_u64_max && h_res.s64_min == e_s64_min);
    check("atomicCAS float max", h_res.f_max == e_fmax);
    check("atomicMin on float bit patterns", h_res.i[R_FMIN_BITS] == e_fmin_bits);
    {
        double rel_f = fabs((double)h_res.f_sum - e_fsum) / fabs(e_fsum);
        double rel_d = fabs(h_res.d_sum - e_dsum) / (fabs(e_dsum) > 1.0 ? fabs(e_dsum) : 1.0);
        fprintf(stderr, "float sum %.6f (cpu %.6f, rel %.2e), double sum %.12f (cpu %.12f, rel %.2e)\n", h_res.f_sum,
                e_fsum, rel_f, h_res.d_sum, e_dsum, rel_d);
        check("float atomicAdd within 1e-4 relative", rel_f < 1e-4);
        check("double atomicAdd within 1e-12", rel_d < 1e-12);
    }

    /* atomicExch: per slot, {initial} + {writers} == {returned olds} + {final} */
    {
        int ok = 1, s;
        static int want[TOTAL / NUM_SLOTS + 1], got[TOTAL / NUM_SLOTS + 1];
        for (s = 0; s < NUM_SLOTS; s++) {
            int n = 0, m = 0;
            want[n++] = -1 - s;
            got[m++] = h_res.exch_slot[s];
            for (i = s; i < TOTAL; i += NUM_SLOTS) {
                want[n++] = i;
                got[m++] = exch_old[i];
            }
            qsort(want, n, sizeof(int), cmp_int);
            qsort(got, m, sizeof(int), cmp_int);
            if (memcmp(want, got, n * sizeof(int)) != 0) ok = 0;
        }
        check("atomicExch returns every value exactly once", ok);
    }

    /* warp-aggregated append: the list is a permutation of the selected threads */
    {
        int n = h_res.i[R_APPEND_COUNT], ok = (n == e_append), k = 0;
        if (ok) {
            qsort(append_list, n, sizeof(int), cmp_int);
            for (i = 0; i < TOTAL && ok; i++)
                if (hash32(i) % 3u == 0u) ok = (append_list[k++] == i);
        }
        check("warp-aggregated atomic append", ok);
    }

    /* shared-memory atomics */
    {
        unsigned int e_hist[HIST_BINS];
        int ok = 1, b, t;
        memset(e_hist, 0, sizeof e_hist);
        for (b = 0; b < NUM_BLOCKS; b++) {
            unsigned int mx = 0, mn = 0xffffffffu, orv = 0, inc = 0;
            int sum = 0;
            for (t = 0; t < NUM_THREADS; t++) {
                unsigned int h = hash32((unsigned)(b * NUM_THREADS + t) ^ 0xabcdefu);
                e_hist[h % HIST_BINS]++;
                if (h > mx) mx = h;
                if (h < mn) mn = h;
                orv |= 1u << (h % 29u);
                inc = (inc >= 99u) ? 0 : inc + 1;
                sum += (int)(h & 0xff);
            }
            const unsigned int *st = block_stats + 5 * b;
            if (st[0] != mx || st[1] != mn || st[2] != orv || st[3] != inc || st[4] != (unsigned)sum) ok = 0;
        }
        unsigned long long hsum = 0;
        for (b = 0; b < HIST_BINS; b++) {
            if (h_res.hist[b] != e_hist[b]) ok = 0;
            hsum += (unsigned long long)h_res.hist[b] * (b + 1);
        }
        printf("shared histogram weighted sum = %llu\n", hsum);
        check("shared-memory atomics merged into global", ok);
    }

    CHECK(cudaFree(d_res));
    CHECK(cudaFree(d_exch_old));
    CHECK(cudaFree(d_append));
    CHECK(cudaFree(d_block_stats));

    printf("atomics_mix: %s\n", fails == 0 ? "PASSED" : "FAILED");
    return fails == 0 ? 0 : 1;
}
