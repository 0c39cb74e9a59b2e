// Streams and events: a chunked pipeline (upload, kernel, download per chunk) run once in one
// stream and once spread over two, timed with events; stream queries and synchronization,
// cross-stream dependencies through cudaStreamWaitEvent.
#include <cmath>
#include <cstdlib>

#include "check.h"

__global__ void work(float* p, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = p[i];
    for (int r = 0; r < rounds; ++r) v = v * 1.0001f + 0.5f;
    p[i] = v;
}

// nvcc contracts the kernel's multiply-add into one fma.rn.f32.
static float expected(float v, int rounds) {
    for (int r = 0; r < rounds; ++r) v = std::fmaf(v, 1.0001f, 0.5f);
    return v;
}

// Runs `chunks` chunks through `nstreams` streams; returns the elapsed time in ms.
static float pipeline(float* host, float* dev, int n, int chunks, cudaStream_t* streams, int nstreams, int rounds) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const int per = n / chunks;
    CHECK(cudaEventRecord(start, 0));
    for (int c = 0; c < chunks; ++c) {
        cudaStream_t s = streams[c % nstreams];
        float* h = host + c * per;
        float* d = dev + c * per;
        CHECK(cudaMemcpyAsync(d, h, per * sizeof(float), cudaMemcpyHostToDevice, s));
        work<<<(per + 255) / 256, 256, 0, s>>>(d, per, rounds);
        CHECK(cudaMemcpyAsync(h, d, per * sizeof(float), cudaMemcpyDeviceToHost, s));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    EXPECT(cudaEventQuery(stop) == cudaSuccess);
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms;
}

int main() {
    const int n = 1 << 18, chunks = 8, rounds = 64;
    float *host, *dev;
    CHECK(cudaMallocHost(&host, n * sizeof(float)));
    CHECK(cudaMalloc(&dev, n * sizeof(float)));
    // Both blocking: the events recorded in the default stream wait for their work.
    cudaStream_t s[2], side;
    CHECK(cudaStreamCreate(&s[0]));
    CHECK(cudaStreamCreateWithFlags(&s[1], cudaStreamDefault));
    CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));

    for (int i = 0; i < n; ++i) host[i] = float(i % 1000);
    float serial = pipeline(host, dev, n, chunks, s, 1, rounds);
    for (int i = 0; i < n; ++i) EXPECT(host[i] == expected(float(i % 1000), rounds));
    for (int i = 0; i < n; ++i) host[i] = float(i % 1000);
    float overlapped = pipeline(host, dev, n, chunks, s, 2, rounds);
    for (int i = 0; i < n; ++i) EXPECT(host[i] == expected(float(i % 1000), rounds));
    EXPECT(serial > 0 && overlapped > 0);
    EXPECT(overlapped <= serial * 1.05f);
    if (std::getenv("STREAMS_VERBOSE")) std::printf("serial %.3f ms, two streams %.3f ms\n", serial, overlapped);

    // A dependency between streams: a non-blocking stream waits for an event recorded after a
    // kernel in s[0].
    cudaEvent_t ready;
    CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    for (int i = 0; i < 1024; ++i) host[i] = 1.0f;
    CHECK(cudaMemcpyAsync(dev, host, 1024 * sizeof(float), cudaMemcpyHostToDevice, s[0]));
    work<<<4, 256, 0, s[0]>>>(dev, 1024, 1000);
    CHECK(cudaEventRecord(ready, s[0]));
    CHECK(cudaStreamWaitEvent(side, ready, 0));
    CHECK(cudaMemcpyAsync(host, dev, 1024 * sizeof(float), cudaMemcpyDeviceToHost, side));
    CHECK(cudaStreamSynchronize(side));
    EXPECT(cudaStreamQuery(side) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s[0]));
    EXPECT(cudaStreamQuery(s[0]) == cudaSuccess);
    for (int i = 0; i < 1024; ++i) EXPECT(host[i] == expected(1.0f, 1000));
    std::printf("streams: dependent result %.4f\n", host[0]);

    CHECK(cudaEventDestroy(ready));
    CHECK(cudaStreamDestroy(s[0]));
    CHECK(cudaStreamDestroy(s[1]));
    CHECK(cudaStreamDestroy(side));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFreeHost(host));
    CHECK(cudaFree(dev));
    std::printf("streams: ok\n");
    return 0;
}
