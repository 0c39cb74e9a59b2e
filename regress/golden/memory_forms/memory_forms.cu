// Golden family "memory_forms": the LD/ST unit's forms of sm_80 to sm_90 beside plain loads and
// stores: cache policies and hints (createpolicy, .L2::cache_hint, .L1::evict_*, .L1::no_allocate,
// prefetch, applypriority) around loads and stores whose values must come through unchanged, and
// the f16 and bf16 atomic adds (scalar and pairs; global, shared and generic). Built for
// compute_90. Inputs: a, b and c random words (raw bits: f16 and bf16 halves of every kind).
// Outputs: d[i] as each kernel says; an atomic's target is the low word of d[i] (set from a[i]),
// and the value it returned is written above it.
#include "golden.cuh"
GOLDEN_FAMILY("memory_forms", kU32, kU32, kU32)

typedef unsigned short u16;

// Loads and stores with cache policies and hints: d[i] = a[i] + c[i] loaded through the hinted
// forms, stored through them, with prefetches and priorities on the way.
GOLDEN_KERNEL(hinted_loads_and_stores) {
    unsigned i = GOLDEN_TID;
    u64 pol1, pol2, pol3;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol1));
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %0, 0.5;" : "=l"(pol2));
    asm volatile("createpolicy.range.L2::evict_last.L2::evict_first.b64 %0, [%1], 256, 4096;" : "=l"(pol3) : "l"(a));
    asm volatile("prefetch.global.L2 [%0];" :: "l"(&a[i]));
    asm volatile("prefetch.global.L1 [%0];" :: "l"(&b[i]));
    asm volatile("prefetch.L1 [%0];" :: "l"(&c[i]));
    asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(&a[i]));
    asm volatile("prefetchu.L1 [%0];" :: "l"(&b[i]));
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(&a[i & ~15u]));
    u64 x, y, z;
    asm volatile("ld.global.L2::cache_hint.u64 %0, [%1], %2;" : "=l"(x) : "l"(&a[i]), "l"(pol1));
    asm volatile("ld.global.L1::evict_last.u64 %0, [%1];" : "=l"(y) : "l"(&c[i]));
    asm volatile("ld.global.L1::no_allocate.L2::256B.u64 %0, [%1];" : "=l"(z) : "l"(&b[i]));
    asm volatile("st.global.L1::no_allocate.u64 [%0], %1;" :: "l"(&d[i]), "l"(x + y) : "memory");
    u64 w;
    asm volatile("ld.global.L2::cache_hint.u64 %0, [%1], %2;" : "=l"(w) : "l"(&d[i]), "l"(pol3) : "memory");
    asm volatile("st.global.L2::cache_hint.u64 [%0], %1, %2;" :: "l"(&d[i]), "l"(w ^ (z << 1)), "l"(pol2) : "memory");
}

// One atomic on the low word of d[i] (set from a[i]; b[i] the operand): d[i] = final | old << 32.
#define ATOM32(name, ins)                                                                         \
    GOLDEN_KERNEL(name) {                                                                        \
        unsigned i = GOLDEN_TID;                                                                 \
        u32* t = (u32*)&d[i];                                                                    \
        t[0] = (u32)a[i];                                                                        \
        u32 old;                                                                                 \
        asm volatile(ins " %0, [%1], %2;" : "=r"(old) : "l"(t), "r"((u32)b[i]) : "memory");      \
        t[1] = old;                                                                              \
    }
#define ATOM16(name, ins)                                                                         \
    GOLDEN_KERNEL(name) {                                                                        \
        unsigned i = GOLDEN_TID;                                                                 \
        u16* t = (u16*)&d[i];                                                                    \
        ((u32*)t)[0] = (u32)a[i];                                                                \
        u16 old;                                                                                 \
        asm volatile(ins " %0, [%1], %2;" : "=h"(old) : "l"(t), "h"((u16)b[i]) : "memory");      \
        ((u32*)t)[1] = old;                                                                      \
    }
#define RED32(name, ins)                                                                          \
    GOLDEN_KERNEL(name) {                                                                        \
        unsigned i = GOLDEN_TID;                                                                 \
        u32* t = (u32*)&d[i];                                                                    \
        t[0] = (u32)a[i];                                                                        \
        asm volatile(ins " [%0], %1;" :: "l"(t), "r"((u32)b[i]) : "memory");                     \
    }

ATOM32(atom_add_f16x2, "atom.global.add.noftz.f16x2")
ATOM32(atom_add_bf16x2, "atom.global.add.noftz.bf16x2")
ATOM16(atom_add_f16, "atom.global.add.noftz.f16")
ATOM16(atom_add_bf16, "atom.global.add.noftz.bf16")
ATOM32(atom_add_f16x2_generic, "atom.add.noftz.f16x2")
RED32(red_add_f16x2, "red.global.add.noftz.f16x2")
RED32(red_add_bf16x2, "red.global.add.noftz.bf16x2")

// Shared memory, contended: every thread of a block adds a small integer pair to one f16x2 word
// (0..15 each) and one bf16x2 word (0 or 1 each): the sums stay exact, so any order gives the
// same. Then each thread adds c[i] ^ (c[i] >> 29) to its own word. d[i] = the word (threads 0 and 1: the shared
// sums) | the old value of its own word << 32.
GOLDEN_KERNEL(atom_shared_f16x2) {
    __shared__ u32 s[2 + 128];
    unsigned i = GOLDEN_TID, t = threadIdx.x;
    if (t < 2) s[t] = 0;
    s[2 + t] = (u32)a[i];
    __syncthreads();
    u32 v = (u32)b[i];
    u16 flo, fhi, blo, bhi;
    asm("cvt.rn.f16.u32 %0, %1;" : "=h"(flo) : "r"(v & 15));
    asm("cvt.rn.f16.u32 %0, %1;" : "=h"(fhi) : "r"((v >> 16) & 15));
    asm("cvt.rn.bf16.u32 %0, %1;" : "=h"(blo) : "r"((v >> 4) & 1));
    asm("cvt.rn.bf16.u32 %0, %1;" : "=h"(bhi) : "r"((v >> 20) & 1));
    const u32 fpair = flo | ((u32)fhi << 16), bpair = blo | ((u32)bhi << 16);
    asm volatile("red.shared.add.noftz.f16x2 [%0], %1;" :: "r"((u32)__cvta_generic_to_shared(&s[0])), "r"(fpair) : "memory");
    asm volatile("red.shared.add.noftz.bf16x2 [%0], %1;" :: "r"((u32)__cvta_generic_to_shared(&s[1])), "r"(bpair) : "memory");
    u32 old, own = (u32)c[i] ^ (u32)(c[i] >> 29);
    asm volatile("atom.shared.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "r"((u32)__cvta_generic_to_shared(&s[2 + t])), "r"(own) : "memory");
    __syncthreads();
    d[i] = (u64)(t < 2 ? s[t] : s[2 + t]) | ((u64)old << 32);
}

GOLDEN_CASES {
    {"hinted_loads_and_stores", 16, 128, ""},
    {"atom_add_f16x2", 16, 128, ""},
    {"atom_add_bf16x2", 16, 128, ""},
    {"atom_add_f16", 16, 128, ""},
    {"atom_add_bf16", 16, 128, ""},
    {"atom_add_f16x2_generic", 16, 128, ""},
    {"red_add_f16x2", 16, 128, ""},
    {"red_add_bf16x2", 16, 128, ""},
    {"atom_shared_f16x2", 16, 128, ""},
};
GOLDEN_MAIN
