// CPU reference generator for the bundled regression kernels (regress/kernels/*).
//
// usage: refgen OUTDIR      writes OUTDIR/NAME/ref/*.bin for every kernel
//
// Every input buffer is rebuilt with the same generator (gpusim::gen) and the same
// parameters as in the kernel's manifest.json, and every reference reproduces the
// kernel's arithmetic bit for bit, following the PTX that nvcc emits:
//   - saxpy:  one fma.rn.f32 (x * a + y)                      -> fmaf(x, a, y)
//   - matmul: acc = fma.rn.f32(As[ty][k], Bs[k][tx], acc), k ascending, from 0.0f
//   - vadd:   add.f32 (round to nearest)                      -> a + b in float
// Buffers the kernel leaves untouched keep their initial bytes in the reference.
// If you change a manifest's sizes, seeds or scalar arguments, change them here too.
//
// Build (from the repository root): g++ -std=c++17 -O2 -Isw regress/refgen/refgen.cpp -o refgen
// The float code relies on IEEE single precision without excess precision
// (x86-64 SSE, the default) and on no fp contraction (fmaf is spelled out where needed).

#include "runtime/generators.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using gpusim::gen::ElemType;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes random_buf(size_t bytes, ElemType t, uint64_t seed, double lo, double hi) {
    Bytes b(bytes, 0);
    gpusim::gen::fill_random(b, t, seed, lo, hi);
    return b;
}

Bytes iota_buf(size_t bytes, ElemType t, double start, double step) {
    Bytes b(bytes, 0);
    gpusim::gen::fill_iota(b, t, start, step);
    return b;
}

Bytes fill_buf(size_t bytes, uint8_t v) { return Bytes(bytes, v); }

template <typename T> T get(const Bytes& b, size_t i) {
    T v;
    std::memcpy(&v, &b[i * sizeof(T)], sizeof(T));
    return v;
}

template <typename T> void put(Bytes& b, size_t i, T v) { std::memcpy(&b[i * sizeof(T)], &v, sizeof(T)); }

void write_file(const fs::path& path, const Bytes& data) {
    fs::create_directories(path.parent_path());
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error("cannot open " + path.string() + " for writing");
    f.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    if (!f) throw std::runtime_error("write failed: " + path.string());
    std::cout << path.string() << " (" << data.size() << " bytes)\n";
}

// ---------------------------------------------------------------- vadd
// grid 32 x block 128 = 4096 threads, n = 4000: the last 96 elements of d stay 0xCD.
void ref_vadd(const fs::path& out) {
    const size_t bytes = 16384;
    const uint32_t n = 4000;
    Bytes a = random_buf(bytes, ElemType::f32, 1, -1.0, 1.0);
    Bytes b = iota_buf(bytes, ElemType::f32, 0.0, 0.5);
    Bytes d = fill_buf(bytes, 205);
    for (uint32_t i = 0; i < n; ++i) {
        float r = get<float>(a, i) + get<float>(b, i);
        put(d, i, r);
    }
    write_file(out / "vadd" / "ref" / "vadd.bin", d);
}

// ---------------------------------------------------------------- saxpy
// grid 12 x block 256 = 3072 threads, n = 3000: y[3000..3071] keep their random values.
void ref_saxpy(const fs::path& out) {
    const size_t bytes = 12288;
    const uint32_t n = 3000;
    const float a = float(1.7);  // manifest passes {"f32": 1.7}
    Bytes x = random_buf(bytes, ElemType::f32, 2, -10.0, 10.0);
    Bytes y = random_buf(bytes, ElemType::f32, 3, -10.0, 10.0);
    for (uint32_t i = 0; i < n; ++i) {
        // PTX: fma.rn.f32 %f4, x, a, y
        put(y, i, std::fmaf(get<float>(x, i), a, get<float>(y, i)));
    }
    write_file(out / "saxpy" / "ref" / "y.bin", y);
}

// ---------------------------------------------------------------- reduce
// grid 32 x block 256, n = 8000 (the last block is partial); sums wrap mod 2^32.
void ref_reduce(const fs::path& out) {
    const size_t in_bytes = 32768;
    const uint32_t n = 8000, block = 256, grid = 32;
    Bytes in = random_buf(in_bytes, ElemType::u32, 4, 0.0, 4294967295.0);
    Bytes res = fill_buf(grid * 4, 0);
    for (uint32_t b = 0; b < grid; ++b) {
        uint32_t sum = 0;
        for (uint32_t t = 0; t < block; ++t) {
            uint32_t i = b * block + t;
            if (i < n) sum += get<uint32_t>(in, i);
        }
        put(res, b, sum);
    }
    write_file(out / "reduce" / "ref" / "out.bin", res);
}

