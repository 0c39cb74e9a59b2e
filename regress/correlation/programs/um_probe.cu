// The cost of unified memory's page faults, as whole kernels: arrays from cudaMallocManaged,
// written by the host, then read and written by a kernel whose first touch faults their pages over
// to the GPU. Each size is a fresh allocation and its own kernel instance, launched twice: the
// first launch pays the faults and the migration, the second finds the pages on the GPU.
//   um_stream<S>   y[i] += x[i] over two arrays of S KiB each (128 KiB to 64 MiB), every element
//   um_pages<S>    one thread per 64 KiB of a fresh S KiB array adds 1 to its first word: the
//                  faults without the bandwidth
// The results are checked on the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int kBlock = 256;

template <int KiB>
__global__ void um_stream(size_t n, const float* x, float* y) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) y[i] += x[i];
}

template <int KiB>
__global__ void um_pages(size_t pages, unsigned* a) {
    const size_t p = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (p < pages) a[p * (65536 / sizeof(unsigned))] += 1u;
}

static int bad = 0;

static void check(const char* what) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("um_probe: %s: %s\n", what, cudaGetErrorString(e));
        bad = 1;
    }
}

template <int KiB>
static void stream_case(int sms) {
    const size_t n = size_t(KiB) * 1024 / sizeof(float);
    float *x = nullptr, *y = nullptr;
    if (cudaMallocManaged(&x, n * sizeof(float)) != cudaSuccess || cudaMallocManaged(&y, n * sizeof(float)) != cudaSuccess) {
        std::printf("um_probe: cudaMallocManaged failed\n");
        bad = 1;
        return;
    }
    for (size_t i = 0; i < n; ++i) x[i] = float(i % 1000), y[i] = 1.0f;
    const unsigned blocks = unsigned(std::min<size_t>((n + kBlock - 1) / kBlock, size_t(sms) * 8));
    um_stream<KiB><<<blocks, kBlock>>>(n, x, y);
    check("um_stream, first touch");
    um_stream<KiB><<<blocks, kBlock>>>(n, x, y);
    check("um_stream, resident");
    for (size_t i = 0; i < n; i += 997)
        if (y[i] != 1.0f + 2.0f * float(i % 1000)) {
            std::printf("um_probe: um_stream<%d>: y[%zu] = %g\n", KiB, i, double(y[i]));
            bad = 1;
            break;
        }
    cudaFree(x);
    cudaFree(y);
}

template <int KiB>
static void pages_case() {
    const size_t words = size_t(KiB) * 1024 / sizeof(unsigned), pages = size_t(KiB) / 64;
    unsigned* a = nullptr;
    if (cudaMallocManaged(&a, words * sizeof(unsigned)) != cudaSuccess) {
        std::printf("um_probe: cudaMallocManaged failed\n");
        bad = 1;
        return;
    }
    for (size_t i = 0; i < words; ++i) a[i] = 7u;
    const unsigned blocks = unsigned((pages + kBlock - 1) / kBlock);
    um_pages<KiB><<<blocks, kBlock>>>(pages, a);
    check("um_pages, first touch");
    um_pages<KiB><<<blocks, kBlock>>>(pages, a);
    check("um_pages, resident");
    for (size_t p = 0; p < pages; ++p)
        if (a[p * 16384] != 9u || a[p * 16384 + 1] != 7u) {
            std::printf("um_probe: um_pages<%d>: page %zu holds %u\n", KiB, p, a[p * 16384]);
            bad = 1;
            break;
        }
    cudaFree(a);
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    stream_case<128>(sms);
    stream_case<1024>(sms);
    stream_case<8192>(sms);
    stream_case<65536>(sms);
    pages_case<64>();
    pages_case<1024>();
    pages_case<16384>();
    std::printf(bad ? "um_probe: FAILED\n" : "um_probe: PASSED\n");
    return bad;
}
