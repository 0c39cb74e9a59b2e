// Device-side printf and malloc/free.
#include "check.h"

__global__ void hello(int base) {
    const char* names[] = {"zero", "one", "two", "three"};
    int t = threadIdx.x;
    printf("thread %d: %s %u 0x%x %5.2f %e %c %lld|%-4d|\n", t, names[t], t * 1000u, t * 255, t * 1.25f, t * 1.0e-3, 'a' + t,
           (long long)base * 1000000000LL + t, t);
}

__global__ void heap(int* out) {
    int t = threadIdx.x;
    int* p = static_cast<int*>(malloc((t + 1) * sizeof(int)));
    if (!p) { out[t] = -1; return; }
    for (int i = 0; i <= t; ++i) p[i] = t * 10 + i;
    int s = 0;
    for (int i = 0; i <= t; ++i) s += p[i];
    free(p);
    out[t] = s;
}

int main() {
    hello<<<1, 4>>>(7);
    CHECK(cudaDeviceSynchronize());
    int* d;
    CHECK(cudaMalloc(&d, 64 * sizeof(int)));
    heap<<<1, 64>>>(d);
    CHECK(cudaDeviceSynchronize());
    int out[64];
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    long total = 0;
    for (int t = 0; t < 64; ++t) {
        EXPECT(out[t] == (t + 1) * t * 10 + t * (t + 1) / 2);
        total += out[t];
    }
    size_t heap_size = 0;
    CHECK(cudaDeviceGetLimit(&heap_size, cudaLimitMallocHeapSize));
    EXPECT(heap_size > 0);
    std::printf("heap: total %ld\n", total);
    CHECK(cudaFree(d));
    return 0;
}
