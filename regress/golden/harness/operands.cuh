// Device helpers of the tensor-core golden families (mma, wmma): random operand values shaped
// into a floating-point format, so that sums are neither all overflow nor all cancellation.
#pragma once

__device__ __forceinline__ u64 mix64(u64 x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// An exponent field of `bits` bits for the mode: narrow = bias-2 .. bias+2; wide = 1 .. most of
// the range; sub = 0 .. 2; special = narrow, but one element in eight all zeros or all ones.
__device__ __forceinline__ u32 exponent(u32 e, u32 pick, int bits, int mode) {
    u32 bias = (1u << (bits - 1)) - 1, top = (1u << bits) - 1;
    switch (mode) {
    case 1: return bits <= 5 ? e % top : bias / 2 + e % bias;
    case 2: return e % 3;
    case 3: if ((pick & 7) == 0) return (pick & 8) ? top : 0; return bias - 2 + e % 5;
    default: return bias - 2 + e % 5;
    }
}

// One floating-point element: sign, exponent and fraction from r, the exponent shaped.
__device__ __forceinline__ u64 element(u64 r, int ebits, int fbits, int mode) {
    u64 frac = r & ((1ull << fbits) - 1);
    u32 e = exponent((u32)(r >> fbits), (u32)(r >> 40), ebits, mode);
    u64 sign = (r >> 63) & 1;
    return (sign << (ebits + fbits)) | ((u64)e << fbits) | frac;
}
