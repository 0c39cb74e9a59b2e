// Host <-> device copy bandwidth, pinned and pageable, timed with events (bandwidthTest's
// method). Prints GB/s, so its output is not compared with a real GPU's; it checks that pinned
// copies are at least as fast as pageable ones.
#include <cstdlib>
#include <vector>

#include "check.h"

static float time_copies(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, int reps) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a, 0));
    for (int r = 0; r < reps; ++r) CHECK(cudaMemcpyAsync(dst, src, bytes, kind, 0));
    CHECK(cudaEventRecord(b, 0));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return ms;
}

int main(int argc, char** argv) {
    const size_t bytes = size_t(argc > 1 ? std::atoi(argv[1]) : 32) << 20;
    const int reps = 4;
    void* dev;
    void* pinned;
    CHECK(cudaMalloc(&dev, bytes));
    CHECK(cudaMallocHost(&pinned, bytes));
    std::vector<char> pageable(bytes, 1);
    auto gbs = [&](float ms) { return double(bytes) * reps / (ms * 1e-3) / 1e9; };
    const double h2d_pinned = gbs(time_copies(dev, pinned, bytes, cudaMemcpyHostToDevice, reps));
    const double d2h_pinned = gbs(time_copies(pinned, dev, bytes, cudaMemcpyDeviceToHost, reps));
    const double h2d_pageable = gbs(time_copies(dev, pageable.data(), bytes, cudaMemcpyHostToDevice, reps));
    const double d2h_pageable = gbs(time_copies(pageable.data(), dev, bytes, cudaMemcpyDeviceToHost, reps));
    std::printf("%zu MiB: H2D pinned %.2f GB/s, D2H pinned %.2f GB/s, H2D pageable %.2f GB/s, D2H pageable %.2f GB/s\n",
                bytes >> 20, h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable);
    EXPECT(h2d_pinned >= h2d_pageable * 0.95 && d2h_pinned >= d2h_pageable * 0.95);
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(dev));
    return 0;
}
