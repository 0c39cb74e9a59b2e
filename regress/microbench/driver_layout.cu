// Where the driver places memory: prints the addresses cudaMalloc, cudaMallocManaged and a module's
// __managed__ variables get, as offsets from the first of each kind, so that the model's layout
// can follow the driver's (issue 40). Run on the GPU machine; its output is kept beside it
// (driver_layout.h100.txt). A kernel touches both managed variables, so they are checked to work.
// With an argument, `driver_layout OFFSET` instead makes one 1 MiB cudaMalloc (a process's first)
// and reads the word OFFSET bytes from its start (negative: before it) in a kernel: it prints
// whether the read faulted, which tells what the driver maps around the first allocation.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__managed__ int g_first;
__managed__ float g_second;
__managed__ double g_third[1000];

__global__ void touch(int v) {
    g_first += v;
    g_second = float(v) * 0.5f;
    g_third[999] = double(v);
}

static void show(const char* what, const void* base, const void* p) {
    const long long off = static_cast<long long>(reinterpret_cast<const char*>(p) - reinterpret_cast<const char*>(base));
    std::printf("%-28s %#14llx  offset %+lld (%+.4f MiB)  2MiB-aligned %d\n", what, static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)), off,
                double(off) / 1048576.0, int(reinterpret_cast<uintptr_t>(p) % (2u << 20) == 0));
}

__global__ void read_at(const unsigned* p, long long offset, unsigned* out) {
    *out = *reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(p) + offset);
}

static int probe_offset(long long offset) {
    unsigned *p = nullptr, *out = nullptr;
    if (cudaMalloc(&p, size_t(1) << 20) != cudaSuccess || cudaMallocHost(&out, sizeof(unsigned)) != cudaSuccess) return 2;
    read_at<<<1, 1>>>(p, offset, out);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("read at %+lld (%+.4f MiB) from the first allocation: %s\n", offset, double(offset) / 1048576.0,
                e == cudaSuccess ? "no fault" : cudaGetErrorName(e));
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 1) return probe_offset(std::atoll(argv[1]));
    void* d[6] = {};
    const size_t dev_sizes[6] = {size_t(1) << 20, 4, 4096, 100000, size_t(3) << 20, size_t(64) << 20};
    for (int k = 0; k < 6; ++k) cudaMalloc(&d[k], dev_sizes[k]);
    for (int k = 0; k < 6; ++k) {
        char what[64];
        std::snprintf(what, sizeof what, "cudaMalloc %zu", dev_sizes[k]);
        show(what, d[0], d[k]);
    }
    void* m[5] = {};
    const size_t man_sizes[5] = {4, 4, 4096, size_t(1) << 20, size_t(3) << 20};
    for (int k = 0; k < 5; ++k) cudaMallocManaged(&m[k], man_sizes[k]);
    for (int k = 0; k < 5; ++k) {
        char what[64];
        std::snprintf(what, sizeof what, "cudaMallocManaged %zu", man_sizes[k]);
        show(what, m[0], m[k]);
    }
    show("__managed__ g_first", &g_first, &g_first);
    show("__managed__ g_second", &g_first, &g_second);
    show("__managed__ g_third", &g_first, &g_third);
    show("cudaMallocManaged[0] vs var", &g_first, m[0]);
    g_first = 1;
    touch<<<1, 1>>>(6);
    const cudaError_t e = cudaDeviceSynchronize();
    const bool ok = e == cudaSuccess && g_first == 7 && g_second == 3.0f && g_third[999] == 6.0;
    std::printf(ok ? "driver_layout: PASSED\n" : "driver_layout: FAILED (%s)\n", cudaGetErrorString(e));
    return ok ? 0 : 1;
}
