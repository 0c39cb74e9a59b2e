// Timing inside kernels with the SM cycle counters, in the style of the CUDA samples' "clock":
// thread 0 of every block records clock() before and after a shared-memory min-reduction, the host
// averages the per-block cycle counts (the numbers go to stderr, only their sanity to stdout).
// A second kernel reads clock64() on every iteration of a loop and checks it never goes backwards.
// Exercises clock()/clock64(), clock_t arrays in device memory, dynamic shared memory, atomics.

#include <cstdio>
#include <cstdlib>

#include "common/cuda_helpers.h"

#define NUM_BLOCKS 64
#define NUM_THREADS 256

// Each block finds the minimum of its own 2*blockDim.x inputs and times itself.
__global__ static void timedReduction(const float* input, float* output, clock_t* timer) {
    extern __shared__ float shared[];

    const int tid = threadIdx.x;
    const int bid = blockIdx.x;
    const float* in = input + 2 * blockDim.x * bid;

    if (tid == 0) timer[bid] = clock();

    // copy input
    shared[tid] = in[tid];
    shared[tid + blockDim.x] = in[tid + blockDim.x];

    // perform reduction to find minimum
    for (int d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            float f0 = shared[tid];
            float f1 = shared[tid + d];
            if (f1 < f0) shared[tid] = f1;
        }
    }

    // write result
    if (tid == 0) output[bid] = shared[0];

    __syncthreads();

    if (tid == 0) timer[bid + gridDim.x] = clock();
}

// Every thread samples clock64() once per loop iteration around a little dependent arithmetic,
// counts samples smaller than the previous one, and reports its first-to-last span.
__global__ void clock64Monotonic(int iterations, unsigned int* violations, unsigned int* stalled,
                                 long long* spans, unsigned int* sink) {
    __shared__ unsigned int blockViolations;
    if (threadIdx.x == 0) blockViolations = 0;
    __syncthreads();

    unsigned int x = threadIdx.x * 2654435761u + blockIdx.x;
    long long first = clock64();
    long long prev = first;
    unsigned int bad = 0;
    for (int i = 0; i < iterations; ++i) {
        for (int k = 0; k < 8; ++k) x = x * 1664525u + 1013904223u;   // some work to time
        long long now = clock64();
        if (now < prev) ++bad;
        prev = now;
    }
    if (bad) atomicAdd(&blockViolations, bad);
    if (prev <= first) atomicAdd(stalled, 1u);
    unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
    spans[gid] = prev - first;
    sink[gid] = x;   // keep the loop from being optimized away
    __syncthreads();
    if (threadIdx.x == 0 && blockViolations) atomicAdd(violations, blockViolations);
}