// ---------------------------------------------------------------- matmul
// N = 64, grid (4, 4) x block (16, 16), tiles of 16.
void ref_matmul(const fs::path& out) {
    const uint32_t N = 64;
    const size_t bytes = size_t(N) * N * 4;
    Bytes A = random_buf(bytes, ElemType::f32, 5, -1.0, 1.0);
    Bytes B = random_buf(bytes, ElemType::f32, 6, -1.0, 1.0);
    Bytes C = fill_buf(bytes, 0);
    for (uint32_t row = 0; row < N; ++row) {
        for (uint32_t col = 0; col < N; ++col) {
            float acc = 0.0f;
            // Tile loop then the unrolled k loop: overall k ascending, one fma each.
            for (uint32_t k = 0; k < N; ++k)
                acc = std::fmaf(get<float>(A, size_t(row) * N + k), get<float>(B, size_t(k) * N + col), acc);
            put(C, size_t(row) * N + col, acc);
        }
    }
    write_file(out / "matmul" / "ref" / "C.bin", C);
}

// ---------------------------------------------------------------- divergence
// grid 16 x block 128 = 2048 threads, n = 2000, max_iter = 150.
// Threads with i >= n or in[i] % 13 == 0 return early: out keeps its 0xAB fill.
void ref_divergence(const fs::path& out) {
    const size_t bytes = 8192;
    const uint32_t n = 2000, max_iter = 150;
    Bytes in = random_buf(bytes, ElemType::u32, 7, 0.0, 200000.0);
    Bytes res = fill_buf(bytes, 0xAB);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t x = get<uint32_t>(in, i);
        if (x % 13u == 0u) continue;
        uint32_t steps = 0, acc = 0;
        for (uint32_t it = 0; it < max_iter; ++it) {
            if (x == 1u) break;
            if (x & 1u) {
                x = 3u * x + 1u;
                acc += x;
            } else {
                x >>= 1;
                if ((x & 3u) == 0u) continue;
                acc ^= x << (it & 7u);
            }
            ++steps;
        }
        put(res, i, (x == 1u) ? acc * 31u + steps : ~steps);
    }
    write_file(out / "divergence" / "ref" / "out.bin", res);
}

// ---------------------------------------------------------------- histogram
// grid 8 x block 128 (grid-stride), n = 16000 of 16384 input bytes, values in [16, 199].
void ref_histogram(const fs::path& out) {
    const size_t in_bytes = 16384;
    const uint32_t n = 16000;
    Bytes in = random_buf(in_bytes, ElemType::u8, 8, 16.0, 199.0);
    uint32_t bins[256] = {};
    for (uint32_t i = 0; i < n; ++i) ++bins[in[i]];
    Bytes res = fill_buf(256 * 4, 0);
    for (uint32_t b = 0; b < 256; ++b) put(res, b, bins[b]);
    write_file(out / "histogram" / "ref" / "bins.bin", res);
}

// ---------------------------------------------------------------- texref
// 16 x 8 float texels t(x, y) = 16y + x. img: linear filter at (x + 0.75, y + 0.5), weights 3/4
// and 1/4 (exact in float), the right neighbour clamped at x = 15. raw: point sampled, t(x, y).
void ref_texref(const fs::path& out) {
    const int w = 16, h = 8;
    Bytes o = fill_buf(1024, 205), s(512, 0);
    for (int i = 0; i < w * h; ++i) {
        const int x = i % w, y = i / w;
        const float t0 = float(y * w + x), t1 = float(y * w + std::min(x + 1, w - 1));
        const float img = t0 * 0.75f + t1 * 0.25f, raw = t0;
        put<float>(o, i, img);
        put<float>(o, 128 + i, raw);
        put<float>(s, i, img + raw);
    }
    write_file(out / "texref" / "ref" / "out.bin", o);
    write_file(out / "texref" / "ref" / "s.bin", s);
}

// ---------------------------------------------------------------- texquery
// The attributes the PTX ISA gives txq and suq (channel types and orders in OpenCL's numbering:
// CL_UNORM_INT8 0x10D2, CL_RGBA 0x10B5, CL_UNSIGNED_INT32 0x10DC; address modes in CUDA's:
// mirror 2), istypep's answers, and the surface after 64 threads' sured add, max and min.
void ref_texquery(const fs::path& out) {
    Bytes o = fill_buf(64, 205), s(64, 0);
    const uint32_t answers[15] = {5, 3, 1, 0x10D2, 0x10B5, 1, 1, 2, 2, 8, 2, 0x10DC, 1, 0, 1};
    for (int k = 0; k < 15; ++k) put<uint32_t>(o, k, answers[k]);
    for (int x = 0; x < 4; ++x) {
        uint32_t sum = 0, max = 0;
        int32_t min = 0;
        for (int tid = x; tid < 64; tid += 4) {
            sum += uint32_t(tid);
            max = std::max(max, uint32_t(tid) * 7);
            min = std::min(min, tid - 40);
        }
        put<uint32_t>(s, x, sum);
        put<uint32_t>(s, 4 + x, max);
        put<int32_t>(s, 8 + x, min);
    }
    write_file(out / "texquery" / "ref" / "out.bin", o);
    write_file(out / "texquery" / "ref" / "s.bin", s);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n  writes OUTDIR/NAME/ref/*.bin for every regression kernel\n", argv[0]);
        return 2;
    }
    try {
        const fs::path out = argv[1];
        ref_vadd(out);
        ref_saxpy(out);
        ref_reduce(out);
        ref_matmul(out);
        ref_divergence(out);
        ref_histogram(out);
        ref_texref(out);
        ref_texquery(out);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "refgen: %s\n", e.what());
        return 1;
    }
    return 0;
}
