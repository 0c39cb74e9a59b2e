// async_polling: overlaps CPU work with asynchronous GPU work and polls for completion, in the style of the
// asyncAPI sample: events around memcpyAsync + kernel + memcpyAsync, a CPU loop on cudaEventQuery, then
// cudaStreamQuery polling on a created stream and a spin on a volatile mapped pinned flag the GPU set.
// Exercises cudaEventQuery/cudaStreamQuery (cudaErrorNotReady), events, pinned and mapped host memory.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

__global__ void increment_kernel(int* g_data, int inc_value) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[idx] = g_data[idx] + inc_value;
}

// One thread publishes a value to host memory once the work before it in the stream is done.
__global__ void signal_kernel(volatile int* flag, int value) {
    __threadfence_system();
    *flag = value;
}

static bool correct_output(const int* data, int n, int base, int x) {
    for (int i = 0; i < n; i++)
        if (data[i] != base + x) {
            printf("Error! data[%d] = %d, ref = %d\n", i, data[i], base + x);
            return false;
        }
    return true;
}

int main(int argc, char* argv[]) {
    printf("[%s] - Starting...\n", "async_polling");
    int devID = findCudaDevice(argc, argv);
    (void)devID;

    const int n = 256 * 1024;
    const int nbytes = n * sizeof(int);
    const int value = 26;

    int* a = nullptr;
    checkCudaErrors(cudaMallocHost(reinterpret_cast<void**>(&a), nbytes));
    memset(a, 0, nbytes);
    int* d_a = nullptr;
    checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_a), nbytes));
    checkCudaErrors(cudaMemset(d_a, 255, nbytes));

    dim3 threads(512, 1);
    dim3 blocks(n / threads.x, 1);

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));

    // An event that was never recorded counts as complete.
    printf("query of a never-recorded event: %s\n", cudaGetErrorName(cudaEventQuery(stop)));

    checkCudaErrors(cudaDeviceSynchronize());
    // Everything below is asynchronous to the host.
    checkCudaErrors(cudaEventRecord(start, 0));
    checkCudaErrors(cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, 0));
    increment_kernel<<<blocks, threads, 0, 0>>>(d_a, value);
    getLastCudaError("increment_kernel launch failed");
    checkCudaErrors(cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, 0));
    checkCudaErrors(cudaEventRecord(stop, 0));

    // The CPU keeps counting while the GPU works.
    unsigned long int counter = 0;
    cudaError_t q;
    while ((q = cudaEventQuery(stop)) == cudaErrorNotReady) counter++;
    checkCudaErrors(q);
    float gpu_time = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&gpu_time, start, stop));
    fprintf(stderr, "time spent executing by the GPU: %.3f ms\n", gpu_time);
    fprintf(stderr, "CPU executed %lu iterations while waiting for GPU to finish\n", counter);
    printf("event query loop ended with: %s\n", cudaGetErrorName(q));
    bool ok = correct_output(a, n, 0, value);
    printf("default stream results: %s\n", ok ? "correct" : "WRONG");

    // The same on a created stream, polled with cudaStreamQuery.
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreate(&stream));
    checkCudaErrors(cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, stream));
    increment_kernel<<<blocks, threads, 0, stream>>>(d_a, value);
    getLastCudaError("increment_kernel launch on a stream failed");
    checkCudaErrors(cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, stream));
    unsigned long int polls = 0;
    while ((q = cudaStreamQuery(stream)) == cudaErrorNotReady) polls++;
    fprintf(stderr, "cudaStreamQuery returned cudaErrorNotReady %lu times\n", polls);
    printf("stream query loop ended with: %s\n", cudaGetErrorName(q));
    ok = q == cudaSuccess && ok;
    bool ok2 = correct_output(a, n, value, value);
    printf("created stream results: %s\n", ok2 ? "correct" : "WRONG");
    ok = ok && ok2;

    // A mapped pinned flag the GPU sets after the work; the host reads it through a volatile pointer once
    // the event that follows the signal has completed.
    int* h_flag = nullptr;
    int* d_flag = nullptr;
    checkCudaErrors(cudaHostAlloc(reinterpret_cast<void**>(&h_flag), sizeof(int), cudaHostAllocMapped));
    checkCudaErrors(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_flag), h_flag, 0));
    volatile int* flag = h_flag;
    *flag = 0;
    const int signal_value = 0x5eed;
    increment_kernel<<<blocks, threads, 0, stream>>>(d_a, value);
    signal_kernel<<<1, 1, 0, stream>>>(d_flag, signal_value);
    getLastCudaError("signal_kernel launch failed");
    checkCudaErrors(cudaEventRecord(stop, stream));
    counter = 0;
    while ((q = cudaEventQuery(stop)) == cudaErrorNotReady) counter++;
    checkCudaErrors(q);
    unsigned long spins = 0;
    const unsigned long spin_limit = 1ul << 30;
    while (*flag != signal_value && spins < spin_limit) spins++;
    fprintf(stderr, "event polls %lu, flag spins after the event completed %lu\n", counter, spins);
    bool flag_ok = *flag == signal_value;
    printf("pinned flag set by the GPU seen by the host: %s\n", flag_ok ? "yes" : "no");
    checkCudaErrors(cudaMemcpy(a, d_a, nbytes, cudaMemcpyDeviceToHost));
    bool ok3 = correct_output(a, n, 2 * value, value);
    printf("results after the flagged launch: %s\n", ok3 ? "correct" : "WRONG");
    ok = ok && flag_ok && ok3;

    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaStreamDestroy(stream));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFreeHost(h_flag));
    checkCudaErrors(cudaFree(d_a));

    printf("async_polling: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
