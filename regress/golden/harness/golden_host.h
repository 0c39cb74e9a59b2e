// Host side of the capture harness: input generation, the driver-API launch of the committed PTX,
// and the files the model's regression test reads. Included by golden.cuh for host compilation only.
#pragma once

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace golden {

inline void check(CUresult r, const char* what, const char* detail = "") {
    if (r == CUDA_SUCCESS) return;
    const char* msg = nullptr;
    cuGetErrorString(r, &msg);
    std::fprintf(stderr, "golden: %s %s failed: %s\n", what, detail, msg ? msg : "unknown error");
    std::exit(1);
}

inline u64 splitmix64(u64 x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Edge values per input kind; random values fill the rest of each array.
inline std::vector<u64> edges(GoldenInput kind) {
    switch (kind) {
    case kU32:
        return {0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000,
                0xFFFF, 0x10000, 0x7FFFFF, 0x800000, 0xFFFFFF, 0x1000000, 0x7FFFFFFF, 0x80000000, 0x80000001,
                0xFFFFFFFE, 0xFFFFFFFF, 0x55555555, 0xAAAAAAAA, 0x01020304, 0x80FF7F01, 0xFFFF8000};
    case kU64:
        return {0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x7FFFFFFF, 0x80000000,
                0xFFFFFFFF, 0x100000000ull, 0x1FFFFFFFFull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull,
                0x8000000000000001ull, 0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFFull, 0x123456789ABCDEF0ull,
                0xFFFFFFFF80000000ull, 0x00000000FFFF0000ull, 0x5555555555555555ull};
    case kF32:
        return {0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3FC00000, 0xC0200000,
                0x40400000, 0x40490FDB, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC01234,
                0x00000001, 0x007FFFFF, 0x80000001, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x4F000000,
                0xCF000000, 0x4F800000, 0x4F7FFFFF, 0x4EFFFFFF, 0x501502F9, 0xD01502F9, 0x3EFFFFFF, 0x477FE000,
                0x477FF000, 0x0DA24260, 0x33800000, 0x3F7FFFFF, 0x5F000000, 0xDF000000};
    case kF64:
        return {0x0000000000000000ull, 0x8000000000000000ull, 0x3FF0000000000000ull, 0xBFF0000000000000ull,
                0x3FE0000000000000ull, 0xBFE0000000000000ull, 0x3FF8000000000000ull, 0xC004000000000000ull,
                0x400921FB54442D18ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x7FF8000000000000ull,
                0xFFF8000000000000ull, 0x7FF0000000000001ull, 0x7FF8000000001234ull, 0x0000000000000001ull,
                0x000FFFFFFFFFFFFFull, 0x8000000000000001ull, 0x0010000000000000ull, 0x7FEFFFFFFFFFFFFFull,
                0xFFEFFFFFFFFFFFFFull, 0x41E0000000000000ull, 0xC1E0000000000000ull, 0x41F0000000000000ull,
                0x43E0000000000000ull, 0xC3E0000000000000ull, 0x43F0000000000000ull, 0x47EFFFFFE0000000ull,
                0x47EFFFFFF0000000ull, 0x3810000000000000ull, 0x36A0000000000000ull, 0x3FDFFFFFFFFFFFFFull,
                0x41DFFFFFFFC00000ull, 0x3FF0000000000001ull, 0x40F0000000000000ull};
    case kF16:
        return {0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x3E00, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01,
                0xFE00, 0x0001, 0x03FF, 0x8001, 0x0400, 0x5640, 0x4248, 0x3555};
    case kBytes:
        return {0x00000000, 0xFFFFFFFF, 0x7F7F7F7F, 0x80808080, 0x01010101, 0x7F807F80, 0x80FF017F, 0x0001FFFE,
                0xFFFE0001, 0x7FFF8000, 0x80007FFF, 0x11223344, 0xAABBCCDD, 0x00FF00FF, 0xFF00FF00, 0x01FF03FD,
                0x0A0B0C0D, 0x0D0C0B0A, 0x12345678, 0xFEDCBA98};
    case kSmall:
        return {0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 30, 31, 32, 33};
    }
    return {0};
}

// Random values of a kind: raw bits half the time, moderate magnitudes the other half, so that
// sums and products are not dominated by overflow.
inline u64 random_value(GoldenInput kind, u64 r) {
    bool raw = (r >> 63) != 0;
    switch (kind) {
    case kU32:
    case kBytes:
        return raw ? (r & 0xFFFFFFFFull) : (r & 0xFFFFull) - 0x8000ull;
    case kU64:
        return raw ? r : (u64)(s64)(int)(r & 0xFFFFFFFF);
    case kF32: {
        if (raw) return r & 0xFFFFFFFFull;
        u64 exp = 127 - 12 + ((r >> 23) % 25);  // 2^-12 .. 2^12
        return (r & 0x807FFFFFull) | (exp << 23);
    }
    case kF64: {
        if (raw) return r;
        u64 exp = 1023 - 24 + ((r >> 52) % 49);
        return (r & 0x800FFFFFFFFFFFFFull) | (exp << 52);
    }
    case kF16:
        return r & 0xFFFF;
    case kSmall:
        return r % 40;
    }
    return r;
}

// Array k (0 = a, 1 = b, 2 = c): the edge values crossed with each other, then random values.
inline std::vector<u64> make_input(const GoldenInput* kinds, int k) {
    std::vector<u64> e[3] = {edges(kinds[0]), edges(kinds[1]), edges(kinds[2])};
    size_t cross = e[0].size() * e[1].size();
    if (cross > kGoldenN / 2) cross = kGoldenN / 2;
    std::vector<u64> out(kGoldenN);
    for (size_t i = 0; i < out.size(); ++i) {
        if (i < cross) {
            size_t idx = k == 0 ? i % e[0].size() : k == 1 ? (i / e[0].size()) % e[1].size() : (i * 5 + i / 7) % e[2].size();
            out[i] = e[k][idx];
        } else {
            out[i] = random_value(kinds[k], splitmix64(splitmix64(0x601DEull + k) ^ i));
        }
    }
    return out;
}

inline void write_file(const std::string& path, const void* data, size_t bytes) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, bytes, f) != bytes) {
        std::fprintf(stderr, "golden: cannot write %s\n", path.c_str());
        std::exit(1);
    }
    std::fclose(f);
}

