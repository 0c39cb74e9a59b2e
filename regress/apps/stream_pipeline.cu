// stream_pipeline: a chunked H2D -> kernel -> D2H pipeline spread over four streams (two created with
// priorities from cudaDeviceGetStreamPriorityRange, two non-blocking), then a cross-stream step: a summary
// kernel waits with cudaStreamWaitEvent on timing-disabled events from every stream. Modern C++ with RAII
// wrappers, in the style of overlap-of-transfers code; checks cudaStreamGetPriority / cudaStreamGetFlags.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#define CUDA_TRY(call)                                                                                     \
    do {                                                                                                   \
        cudaError_t status_ = (call);                                                                      \
        if (status_ != cudaSuccess) {                                                                      \
            std::printf("CUDA failure %s in %s at line %d\n", cudaGetErrorName(status_), #call, __LINE__); \
            std::exit(EXIT_FAILURE);                                                                       \
        }                                                                                                  \
    } while (0)

namespace {

class Stream {
public:
    Stream(unsigned flags, int priority) { CUDA_TRY(cudaStreamCreateWithPriority(&s_, flags, priority)); }
    explicit Stream(unsigned flags) { CUDA_TRY(cudaStreamCreateWithFlags(&s_, flags)); }
    ~Stream() { cudaStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    operator cudaStream_t() const { return s_; }
    int priority() const {
        int p = 0;
        CUDA_TRY(cudaStreamGetPriority(s_, &p));
        return p;
    }
    unsigned flags() const {
        unsigned f = 0;
        CUDA_TRY(cudaStreamGetFlags(s_, &f));
        return f;
    }

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    explicit Event(unsigned flags = cudaEventDisableTiming) { CUDA_TRY(cudaEventCreateWithFlags(&e_, flags)); }
    ~Event() { cudaEventDestroy(e_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void record(cudaStream_t s) { CUDA_TRY(cudaEventRecord(e_, s)); }
    operator cudaEvent_t() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

template <typename T>
struct PinnedDeleter {
    void operator()(T* p) const { cudaFreeHost(p); }
};
template <typename T>
struct DeviceDeleter {
    void operator()(T* p) const { cudaFree(p); }
};
template <typename T>
using pinned_ptr = std::unique_ptr<T[], PinnedDeleter<T>>;
template <typename T>
using device_ptr = std::unique_ptr<T[], DeviceDeleter<T>>;

template <typename T>
pinned_ptr<T> make_pinned(size_t n) {
    T* p = nullptr;
    CUDA_TRY(cudaMallocHost(&p, n * sizeof(T)));
    return pinned_ptr<T>(p);
}
template <typename T>
device_ptr<T> make_device(size_t n) {
    T* p = nullptr;
    CUDA_TRY(cudaMalloc(&p, n * sizeof(T)));
    return device_ptr<T>(p);
}

constexpr int kStreams = 4;
constexpr int kChunks = 16;
constexpr int kChunkElems = 1 << 14;
constexpr int kElems = kChunks * kChunkElems;
constexpr int kThreads = 256;

__host__ __device__ constexpr uint32_t mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__global__ void process_chunk(const uint32_t* in, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mix(in[i]);
}

// One block per chunk: the chunk's wrapping sum, read from the whole output array after every stream's work.
__global__ void chunk_sums(const uint32_t* out, uint32_t* sums, int chunk_elems) {
    __shared__ uint32_t part[kThreads];
    const uint32_t* chunk = out + (size_t)blockIdx.x * chunk_elems;
    uint32_t s = 0;
    for (int i = threadIdx.x; i < chunk_elems; i += blockDim.x) s += chunk[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

}   // namespace

int main() {
    std::printf("stream_pipeline: %d chunks of %d elements over %d streams\n", kChunks, kChunkElems, kStreams);
    CUDA_TRY(cudaSetDevice(0));

    int least = 0, greatest = 0;
    CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    std::fprintf(stderr, "stream priorities: least %d, greatest %d\n", least, greatest);
    std::printf("greatest priority is numerically <= least: %s\n", greatest <= least ? "yes" : "no");

    // Two prioritised streams (high first), two plain non-blocking ones.
    std::vector<std::unique_ptr<Stream>> streams;
    streams.emplace_back(new Stream(cudaStreamNonBlocking, greatest));
    streams.emplace_back(new Stream(cudaStreamDefault, least));
    streams.emplace_back(new Stream(cudaStreamNonBlocking));
    streams.emplace_back(new Stream(cudaStreamNonBlocking));
    const std::pair<int, unsigned> expected[kStreams] = {
        {greatest, cudaStreamNonBlocking}, {least, cudaStreamDefault}, {0, cudaStreamNonBlocking}, {0, cudaStreamNonBlocking}};
    bool ok = true;
    for (int k = 0; k < kStreams; ++k) {
        int p = streams[k]->priority();
        unsigned f = streams[k]->flags();
        const char* pname = p == greatest ? "greatest" : p == least ? "least" : "other";
        bool good = p == expected[k].first && f == expected[k].second;
        std::printf("stream %d: priority %s, flags %s%s\n", k, pname,
                    f == cudaStreamNonBlocking ? "cudaStreamNonBlocking" : f == cudaStreamDefault ? "cudaStreamDefault" : "?",
                    good ? "" : "  UNEXPECTED");
        ok = ok && good;
    }

    auto h_in = make_pinned<uint32_t>(kElems);
    auto h_out = make_pinned<uint32_t>(kElems);
    auto h_sums = make_pinned<uint32_t>(kChunks);
    auto d_in = make_device<uint32_t>(kElems);
    auto d_out = make_device<uint32_t>(kElems);
    auto d_sums = make_device<uint32_t>(kChunks);
    uint32_t seed = 0x1234567u;
    for (int i = 0; i < kElems; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h_in[i] = seed;
    }

    // Chunks go round-robin over the streams; each chunk is copy-in, kernel, copy-out in its stream.
    for (int c = 0; c < kChunks; ++c) {
        cudaStream_t s = *streams[c % kStreams];
        size_t off = (size_t)c * kChunkElems;
        CUDA_TRY(cudaMemcpyAsync(d_in.get() + off, h_in.get() + off, kChunkElems * sizeof(uint32_t),
                                 cudaMemcpyHostToDevice, s));
        process_chunk<<<kChunkElems / kThreads, kThreads, 0, s>>>(d_in.get() + off, d_out.get() + off, kChunkElems);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaMemcpyAsync(h_out.get() + off, d_out.get() + off, kChunkElems * sizeof(uint32_t),
                                 cudaMemcpyDeviceToHost, s));
    }

    // Cross-stream dependency: the summary on stream 0 needs every stream's kernels.
    std::vector<std::unique_ptr<Event>> done;
    for (int k = 0; k < kStreams; ++k) {
        done.emplace_back(new Event(cudaEventDisableTiming));
        done.back()->record(*streams[k]);
    }
    cudaStream_t s0 = *streams[0];
    for (int k = 1; k < kStreams; ++k) CUDA_TRY(cudaStreamWaitEvent(s0, *done[k], 0));
    chunk_sums<<<kChunks, kThreads, 0, s0>>>(d_out.get(), d_sums.get(), kChunkElems);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaMemcpyAsync(h_sums.get(), d_sums.get(), kChunks * sizeof(uint32_t), cudaMemcpyDeviceToHost, s0));

    for (auto& s : streams) CUDA_TRY(cudaStreamSynchronize(*s));
    cudaError_t q = cudaEventQuery(*done[1]);
    std::printf("event query after the streams synchronised: %s\n", cudaGetErrorName(q));
    ok = ok && q == cudaSuccess;

    int bad = 0, bad_sums = 0;
    uint32_t total = 0;
    for (int c = 0; c < kChunks; ++c) {
        uint32_t sum = 0;
        for (int i = 0; i < kChunkElems; ++i) {
            size_t idx = (size_t)c * kChunkElems + i;
            uint32_t ref = mix(h_in[idx]);
            if (h_out[idx] != ref) ++bad;
            sum += ref;
        }
        if (h_sums[c] != sum) ++bad_sums;
        total += sum;
    }
    std::printf("pipelined results: %d elements, %d wrong\n", kElems, bad);
    std::printf("cross-stream chunk sums: %d of %d wrong, total 0x%08x\n", bad_sums, kChunks, total);
    ok = ok && bad == 0 && bad_sums == 0;

    std::printf("stream_pipeline: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
