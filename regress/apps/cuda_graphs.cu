// cuda_graphs: a two-kernel reduction run as a CUDA graph, built twice in the style of the simpleCudaGraphs
// sample: (a) by stream capture with a fork/join onto a second stream (memcpyAsync, memsetAsync, kernels),
// and (b) by hand with cudaGraphAddMemcpyNode / AddMemsetNode / AddKernelNode / AddMemcpyNode1D and explicit
// dependencies. Exercises cudaStreamIsCapturing, node/edge queries, cudaGraphInstantiate (CUDA 13), relaunch.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

#define THREADS_PER_BLOCK 256
#define NUM_BLOCKS 32
#define GRAPH_LAUNCH_ITERATIONS 3

// Each block reduces its grid-stride share of the input into one partial sum.
__global__ void reduce(const float* inputVec, float* partialSums, size_t inputSize) {
    __shared__ float tmp[THREADS_PER_BLOCK];
    float sum = 0.0f;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < inputSize; i += (size_t)gridDim.x * blockDim.x)
        sum += inputVec[i];
    tmp[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) tmp[threadIdx.x] += tmp[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partialSums[blockIdx.x] = tmp[0];
}

// One block folds the partial sums and adds them to *result, which a memset node clears before each run.
__global__ void reduceFinal(const float* partialSums, float* result, size_t numPartials) {
    __shared__ float tmp[THREADS_PER_BLOCK];
    float sum = 0.0f;
    for (size_t i = threadIdx.x; i < numPartials; i += blockDim.x) sum += partialSums[i];
    tmp[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) tmp[threadIdx.x] += tmp[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *result += tmp[0];
}

// Multiples of 1/16 below 16: every partial sum of 2^15 of them is exact in fp32, whatever the order.
static void init_input(float* a, size_t n, unsigned seed) {
    Lcg rng(seed);
    for (size_t i = 0; i < n; i++) a[i] = (float)(rng.next() & 0xff) / 16.0f;
}

static double cpu_sum(const float* a, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += a[i];
    return s;
}

static const char* capture_status_name(cudaStreamCaptureStatus s) {
    switch (s) {
    case cudaStreamCaptureStatusNone: return "cudaStreamCaptureStatusNone";
    case cudaStreamCaptureStatusActive: return "cudaStreamCaptureStatusActive";
    case cudaStreamCaptureStatusInvalidated: return "cudaStreamCaptureStatusInvalidated";
    }
    return "unknown";
}

// Prints the node count, a count of each node type, the root count and the edge count of a graph.
static void describe_graph(const char* label, cudaGraph_t graph) {
    size_t numNodes = 0, numRoots = 0, numEdges = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, nullptr, &numNodes));
    std::vector<cudaGraphNode_t> nodes(numNodes);
    checkCudaErrors(cudaGraphGetNodes(graph, nodes.data(), &numNodes));
    checkCudaErrors(cudaGraphGetRootNodes(graph, nullptr, &numRoots));
    checkCudaErrors(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &numEdges));
    int kernels = 0, memcpys = 0, memsets = 0, others = 0;
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        checkCudaErrors(cudaGraphNodeGetType(node, &type));
        if (type == cudaGraphNodeTypeKernel) ++kernels;
        else if (type == cudaGraphNodeTypeMemcpy) ++memcpys;
        else if (type == cudaGraphNodeTypeMemset) ++memsets;
        else ++others;
    }
    printf("%s: %zu nodes (%d kernel, %d memcpy, %d memset, %d other), %zu root nodes, %zu edges\n", label, numNodes,
           kernels, memcpys, memsets, others, numRoots, numEdges);
}

static bool check_result(const char* label, int iteration, float got, double expected) {
    bool ok = (double)got == expected;
    printf("%s launch %d: sum %.4f, CPU %.4f, %s\n", label, iteration, got, expected, ok ? "match" : "MISMATCH");
    return ok;
}

