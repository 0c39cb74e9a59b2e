// stream_callback: host worker threads each drive their own stream (pinned buffer, H2D copy, kernel, D2H
// copy) and end it with cudaStreamAddCallback; each callback starts a checker thread that verifies the
// results and arrives at a barrier the main thread waits on - in the style of the simpleCallback sample.
// Then cudaLaunchHostFunc between two kernels of one stream shows that host functions run in stream order.
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                                   \
    do {                                                                                                   \
        cudaError_t err_ = (call);                                                                         \
        if (err_ != cudaSuccess) {                                                                         \
            std::printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_));      \
            std::exit(EXIT_FAILURE);                                                                       \
        }                                                                                                  \
    } while (0)

namespace {

constexpr int kWorkers = 4;
constexpr int kElems = 1 << 14;
constexpr int kThreads = 256;

// A counting barrier: arrive() from any thread, wait() until everyone has arrived.
class Barrier {
public:
    explicit Barrier(int expected) : expected_(expected) {}
    void arrive() {
        std::lock_guard<std::mutex> lock(m_);
        if (++arrived_ == expected_) cv_.notify_all();
    }
    void wait() {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [this] { return arrived_ >= expected_; });
    }
    std::mutex& mutex() { return m_; }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int expected_;
    int arrived_ = 0;
};

struct Job {
    int id = 0;
    cudaStream_t stream = nullptr;
    unsigned* h_data = nullptr;   // pinned
    unsigned* d_data = nullptr;
    Barrier* barrier = nullptr;
    cudaError_t callback_status = cudaErrorUnknown;
    int mismatches = -1;
    std::thread checker;
};

__host__ __device__ inline unsigned initial_value(int job, int i) { return (unsigned)i * 40503u ^ ((unsigned)job << 24); }
__host__ __device__ inline unsigned transform(unsigned v, int job) {
    v = v * 2654435761u + (unsigned)job;
    return v ^ (v >> 13);
}

__global__ void transform_kernel(unsigned* data, int n, int job) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = transform(data[i], job);
}

// Runs on its own host thread, started by the stream callback: checks the copied-back results.
void postprocess(Job* job) {
    int bad = 0;
    for (int i = 0; i < kElems; ++i)
        if (job->h_data[i] != transform(initial_value(job->id, i), job->id)) ++bad;
    job->mismatches = bad;
    job->barrier->arrive();
}

// The stream callback: no CUDA calls here. It only records the status and hands the work to a new thread,
// stored under the barrier's lock so that the main thread sees the handle once the checker has arrived.
void CUDART_CB on_stream_done(cudaStream_t, cudaError_t status, void* user_data) {
    Job* job = static_cast<Job*>(user_data);
    std::lock_guard<std::mutex> lock(job->barrier->mutex());
    job->callback_status = status;
    job->checker = std::thread(postprocess, job);
}

// One worker thread per stream, as a multi-threaded host program sets its work up.
void worker(Job* job) {
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaStreamCreate(&job->stream));
    const size_t bytes = kElems * sizeof(unsigned);
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&job->h_data), bytes, cudaHostAllocDefault));
    CUDA_CHECK(cudaMalloc(&job->d_data, bytes));
    for (int i = 0; i < kElems; ++i) job->h_data[i] = initial_value(job->id, i);

    CUDA_CHECK(cudaMemcpyAsync(job->d_data, job->h_data, bytes, cudaMemcpyHostToDevice, job->stream));
    transform_kernel<<<(kElems + kThreads - 1) / kThreads, kThreads, 0, job->stream>>>(job->d_data, kElems, job->id);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(job->h_data, job->d_data, bytes, cudaMemcpyDeviceToHost, job->stream));
    CUDA_CHECK(cudaStreamAddCallback(job->stream, on_stream_done, job, 0));
}

// ---- part 2: a host function between two kernels of one stream ----

struct HostFnState {
    const int* h_buf = nullptr;   // pinned, written by the D2H copy before the host function
    int* h_param = nullptr;       // pinned and mapped, read by the second kernel
    long long sum_seen = -1;
    int param_written = -1;
    cudaError_t status_seen = cudaErrorUnknown;
};

__global__ void fill_kernel(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 7 * i + 1;
}

__global__ void add_param_kernel(int* out, const int* in, const int* param, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + *param;
}