inline std::string read_text(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "golden: cannot read %s\n", path.c_str());
        std::exit(1);
    }
    std::string s;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    return s;
}

} // namespace golden

// Usage: capture <folder holding <family>.ptx>. Writes in/, ref/ and manifest.json there.
inline int golden_main(int argc, char** argv, const char* family, const GoldenInput* kinds,
                       const GoldenCase* cases, size_t ncases) {
    using namespace golden;
    std::string dir = argc > 1 ? argv[1] : ".";
    std::string ptx = read_text(dir + "/" + family + ".ptx");
    check(cuInit(0), "cuInit");
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuCtxCreate(&ctx, nullptr, 0, dev), "cuCtxCreate");
    check(cuModuleLoadData(&mod, ptx.c_str()), "cuModuleLoadData", family);

    const size_t bytes = kGoldenN * sizeof(u64);
    CUdeviceptr buf[4];
    const char* names[3] = {"a", "b", "c"};
    std::string mkdir = "mkdir -p '" + dir + "/in' '" + dir + "/ref'";
    if (std::system(mkdir.c_str()) != 0) return 1;
    for (int k = 0; k < 4; ++k) check(cuMemAlloc(&buf[k], bytes), "cuMemAlloc");
    for (int k = 0; k < 3; ++k) {
        std::vector<u64> in = make_input(kinds, k);
        check(cuMemcpyHtoD(buf[k], in.data(), bytes), "cuMemcpyHtoD");
        write_file(dir + "/in/" + names[k] + ".bin", in.data(), bytes);
    }

    std::string m = "{\n  \"module\": \"" + std::string(family) + ".ptx\",\n";
    char devname[256] = {0};
    cuDeviceGetName(devname, sizeof devname, dev);
    int drv = 0;
    cuDriverGetVersion(&drv);
    m += "  \"description\": \"Golden data captured by " + std::string(family) + ".cu on " + devname +
         " (driver API " + std::to_string(drv) + "); do not edit.\",\n  \"buffers\": [\n";
    for (int k = 0; k < 3; ++k)
        m += "    {\"name\": \"" + std::string(names[k]) + "\", \"bytes\": " + std::to_string(bytes) +
             ", \"init\": {\"file\": \"in/" + names[k] + ".bin\"}},\n";
    std::string launches;
    std::vector<u64> out(kGoldenN);
    for (size_t i = 0; i < ncases; ++i) {
        const GoldenCase& gc = cases[i];
        if (gc.grid * gc.block > (unsigned)kGoldenN) {
            std::fprintf(stderr, "golden: case %s launches more than %d threads\n", gc.name, kGoldenN);
            return 1;
        }
        CUfunction fn;
        check(cuModuleGetFunction(&fn, mod, gc.name), "cuModuleGetFunction", gc.name);
        check(cuMemsetD8(buf[3], 0, bytes), "cuMemsetD8");
        void* args[4] = {&buf[0], &buf[1], &buf[2], &buf[3]};
        check(cuLaunchKernel(fn, gc.grid, 1, 1, gc.block, 1, 1, 0, nullptr, args, nullptr), "cuLaunchKernel", gc.name);
        check(cuCtxSynchronize(), "kernel", gc.name);
        check(cuMemcpyDtoH(out.data(), buf[3], bytes), "cuMemcpyDtoH");
        write_file(dir + "/ref/" + gc.name + ".bin", out.data(), bytes);

        std::string d = std::string("d_") + gc.name;
        m += "    {\"name\": \"" + d + "\", \"bytes\": " + std::to_string(bytes) + "}" + (i + 1 < ncases ? ",\n" : "\n");
        launches += "    {\"kernel\": \"" + std::string(gc.name) + "\", \"grid\": [" + std::to_string(gc.grid) +
                    "], \"block\": [" + std::to_string(gc.block) + "],\n     \"args\": [{\"buffer\": \"a\"}, " +
                    "{\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"buffer\": \"" + d + "\"}],\n" +
                    "     \"expect\": [{\"buffer\": \"" + d + "\", \"file\": \"ref/" + gc.name + ".bin\"" +
                    (gc.tolerance[0] ? std::string(", \"tolerance\": ") + gc.tolerance : std::string()) + "}]}" +
                    (i + 1 < ncases ? ",\n" : "\n");
    }
    m += "  ],\n  \"launches\": [\n" + launches + "  ]\n}\n";
    write_file(dir + "/manifest.json", m.data(), m.size());
    std::printf("%s: %zu cases captured on %s\n", family, ncases, devname);
    return 0;
}