int main(int argc, char** argv) {
    std::printf("CUDA Clock sample\n");

    int dev = findCudaDevice(argc, argv);
    int clockKHz = 0;
    if (cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, dev) != cudaSuccess) {
        cudaGetLastError();
        clockKHz = 0;
    }
    std::fprintf(stderr, "device clock rate %d kHz\n", clockKHz);

    float* dinput = NULL;
    float* doutput = NULL;
    clock_t* dtimer = NULL;

    clock_t timer[NUM_BLOCKS * 2];
    float input[NUM_THREADS * 2 * NUM_BLOCKS];
    float output[NUM_BLOCKS];

    Lcg rng(31337);
    for (int i = 0; i < NUM_THREADS * 2 * NUM_BLOCKS; i++) input[i] = (float)(rng.below(1000000)) * 0.001f + 1.0f;

    checkCudaErrors(cudaMalloc((void**)&dinput, sizeof(float) * NUM_THREADS * 2 * NUM_BLOCKS));
    checkCudaErrors(cudaMalloc((void**)&doutput, sizeof(float) * NUM_BLOCKS));
    checkCudaErrors(cudaMalloc((void**)&dtimer, sizeof(clock_t) * NUM_BLOCKS * 2));
    checkCudaErrors(cudaMemcpy(dinput, input, sizeof(float) * NUM_THREADS * 2 * NUM_BLOCKS, cudaMemcpyHostToDevice));

    timedReduction<<<NUM_BLOCKS, NUM_THREADS, sizeof(float) * 2 * NUM_THREADS>>>(dinput, doutput, dtimer);
    getLastCudaError("timedReduction launch failed");

    checkCudaErrors(cudaMemcpy(timer, dtimer, sizeof(clock_t) * NUM_BLOCKS * 2, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(output, doutput, sizeof(float) * NUM_BLOCKS, cudaMemcpyDeviceToHost));

    // the reduction itself must be right
    bool minOk = true;
    for (int b = 0; b < NUM_BLOCKS; b++) {
        float m = input[2 * NUM_THREADS * b];
        for (int i = 1; i < 2 * NUM_THREADS; i++)
            if (input[2 * NUM_THREADS * b + i] < m) m = input[2 * NUM_THREADS * b + i];
        if (output[b] != m) minOk = false;
    }
    std::printf("per-block minimum matches the CPU: %s\n", minOk ? "yes" : "no");

    // clock() is a 32-bit counter: take the difference modulo 2^32 as the sample's users learn to
    double avgElapsedClocks = 0;
    bool allForward = true;
    long long minElapsed = -1, maxElapsed = 0;
    for (int i = 0; i < NUM_BLOCKS; i++) {
        int elapsed = (int)((unsigned int)timer[i + NUM_BLOCKS] - (unsigned int)timer[i]);
        if (elapsed < 0) allForward = false;
        avgElapsedClocks += (double)elapsed;
        if (minElapsed < 0 || elapsed < minElapsed) minElapsed = elapsed;
        if (elapsed > maxElapsed) maxElapsed = elapsed;
    }
    avgElapsedClocks = avgElapsedClocks / NUM_BLOCKS;
    std::fprintf(stderr, "Average clocks/block = %f (min %lld, max %lld)\n", avgElapsedClocks, minElapsed, maxElapsed);
    std::printf("average clocks per block is positive: %s\n", avgElapsedClocks > 0 ? "yes" : "no");
    std::printf("every block's end >= start: %s\n", allForward ? "yes" : "no");

    // clock64 within a thread
    const int blocks64 = 8, threads64 = 128, iterations = 16;
    unsigned int *dViolations, *dStalled, *dSink;
    long long* dSpans;
    checkCudaErrors(cudaMalloc((void**)&dViolations, sizeof(unsigned int)));
    checkCudaErrors(cudaMalloc((void**)&dStalled, sizeof(unsigned int)));
    checkCudaErrors(cudaMalloc((void**)&dSink, sizeof(unsigned int) * blocks64 * threads64));
    checkCudaErrors(cudaMalloc((void**)&dSpans, sizeof(long long) * blocks64 * threads64));
    checkCudaErrors(cudaMemset(dViolations, 0, sizeof(unsigned int)));
    checkCudaErrors(cudaMemset(dStalled, 0, sizeof(unsigned int)));
    clock64Monotonic<<<blocks64, threads64>>>(iterations, dViolations, dStalled, dSpans, dSink);
    getLastCudaError("clock64Monotonic launch failed");
    checkCudaErrors(cudaDeviceSynchronize());

    unsigned int violations = 0, stalled = 0;
    long long spans[blocks64 * threads64];
    unsigned int sink[blocks64 * threads64];
    checkCudaErrors(cudaMemcpy(&violations, dViolations, sizeof violations, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(&stalled, dStalled, sizeof stalled, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(spans, dSpans, sizeof spans, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(sink, dSink, sizeof sink, cudaMemcpyDeviceToHost));

    // the work itself is deterministic: recompute the last LCG state of every thread
    bool sinkOk = true;
    long long spanSum = 0;
    for (int b = 0; b < blocks64; ++b)
        for (int t = 0; t < threads64; ++t) {
            unsigned int x = t * 2654435761u + b;
            for (int i = 0; i < iterations * 8; ++i) x = x * 1664525u + 1013904223u;
            if (sink[b * threads64 + t] != x) sinkOk = false;
            spanSum += spans[b * threads64 + t];
        }
    std::fprintf(stderr, "clock64: %u decreasing samples, %u threads without progress, mean span %.1f cycles\n",
                 violations, stalled, (double)spanSum / (blocks64 * threads64));
    std::printf("clock64 never decreases within a thread: %s\n", violations == 0 ? "yes" : "no");
    std::printf("clock64 advances across the loop in every thread: %s\n", stalled == 0 ? "yes" : "no");
    std::printf("loop results match the CPU: %s\n", sinkOk ? "yes" : "no");

    checkCudaErrors(cudaFree(dinput));
    checkCudaErrors(cudaFree(doutput));
    checkCudaErrors(cudaFree(dtimer));
    checkCudaErrors(cudaFree(dViolations));
    checkCudaErrors(cudaFree(dStalled));
    checkCudaErrors(cudaFree(dSink));
    checkCudaErrors(cudaFree(dSpans));

    bool ok = minOk && avgElapsedClocks > 0 && allForward && violations == 0 && stalled == 0 && sinkOk;
    std::printf("clock_timing: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