static bool cudaGraphsUsingStreamCapture(float* h_in, float* d_in, float* d_partial, float* d_result,
                                         float* h_result, size_t n) {
    cudaStream_t stream1, stream2;
    cudaEvent_t forkStreamEvent, joinStreamEvent;
    checkCudaErrors(cudaStreamCreateWithFlags(&stream1, cudaStreamNonBlocking));
    checkCudaErrors(cudaStreamCreateWithFlags(&stream2, cudaStreamNonBlocking));
    checkCudaErrors(cudaEventCreate(&forkStreamEvent));
    checkCudaErrors(cudaEventCreate(&joinStreamEvent));

    cudaStreamCaptureStatus status;
    checkCudaErrors(cudaStreamIsCapturing(stream1, &status));
    printf("before capture: %s\n", capture_status_name(status));

    checkCudaErrors(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
    checkCudaErrors(cudaStreamIsCapturing(stream1, &status));
    printf("during capture: %s\n", capture_status_name(status));

    checkCudaErrors(cudaEventRecord(forkStreamEvent, stream1));
    checkCudaErrors(cudaStreamWaitEvent(stream2, forkStreamEvent, 0));
    checkCudaErrors(cudaStreamIsCapturing(stream2, &status));
    printf("forked stream during capture: %s\n", capture_status_name(status));

    checkCudaErrors(cudaMemcpyAsync(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice, stream1));
    checkCudaErrors(cudaMemsetAsync(d_result, 0, sizeof(float), stream2));
    checkCudaErrors(cudaEventRecord(joinStreamEvent, stream2));
    checkCudaErrors(cudaStreamWaitEvent(stream1, joinStreamEvent, 0));
    reduce<<<NUM_BLOCKS, THREADS_PER_BLOCK, 0, stream1>>>(d_in, d_partial, n);
    reduceFinal<<<1, THREADS_PER_BLOCK, 0, stream1>>>(d_partial, d_result, NUM_BLOCKS);
    checkCudaErrors(cudaMemcpyAsync(h_result, d_result, sizeof(float), cudaMemcpyDeviceToHost, stream1));

    cudaGraph_t graph;
    checkCudaErrors(cudaStreamEndCapture(stream1, &graph));
    checkCudaErrors(cudaStreamIsCapturing(stream1, &status));
    printf("after capture: %s\n", capture_status_name(status));
    describe_graph("captured graph", graph);

    cudaGraphExec_t graphExec;
    checkCudaErrors(cudaGraphInstantiate(&graphExec, graph, 0));

    bool ok = true;
    for (int i = 0; i < GRAPH_LAUNCH_ITERATIONS; i++) {
        init_input(h_in, n, 1000u + i);   // each replay copies the input afresh
        *h_result = -1.0f;
        checkCudaErrors(cudaGraphLaunch(graphExec, stream1));
        checkCudaErrors(cudaStreamSynchronize(stream1));
        ok = check_result("captured graph", i, *h_result, cpu_sum(h_in, n)) && ok;
    }

    checkCudaErrors(cudaGraphExecDestroy(graphExec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaEventDestroy(forkStreamEvent));
    checkCudaErrors(cudaEventDestroy(joinStreamEvent));
    checkCudaErrors(cudaStreamDestroy(stream1));
    checkCudaErrors(cudaStreamDestroy(stream2));
    return ok;
}

static bool cudaGraphsManual(float* h_in, float* d_in, float* d_partial, float* d_result, float* h_result, size_t n) {
    cudaStream_t streamForGraph;
    checkCudaErrors(cudaStreamCreateWithFlags(&streamForGraph, cudaStreamNonBlocking));
    cudaGraph_t graph;
    checkCudaErrors(cudaGraphCreate(&graph, 0));

    cudaGraphNode_t memcpyNode, memsetNode, kernelNode, finalNode, copyOutNode;

    cudaMemcpy3DParms memcpyParams = {};
    memcpyParams.srcArray = nullptr;
    memcpyParams.srcPos = make_cudaPos(0, 0, 0);
    memcpyParams.srcPtr = make_cudaPitchedPtr(h_in, n * sizeof(float), n, 1);
    memcpyParams.dstArray = nullptr;
    memcpyParams.dstPos = make_cudaPos(0, 0, 0);
    memcpyParams.dstPtr = make_cudaPitchedPtr(d_in, n * sizeof(float), n, 1);
    memcpyParams.extent = make_cudaExtent(n * sizeof(float), 1, 1);
    memcpyParams.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaGraphAddMemcpyNode(&memcpyNode, graph, nullptr, 0, &memcpyParams));

    cudaMemsetParams memsetParams = {};
    memsetParams.dst = (void*)d_result;
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(float);   // 4 bytes
    memsetParams.width = 1;
    memsetParams.height = 1;
    checkCudaErrors(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));

    cudaKernelNodeParams kernelNodeParams = {};
    void* kernelArgs[3] = {(void*)&d_in, (void*)&d_partial, &n};
    kernelNodeParams.func = (void*)reduce;
    kernelNodeParams.gridDim = dim3(NUM_BLOCKS, 1, 1);
    kernelNodeParams.blockDim = dim3(THREADS_PER_BLOCK, 1, 1);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = kernelArgs;
    kernelNodeParams.extra = nullptr;
    checkCudaErrors(cudaGraphAddKernelNode(&kernelNode, graph, &memcpyNode, 1, &kernelNodeParams));

    size_t numPartials = NUM_BLOCKS;
    void* finalArgs[3] = {(void*)&d_partial, (void*)&d_result, &numPartials};
    kernelNodeParams.func = (void*)reduceFinal;
    kernelNodeParams.gridDim = dim3(1, 1, 1);
    kernelNodeParams.blockDim = dim3(THREADS_PER_BLOCK, 1, 1);
    kernelNodeParams.kernelParams = finalArgs;
    std::vector<cudaGraphNode_t> finalDeps = {kernelNode, memsetNode};
    checkCudaErrors(cudaGraphAddKernelNode(&finalNode, graph, finalDeps.data(), finalDeps.size(), &kernelNodeParams));

    checkCudaErrors(cudaGraphAddMemcpyNode1D(&copyOutNode, graph, &finalNode, 1, h_result, d_result, sizeof(float),
                                             cudaMemcpyDeviceToHost));
    describe_graph("hand-built graph", graph);

    cudaGraphExec_t graphExec;
    checkCudaErrors(cudaGraphInstantiate(&graphExec, graph, 0));
    bool ok = true;
    for (int i = 0; i < GRAPH_LAUNCH_ITERATIONS; i++) {
        init_input(h_in, n, 2000u + i);
        *h_result = -1.0f;
        checkCudaErrors(cudaGraphLaunch(graphExec, streamForGraph));
        checkCudaErrors(cudaStreamSynchronize(streamForGraph));
        ok = check_result("hand-built graph", i, *h_result, cpu_sum(h_in, n)) && ok;
    }

    checkCudaErrors(cudaGraphExecDestroy(graphExec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaStreamDestroy(streamForGraph));
    return ok;
}

int main(int argc, char** argv) {
    size_t size = 1 << 15;
    printf("%zu elements\n", size);
    printf("threads per block  = %d\n", THREADS_PER_BLOCK);
    printf("Graph Launch iterations = %d\n", GRAPH_LAUNCH_ITERATIONS);

    int dev = findCudaDevice(argc, argv);
    (void)dev;

    float *inputVec_h = nullptr, *inputVec_d = nullptr, *partial_d = nullptr, *result_d = nullptr;
    float* result_h = nullptr;
    checkCudaErrors(cudaMallocHost(&inputVec_h, sizeof(float) * size));
    checkCudaErrors(cudaMallocHost(&result_h, sizeof(float)));
    checkCudaErrors(cudaMalloc(&inputVec_d, sizeof(float) * size));
    checkCudaErrors(cudaMalloc(&partial_d, sizeof(float) * NUM_BLOCKS));
    checkCudaErrors(cudaMalloc(&result_d, sizeof(float)));

    bool ok = cudaGraphsUsingStreamCapture(inputVec_h, inputVec_d, partial_d, result_d, result_h, size);
    ok = cudaGraphsManual(inputVec_h, inputVec_d, partial_d, result_d, result_h, size) && ok;

    checkCudaErrors(cudaFree(inputVec_d));
    checkCudaErrors(cudaFree(partial_d));
    checkCudaErrors(cudaFree(result_d));
    checkCudaErrors(cudaFreeHost(inputVec_h));
    checkCudaErrors(cudaFreeHost(result_h));
    printf("cuda_graphs: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