void CUDART_CB host_fn(void* user_data) {
    auto* st = static_cast<HostFnState*>(user_data);
    long long sum = 0;
    for (int i = 0; i < kElems; ++i) sum += st->h_buf[i];
    st->sum_seen = sum;
    st->param_written = int(sum % 1000) + 1;
    *st->h_param = st->param_written;   // the next kernel in the stream reads this
}

void CUDART_CB status_callback(cudaStream_t, cudaError_t status, void* user_data) {
    static_cast<HostFnState*>(user_data)->status_seen = status;
}

bool host_func_in_order() {
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreate(&s));
    const size_t bytes = kElems * sizeof(int);
    int *d_buf, *d_out, *h_buf, *h_param, *h_out, *d_param;
    CUDA_CHECK(cudaMalloc(&d_buf, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&h_buf), bytes, cudaHostAllocDefault));
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&h_out), bytes, cudaHostAllocDefault));
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&h_param), sizeof(int), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_param), h_param, 0));
    *h_param = 0;
    for (int i = 0; i < kElems; ++i) h_buf[i] = -1;

    HostFnState st;
    st.h_buf = h_buf;
    st.h_param = h_param;
    const int blocks = (kElems + kThreads - 1) / kThreads;
    fill_kernel<<<blocks, kThreads, 0, s>>>(d_buf, kElems);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(h_buf, d_buf, bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaLaunchHostFunc(s, host_fn, &st));
    add_param_kernel<<<blocks, kThreads, 0, s>>>(d_out, d_buf, d_param, kElems);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamAddCallback(s, status_callback, &st, 0));
    CUDA_CHECK(cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));

    long long expected_sum = 0;
    for (int i = 0; i < kElems; ++i) expected_sum += 7LL * i + 1;
    const int expected_param = int(expected_sum % 1000) + 1;
    int bad = 0;
    for (int i = 0; i < kElems; ++i)
        if (h_out[i] != 7 * i + 1 + expected_param) ++bad;

    bool saw_copy = st.sum_seen == expected_sum;
    bool kernel_saw_param = bad == 0 && st.param_written == expected_param;
    std::printf("host function saw the first kernel's copied-back data: %s (sum %lld)\n", saw_copy ? "yes" : "no",
                st.sum_seen);
    std::printf("second kernel saw the value the host function wrote: %s (value %d)\n",
                kernel_saw_param ? "yes" : "no", st.param_written);
    std::printf("callback status after the second kernel: %s\n", cudaGetErrorName(st.status_seen));

    CUDA_CHECK(cudaFree(d_buf));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFreeHost(h_buf));
    CUDA_CHECK(cudaFreeHost(h_out));
    CUDA_CHECK(cudaFreeHost(h_param));
    CUDA_CHECK(cudaStreamDestroy(s));
    return saw_copy && kernel_saw_param && st.status_seen == cudaSuccess;
}

}   // namespace

int main() {
    std::printf("Starting stream_callback with %d worker threads\n", kWorkers);
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    if (count < 1) {
        std::printf("no CUDA device\n");
        return EXIT_FAILURE;
    }
    CUDA_CHECK(cudaSetDevice(0));

    Barrier barrier(kWorkers);
    std::vector<Job> jobs(kWorkers);
    for (int k = 0; k < kWorkers; ++k) {
        jobs[k].id = k;
        jobs[k].barrier = &barrier;
    }
    std::vector<std::thread> workers;
    for (auto& job : jobs) workers.emplace_back(worker, &job);
    for (auto& t : workers) t.join();

    barrier.wait();   // no CUDA call while the streams finish: the checker threads wake us
    bool ok = true;
    for (auto& job : jobs) {
        job.checker.join();
        bool good = job.callback_status == cudaSuccess && job.mismatches == 0;
        std::printf("worker %d: callback status %s, %d elements checked, %d mismatches\n", job.id,
                    cudaGetErrorName(job.callback_status), kElems, job.mismatches);
        ok = ok && good;
        CUDA_CHECK(cudaStreamDestroy(job.stream));
        CUDA_CHECK(cudaFreeHost(job.h_data));
        CUDA_CHECK(cudaFree(job.d_data));
    }

    ok = host_func_in_order() && ok;
    std::printf("stream_callback: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
