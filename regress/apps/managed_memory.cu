// managed_memory: unified memory the way modern tutorials teach it - cudaMallocManaged arrays filled on the
// host, a grid-stride kernel, cudaDeviceSynchronize, results read on the host - then the CUDA 13 forms of
// cudaMemAdvise / cudaMemPrefetchAsync (cudaMemLocation), cudaMemRangeGetAttribute, a __managed__ global a
// kernel updates, and cudaPointerGetAttributes on managed, device, pinned and pageable pointers.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

namespace {

void check(cudaError_t err, const char* what, int line) {
    if (err != cudaSuccess) {
        std::printf("line %d: %s failed: %s (%s)\n", line, what, cudaGetErrorName(err), cudaGetErrorString(err));
        std::exit(EXIT_FAILURE);
    }
}
#define CHECK(call) check((call), #call, __LINE__)

// RAII owner of a managed array; the host indexes it like a std::vector.
template <typename T>
class ManagedArray {
public:
    explicit ManagedArray(size_t n) : n_(n) { CHECK(cudaMallocManaged(&p_, n * sizeof(T))); }
    ~ManagedArray() { cudaFree(p_); }
    ManagedArray(const ManagedArray&) = delete;
    ManagedArray& operator=(const ManagedArray&) = delete;
    T& operator[](size_t i) { return p_[i]; }
    const T& operator[](size_t i) const { return p_[i]; }
    T* data() { return p_; }
    size_t size() const { return n_; }
    size_t bytes() const { return n_ * sizeof(T); }

private:
    T* p_ = nullptr;
    size_t n_;
};

const char* memory_type_name(cudaMemoryType t) {
    switch (t) {
    case cudaMemoryTypeUnregistered: return "cudaMemoryTypeUnregistered";
    case cudaMemoryTypeHost: return "cudaMemoryTypeHost";
    case cudaMemoryTypeDevice: return "cudaMemoryTypeDevice";
    case cudaMemoryTypeManaged: return "cudaMemoryTypeManaged";
    }
    return "unknown";
}

}   // namespace

__managed__ int g_above;        // how many elements passed the threshold, counted by a kernel
__managed__ float g_threshold;  // set on the host, read by the kernel

__global__ void add(int n, const float* x, float* y) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride) y[i] = x[i] + y[i];
}

__global__ void count_above(int n, const float* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        if (y[i] > g_threshold) atomicAdd(&g_above, 1);
}

