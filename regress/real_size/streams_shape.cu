// streams_shape: kernels overlapped with copies on streams, in the shape of NVIDIA's simpleStreams
// sample run as its help asks (a sync method given: 100 repetitions, its steady state): 16 Mi
// ints (64 MiB) of page-aligned host memory pinned with cudaHostRegister, a kernel that adds a
// factor to each element 5 times, and 100 repetitions of the whole array done two ways: the
// kernel then the download in the default stream, and in 4 streams, each with its quarter's
// kernel and download (after the download and the kernel once alone). `--small` does 256 Ki ints
// twice (the ctest size).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#include <cuda_runtime.h>

#include "../apps/common/cuda_helpers.h"

constexpr int kStreams = 4, kIterations = 5;

__global__ void add_factor(int* data, const int* factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < kIterations; ++k) data[i] += *factor;
}

static bool all_equal(const int* a, int n, int value) {
    for (int i = 0; i < n; ++i)
        if (a[i] != value) return false;
    return true;
}

int main(int argc, char** argv) {
    const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
    const int n = small ? 1 << 18 : 16 << 20, reps = small ? 2 : 100;
    const size_t bytes = size_t(n) * sizeof(int);
    int *data, *factor;
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return 1;
    int* host = static_cast<int*>(mapped);
    checkCudaErrors(cudaHostRegister(host, bytes, cudaHostRegisterMapped));
    checkCudaErrors(cudaMalloc(&data, bytes));
    checkCudaErrors(cudaMalloc(&factor, sizeof(int)));
    const int c = 5;
    checkCudaErrors(cudaMemcpy(factor, &c, sizeof(int), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(data, 0, bytes));
    cudaStream_t streams[kStreams];
    for (cudaStream_t& s : streams) checkCudaErrors(cudaStreamCreate(&s));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    const int threads = 512, blocks = (n + threads - 1) / threads;
    std::printf("streams_shape: %d ints, %d repetitions, %d streams\n", n, reps, kStreams);

    // The download alone, then the kernel alone.
    checkCudaErrors(cudaEventRecord(start));
    checkCudaErrors(cudaMemcpyAsync(host, data, bytes, cudaMemcpyDeviceToHost, streams[0]));
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    std::printf("download alone: %s\n", all_equal(host, n, 0) ? "zeros, ok" : "WRONG");
    checkCudaErrors(cudaMemset(data, 0, bytes));
    add_factor<<<blocks, threads>>>(data, factor, n);
    checkCudaErrors(cudaDeviceSynchronize());

    // Non-streamed: the kernel and the download one after the other, reps times.
    checkCudaErrors(cudaMemset(data, 0, bytes));
    for (int k = 0; k < reps; ++k) {
        add_factor<<<blocks, threads>>>(data, factor, n);
        checkCudaErrors(cudaMemcpy(host, data, bytes, cudaMemcpyDeviceToHost));
    }
    const bool serial_ok = all_equal(host, n, reps * kIterations * c);

    // Streamed: each stream's quarter, its kernel then its download, reps times.
    checkCudaErrors(cudaMemset(data, 0, bytes));
    const int part = n / kStreams;
    for (int k = 0; k < reps; ++k)
        for (int s = 0; s < kStreams; ++s) {
            add_factor<<<(part + threads - 1) / threads, threads, 0, streams[s]>>>(data + s * part, factor, part);
            checkCudaErrors(cudaMemcpyAsync(host + s * part, data + s * part, size_t(part) * sizeof(int), cudaMemcpyDeviceToHost, streams[s]));
        }
    checkCudaErrors(cudaDeviceSynchronize());
    const bool streamed_ok = all_equal(host, n, reps * kIterations * c);
    std::printf("kernel then download, %d times: %s\n", reps, serial_ok ? "ok" : "WRONG");
    std::printf("%d streams, %d times: %s\n", kStreams, reps, streamed_ok ? "ok" : "WRONG");
    for (cudaStream_t s : streams) checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaHostUnregister(host));
    munmap(mapped, bytes);
    checkCudaErrors(cudaFree(data));
    checkCudaErrors(cudaFree(factor));
    std::printf("%s\n", serial_ok && streamed_ok ? "Test passed" : "Test failed");
    return serial_ok && streamed_ok ? 0 : 1;
}
