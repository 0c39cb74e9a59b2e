// scan_shape: exclusive prefix sums in the shape of NVIDIA's scan sample at its default size: a
// buffer of 13 * 2^20 / 2 unsigned ints scanned as batches of short arrays (4 to 1024 elements, one
// kernel) and of large ones (2048 to 262,144 elements, three kernels: scan each 1024-element chunk,
// scan the chunks' sums, add them back), each size 101 times (a warm-up and 100 timed runs).
// `--small` scans 2^18 elements 3 times per size (the ctest size). Every result is checked against
// the host's scan; it prints one line per size.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../apps/common/cuda_helpers.h"

constexpr int kThreads = 256;        // each thread holds 4 elements: a block scans 1024
constexpr int kChunk = 4 * kThreads;

// Scans 4 * blockDim elements of `in` per block as independent arrays of `length` (a power of two
// up to 1024); `sums`, when given, receives each chunk's total.
__global__ void scan_chunks(unsigned* out, const unsigned* in, unsigned length, unsigned* sums) {
    __shared__ unsigned s[kChunk];
    const unsigned base = blockIdx.x * kChunk, tid = threadIdx.x;
    const uint4 v = reinterpret_cast<const uint4*>(in + base)[tid];
    // The thread's own four, then an inclusive scan of the threads' totals (Hillis-Steele).
    const unsigned a = v.x, b = a + v.y, c = b + v.z, d = c + v.w;
    s[tid] = d;
    __syncthreads();
    const unsigned per_array = length / 4;   // threads per array (length >= 4)
    for (unsigned off = 1; off < per_array; off <<= 1) {
        const unsigned t = (tid % per_array) >= off ? s[tid - off] : 0;
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }
    const unsigned before = s[tid] - d;
    reinterpret_cast<uint4*>(out + base)[tid] = make_uint4(before, before + a, before + b, before + c);
    if (sums && tid == kThreads - 1) sums[blockIdx.x] = s[tid];
}

// The chunks' totals of each array, scanned: one thread per array (at most 256 chunks each).
__global__ void scan_sums(unsigned* offsets, const unsigned* sums, unsigned per_array, unsigned arrays) {
    const unsigned a = blockIdx.x * blockDim.x + threadIdx.x;
    if (a >= arrays) return;
    unsigned sum = 0;
    for (unsigned k = a * per_array; k < (a + 1) * per_array; ++k) {
        offsets[k] = sum;
        sum += sums[k];
    }
}

__global__ void add_chunk_offsets(unsigned* out, const unsigned* offsets, unsigned chunks_per_array) {
    const unsigned chunk = blockIdx.x;
    if (chunk % chunks_per_array == 0) return;   // the first chunk of each array adds nothing
    const unsigned add = offsets[chunk];
    uint4* p = reinterpret_cast<uint4*>(out + chunk * kChunk) + threadIdx.x;
    uint4 v = *p;
    v.x += add, v.y += add, v.z += add, v.w += add;
    *p = v;
}

int main(int argc, char** argv) {
    const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
    const unsigned n = small ? 1u << 18 : 13u * 1048576u / 2;
    const int runs = small ? 3 : 101;
    std::vector<unsigned> in(n), out(n);
    unsigned seed = 7;
    for (unsigned& x : in) x = (seed = seed * 1103515245u + 12345u) >> 16 & 0xFFFF;
    unsigned *d_in, *d_out, *d_sums, *d_offsets;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_out, n * sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_sums, n / kChunk * sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_offsets, n / kChunk * sizeof(unsigned)));
    checkCudaErrors(cudaMemcpy(d_in, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    std::printf("scan_shape: %u elements, %d runs per size\n", n, runs);
    bool all = true;
    for (unsigned length = 4; length <= 262144; length <<= 1) {
        const unsigned arrays = n / length * length / kChunk * kChunk / length;   // whole chunks of whole arrays
        const unsigned elements = arrays * length, chunks = elements / kChunk;
        if (!chunks) continue;
        for (int k = 0; k < runs; ++k) {
            if (length <= kChunk) {
                scan_chunks<<<chunks, kThreads>>>(d_out, d_in, length, nullptr);
            } else {
                // Each chunk's scan and total; the totals scanned per array; the offsets added back.
                const unsigned per_array = length / kChunk;
                scan_chunks<<<chunks, kThreads>>>(d_out, d_in, kChunk, d_sums);
                scan_sums<<<(arrays + 127) / 128, 128>>>(d_offsets, d_sums, per_array, arrays);
                add_chunk_offsets<<<chunks, kThreads>>>(d_out, d_offsets, per_array);
            }
        }
        checkCudaErrors(cudaGetLastError());
        checkCudaErrors(cudaMemcpy(out.data(), d_out, elements * sizeof(unsigned), cudaMemcpyDeviceToHost));
        bool ok = true;
        for (unsigned a = 0; a < arrays && ok; ++a) {
            unsigned sum = 0;
            for (unsigned i = a * length; i < (a + 1) * length; ++i) {
                if (out[i] != sum) { ok = false; break; }
                sum += in[i];
            }
        }
        all &= ok;
        std::printf("length %6u: %6u arrays, %s\n", length, arrays, ok ? "ok" : "WRONG");
    }
    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_out));
    checkCudaErrors(cudaFree(d_sums));
    checkCudaErrors(cudaFree(d_offsets));
    std::printf("%s\n", all ? "Test passed" : "Test failed");
    return all ? 0 : 1;
}