int main() {
    constexpr int N = 1 << 16;
    int device = 0;
    CHECK(cudaGetDevice(&device));

    ManagedArray<float> x(N), y(N);
    auto xv = [](int i) { return float(i % 17) * 0.5f; };
    auto yv = [](int i) { return float(i % 5) * 0.25f; };
    for (int i = 0; i < N; i++) {
        x[i] = xv(i);
        y[i] = yv(i);
    }

    int blockSize = 256;
    int numBlocks = (N + blockSize - 1) / blockSize;
    add<<<numBlocks, blockSize>>>(N, x.data(), y.data());
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    float maxError = 0.0f;
    for (int i = 0; i < N; i++) maxError = std::fmax(maxError, std::fabs(y[i] - (xv(i) + yv(i))));
    std::printf("first pass, max error: %g\n", maxError);
    bool ok = maxError == 0.0f;

    // Hints and prefetches, CUDA 13 style: locations are cudaMemLocation values.
    cudaMemLocation on_device{};
    on_device.type = cudaMemLocationTypeDevice;
    on_device.id = device;
    cudaMemLocation on_host{};
    on_host.type = cudaMemLocationTypeHost;
    on_host.id = cudaCpuDeviceId;   // ignored for a host location
    CHECK(cudaMemAdvise(x.data(), x.bytes(), cudaMemAdviseSetReadMostly, on_device));
    CHECK(cudaMemAdvise(y.data(), y.bytes(), cudaMemAdviseSetPreferredLocation, on_device));

    int read_mostly = -1, preferred = -99;
    CHECK(cudaMemRangeGetAttribute(&read_mostly, sizeof(read_mostly), cudaMemRangeAttributeReadMostly, x.data(),
                                   x.bytes()));
    CHECK(cudaMemRangeGetAttribute(&preferred, sizeof(preferred), cudaMemRangeAttributePreferredLocation, y.data(),
                                   y.bytes()));
    std::printf("x read-mostly: %d, y preferred location is this device: %s\n", read_mostly,
                preferred == device ? "yes" : "no");
    ok = ok && read_mostly == 1 && preferred == device;

    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    g_above = 0;
    g_threshold = 8.0f;
    CHECK(cudaMemPrefetchAsync(x.data(), x.bytes(), on_device, 0, stream));
    CHECK(cudaMemPrefetchAsync(y.data(), y.bytes(), on_device, 0, stream));
    add<<<numBlocks, blockSize, 0, stream>>>(N, x.data(), y.data());
    count_above<<<numBlocks / 4, blockSize, 0, stream>>>(N, y.data());
    CHECK(cudaGetLastError());
    CHECK(cudaMemPrefetchAsync(y.data(), y.bytes(), on_host, 0, stream));
    CHECK(cudaStreamSynchronize(stream));

    int last_prefetch = -99;
    CHECK(cudaMemRangeGetAttribute(&last_prefetch, sizeof(last_prefetch), cudaMemRangeAttributeLastPrefetchLocation,
                                   y.data(), y.bytes()));
    std::printf("y last prefetched to the CPU: %s\n", last_prefetch == cudaCpuDeviceId ? "yes" : "no");
    ok = ok && last_prefetch == cudaCpuDeviceId;

    maxError = 0.0f;
    int expected_above = 0;
    for (int i = 0; i < N; i++) {
        float ref = 2.0f * xv(i) + yv(i);
        maxError = std::fmax(maxError, std::fabs(y[i] - ref));
        if (ref > 8.0f) ++expected_above;
    }
    std::printf("second pass (prefetched), max error: %g\n", maxError);
    std::printf("__managed__ counter: %d elements above %.1f (expected %d)\n", g_above, g_threshold, expected_above);
    ok = ok && maxError == 0.0f && g_above == expected_above;

    // What the runtime knows about each kind of pointer.
    float* d_plain = nullptr;
    float* h_pinned = nullptr;
    CHECK(cudaMalloc(&d_plain, 1024));
    CHECK(cudaMallocHost(&h_pinned, 1024));
    std::vector<float> pageable(256);
    struct Probe {
        const char* what;
        const void* ptr;
        cudaMemoryType expected;
    };
    const Probe probes[] = {
        {"cudaMallocManaged array", x.data(), cudaMemoryTypeManaged},
        {"__managed__ variable", &g_above, cudaMemoryTypeManaged},
        {"cudaMalloc buffer", d_plain, cudaMemoryTypeDevice},
        {"cudaMallocHost buffer", h_pinned, cudaMemoryTypeHost},
        {"std::vector storage", pageable.data(), cudaMemoryTypeUnregistered},
    };
    for (const Probe& p : probes) {
        cudaPointerAttributes attr{};
        CHECK(cudaPointerGetAttributes(&attr, p.ptr));
        bool match = attr.type == p.expected;
        std::printf("cudaPointerGetAttributes(%s): type %d (%s)%s\n", p.what, int(attr.type),
                    memory_type_name(attr.type), match ? "" : " UNEXPECTED");
        if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged)
            std::printf("  device %d, device pointer %s\n", attr.device,
                        attr.devicePointer == p.ptr ? "equals the pointer" : "differs");
        ok = ok && match;
    }
    CHECK(cudaFree(d_plain));
    CHECK(cudaFreeHost(h_pinned));
    CHECK(cudaStreamDestroy(stream));

    std::printf("managed_memory: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
