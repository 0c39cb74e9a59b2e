// The replacement libcudart driven through its C API, as a program would, without nvcc: every
// device attribute against cudaDeviceProp, host functions and callbacks, polling, graphs,
// and every exported function called with nothing (zeros) without crashing. A kernel comes from
// the committed tiny.fatbin, registered as nvcc's start-up code registers it.
#define BOOST_TEST_MODULE cudart_api
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "cudart/cuda_abi.h"

extern "C" {
void** __cudaRegisterFatBinary(void* wrapper);
void __cudaRegisterFunction(void** module, const char* host_fun, char*, const char* device_name, int, void*, void*, void*,
                            void*, int*);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device);
cudaError_t cudaMalloc(void** p, size_t size);
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t* a, const cudaChannelFormatDesc* desc, size_t width, size_t height, unsigned flags);
cudaError_t cudaMalloc3DArray(cudaArray_t* a, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned flags);
cudaError_t cudaFreeArray(cudaArray_t a);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags, cudaArray_t a);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* t, const cudaResourceDesc* res, const cudaTextureDesc* td,
                                    const cudaResourceViewDesc* view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* s, const cudaResourceDesc* res);
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* td, cudaTextureObject_t t);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                     size_t width, size_t height, int kind, cudaStream_t s);
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                  size_t width, size_t height, int kind);
cudaError_t cudaFree(void* p);
cudaError_t cudaMallocHost(void** p, size_t size);
cudaError_t cudaFreeHost(void* p);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, int kind, cudaStream_t s);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, int kind);
cudaError_t cudaStreamCreate(cudaStream_t* s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t* e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data);
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void* data, unsigned flags);
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* g);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e);
cudaError_t cudaGraphDestroy(cudaGraph_t g);
cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t* nodes, size_t* count);
}

namespace {
constexpr int kMemcpyHostToDevice = 1, kMemcpyDeviceToHost = 2;
constexpr int kErrorNotReady = 600, kErrorNotPermitted = 800;

std::vector<char> read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// tiny(int* p): p[threadIdx.x] = threadIdx.x, registered under a stand-in for its host stub.
struct Tiny {
    std::vector<char> fatbin = read_file(GPUSIM_SOURCE_DIR "/testbench/cudart/tiny.fatbin");
    struct {
        int magic = 0x466243b1, version = 1;
        const void* data;
        void* unused = nullptr;
    } wrapper{};
    char stub = 0;
    Tiny() {
        wrapper.data = fatbin.data();
        void** module = __cudaRegisterFatBinary(&wrapper);
        __cudaRegisterFunction(module, &stub, nullptr, "_Z4tinyPi", -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    }
    cudaError_t launch(int* p, unsigned threads, cudaStream_t s) {
        void* args[] = {&p};
        return cudaLaunchKernel(&stub, dim3{1, 1, 1}, dim3{threads, 1, 1}, args, 0, s);
    }
};
Tiny& tiny() {
    static Tiny t;
    return t;
}
} // namespace

BOOST_AUTO_TEST_CASE(every_attribute_is_answered_and_agrees_with_the_properties) {
    cudaDeviceProp p;
    BOOST_REQUIRE(cudaGetDeviceProperties(&p, 0) == 0);
    for (int a = 1; a < 148; ++a) {
        int v = -7;
        BOOST_TEST(cudaDeviceGetAttribute(&v, a, 0) == 0, "attribute " << a);
    }
    int v = 0;
    BOOST_TEST(cudaDeviceGetAttribute(&v, 148, 0) == 1);   // cudaDevAttrMax: cudaErrorInvalidValue
    BOOST_TEST(cudaDeviceGetAttribute(&v, 1, 1) == 101);   // no device 1: cudaErrorInvalidDevice
    cudaGetLastError();
    struct Pair { int attr; long long prop; };
    const Pair pairs[] = {
        {1, p.maxThreadsPerBlock}, {2, p.maxThreadsDim[0]}, {3, p.maxThreadsDim[1]}, {4, p.maxThreadsDim[2]},
        {5, p.maxGridSize[0]}, {6, p.maxGridSize[1]}, {7, p.maxGridSize[2]}, {8, (long long)p.sharedMemPerBlock},
        {9, (long long)p.totalConstMem}, {10, p.warpSize}, {11, (long long)p.memPitch}, {12, p.regsPerBlock},
        {14, (long long)p.textureAlignment}, {16, p.multiProcessorCount}, {18, p.integrated}, {19, p.canMapHostMemory},
        {21, p.maxTexture1D}, {22, p.maxTexture2D[0]}, {23, p.maxTexture2D[1]}, {24, p.maxTexture3D[0]},
        {30, (long long)p.surfaceAlignment}, {31, p.concurrentKernels}, {32, p.ECCEnabled}, {33, p.pciBusID},
        {37, p.memoryBusWidth}, {38, p.l2CacheSize}, {39, p.maxThreadsPerMultiProcessor}, {40, p.asyncEngineCount},
        {41, p.unifiedAddressing}, {51, (long long)p.texturePitchAlignment}, {55, p.maxSurface1D},
        {75, p.major}, {76, p.minor}, {78, p.streamPrioritiesSupported}, {79, p.globalL1CacheSupported},
        {81, (long long)p.sharedMemPerMultiprocessor}, {82, p.regsPerMultiprocessor}, {83, p.managedMemory},
        {89, p.concurrentManagedAccess}, {95, p.cooperativeLaunch}, {97, (long long)p.sharedMemPerBlockOptin},
        {99, p.hostRegisterSupported}, {106, p.maxBlocksPerMultiProcessor}, {139, (long long)p.gpuPciDeviceID}};
    for (const Pair& pr : pairs) {
        int value = -7;
        BOOST_REQUIRE(cudaDeviceGetAttribute(&value, pr.attr, 0) == 0);
        BOOST_TEST((long long)(unsigned)value == ((long long)(unsigned)pr.prop), "attribute " << pr.attr);
    }
    BOOST_TEST(p.warpSize == 32);
    BOOST_TEST(p.major == 2);   // the default config, fermi-gf100
}

BOOST_AUTO_TEST_CASE(a_kernel_runs_and_polling_its_event_ends) {
    int* d = nullptr;
    BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 64 * sizeof(int)) == 0);
    cudaEvent_t e;
    BOOST_REQUIRE(cudaEventCreate(&e) == 0);
    BOOST_REQUIRE(tiny().launch(d, 64, nullptr) == 0);
    BOOST_REQUIRE(cudaEventRecord(e, nullptr) == 0);
    int polls = 0;
    cudaError_t r;
    while ((r = cudaEventQuery(e)) == kErrorNotReady) ++polls;
    BOOST_TEST(r == 0);
    BOOST_TEST(polls <= 3);   // each query moves the simulation to the next completion
    int h[64] = {};
    BOOST_REQUIRE(cudaMemcpy(h, d, sizeof h, kMemcpyDeviceToHost) == 0);
    for (int k = 0; k < 64; ++k) BOOST_TEST(h[k] == k);
    cudaEventDestroy(e);
    cudaFree(d);
}

namespace {
struct HostState {
    std::thread::id thread;
    int seen = -1;
    int* pinned = nullptr;
    cudaError_t inside = 0;
    std::atomic<int> order{0};
    int callback_status = -1;
    int callback_order = -1, function_order = -1;
};

void host_function(void* data) {
    auto* s = static_cast<HostState*>(data);
    s->thread = std::this_thread::get_id();
    s->seen = s->pinned[5];
    void* p = nullptr;
    s->inside = cudaMalloc(&p, 16);   // CUDA calls are not permitted here
    s->function_order = s->order++;
}

void callback(cudaStream_t, cudaError_t status, void* data) {
    auto* s = static_cast<HostState*>(data);
    s->callback_status = status;
    s->callback_order = s->order++;
}
} // namespace

BOOST_AUTO_TEST_CASE(host_functions_run_in_stream_order_on_the_library_thread) {
    HostState st;
    int* d = nullptr;
    BOOST_REQUIRE(cudaMallocHost(reinterpret_cast<void**>(&st.pinned), 64 * sizeof(int)) == 0);
    BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 64 * sizeof(int)) == 0);
    cudaStream_t s;
    BOOST_REQUIRE(cudaStreamCreate(&s) == 0);
    std::memset(st.pinned, 0, 64 * sizeof(int));
    BOOST_REQUIRE(tiny().launch(d, 64, s) == 0);
    BOOST_REQUIRE(cudaMemcpyAsync(st.pinned, d, 64 * sizeof(int), kMemcpyDeviceToHost, s) == 0);
    BOOST_REQUIRE(cudaLaunchHostFunc(s, host_function, &st) == 0);
    BOOST_REQUIRE(cudaStreamAddCallback(s, callback, &st, 0) == 0);
    BOOST_TEST(cudaStreamAddCallback(s, callback, &st, 1) == 1);   // flags must be 0
    BOOST_REQUIRE(cudaStreamSynchronize(s) == 0);
    BOOST_TEST(st.seen == 5);                                      // after the copy in stream order
    BOOST_TEST((st.thread != std::thread::id() && st.thread != std::this_thread::get_id()));
    BOOST_TEST(st.inside == kErrorNotPermitted);
    BOOST_TEST(st.callback_status == 0);
    BOOST_TEST(st.function_order == 0);
    BOOST_TEST(st.callback_order == 1);
    cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(st.pinned);
}

BOOST_AUTO_TEST_CASE(a_callback_arrives_while_the_program_waits_without_calling_cuda) {
    HostState st;
    cudaStream_t s;
    BOOST_REQUIRE(cudaStreamCreate(&s) == 0);
    int* d = nullptr;
    BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 64 * sizeof(int)) == 0);
    BOOST_REQUIRE(tiny().launch(d, 64, s) == 0);
    BOOST_REQUIRE(cudaStreamAddCallback(s, callback, &st, 0) == 0);
    // The program spins on its own flag; the library's thread drives the simulation meanwhile.
    for (int k = 0; k < 2000 && st.order.load() == 0; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    BOOST_TEST(st.order.load() == 1);
    BOOST_TEST(st.callback_status == 0);
    BOOST_REQUIRE(cudaStreamSynchronize(s) == 0);
    cudaStreamDestroy(s);
    cudaFree(d);
}

BOOST_AUTO_TEST_CASE(a_captured_stream_becomes_a_graph_that_relaunches) {
    cudaStream_t s;
    BOOST_REQUIRE(cudaStreamCreate(&s) == 0);
    int* d = nullptr;
    int h[32] = {};
    BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), sizeof h) == 0);
    BOOST_REQUIRE(cudaStreamBeginCapture(s, 0) == 0);
    BOOST_REQUIRE(cudaMemcpyAsync(d, h, sizeof h, kMemcpyHostToDevice, s) == 0);
    BOOST_REQUIRE(tiny().launch(d, 32, s) == 0);
    BOOST_TEST(cudaStreamSynchronize(s) != 0);   // not while capturing: the capture is invalidated
    cudaGraph_t g = nullptr;
    BOOST_TEST(cudaStreamEndCapture(s, &g) == 901);   // cudaErrorStreamCaptureInvalidated
    cudaGetLastError();
    BOOST_REQUIRE(cudaStreamBeginCapture(s, 0) == 0);
    BOOST_REQUIRE(cudaMemcpyAsync(d, h, sizeof h, kMemcpyHostToDevice, s) == 0);
    BOOST_REQUIRE(tiny().launch(d, 32, s) == 0);
    BOOST_REQUIRE(cudaMemcpyAsync(h, d, sizeof h, kMemcpyDeviceToHost, s) == 0);
    BOOST_REQUIRE(cudaStreamEndCapture(s, &g) == 0);
    size_t nodes = 0;
    BOOST_REQUIRE(cudaGraphGetNodes(g, nullptr, &nodes) == 0);
    BOOST_TEST(nodes == 3u);
    BOOST_TEST(h[7] == 0);   // captured, not run
    cudaGraphExec_t e = nullptr;
    BOOST_REQUIRE(cudaGraphInstantiate(&e, g, 0) == 0);
    for (int run = 0; run < 2; ++run) {
        std::memset(h, 0, sizeof h);
        BOOST_REQUIRE(cudaGraphLaunch(e, s) == 0);
        BOOST_REQUIRE(cudaStreamSynchronize(s) == 0);
        BOOST_TEST(h[7] == 7);
    }
    BOOST_TEST(cudaGraphExecDestroy(e) == 0);
    BOOST_TEST(cudaGraphExecDestroy(e) == 1);   // a handle that is gone
    BOOST_TEST(cudaGraphDestroy(g) == 0);
    cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
}

using AnyFn = long (*)(long, long, long, long, long, long, long, long, long, long);

// Calls a function of any signature with ten zero arguments. That is the point of the test below,
// so clang's check of calls through a pointer of another function type is off here.
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
static void call_with_zeros(AnyFn fn) { fn(0, 0, 0, 0, 0, 0, 0, 0, 0, 0); }

// Whatever a program calls, with whatever it passes, the library answers: here every function
// CUDA 13 exports, called with zeros for every argument (null pointers, handle 0, size 0).
BOOST_AUTO_TEST_CASE(every_export_called_with_zeros_returns) {
    std::ifstream list(GPUSIM_SOURCE_DIR "/sw/cudart/cudart13_symbols.txt");
    std::string name;
    int called = 0;
    while (list >> name) {
        // Reset and the exit paths would end the process's runtime for the tests that follow;
        // they are called last.
        if (name == "cudaDeviceReset" || name == "cudaThreadExit" || name == "__cudaUnregisterFatBinary") continue;
        // cudaCreateChannelDesc returns a 20-byte struct through a hidden pointer: it is called
        // with its own signature below.
        if (name == "cudaCreateChannelDesc") continue;
        auto fn = reinterpret_cast<AnyFn>(dlsym(RTLD_DEFAULT, name.c_str()));
        BOOST_REQUIRE_MESSAGE(fn, name << " is not exported");
        call_with_zeros(fn);
        ++called;
    }
    BOOST_TEST(called > 400);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindSigned);
    BOOST_TEST((desc.x == 0 && desc.y == 0 && desc.f == cudaChannelFormatKindSigned));
    cudaGetLastError();
    BOOST_TEST(cudaDeviceSynchronize() == 0);
    int* d = nullptr;
    BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 64 * sizeof(int)) == 0);   // still usable
    BOOST_TEST(tiny().launch(d, 64, nullptr) == 0);
    BOOST_TEST(cudaDeviceSynchronize() == 0);
    cudaFree(d);
}

// Arrays and objects answer bad requests with CUDA's error codes, and good ones with what was asked.
BOOST_AUTO_TEST_CASE(arrays_and_texture_objects_check_their_arguments) {
    cudaGetLastError();
    cudaArray_t a = nullptr;
    const cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    BOOST_TEST(cudaMallocArray(&a, &three, 16, 16, 0) == 20);          // cudaErrorInvalidChannelDescriptor
    const cudaChannelFormatDesc byte_float = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
    BOOST_TEST(cudaMallocArray(&a, &byte_float, 16, 16, 0) == 20);
    const cudaChannelFormatDesc u8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    BOOST_TEST(cudaMalloc3DArray(&a, &u8, cudaExtent{4, 5, 6}, cudaArrayCubemap) == 1);   // faces must be square
    BOOST_REQUIRE(cudaMalloc3DArray(&a, &u8, cudaExtent{7, 5, 3}, cudaArrayLayered) == 0);
    cudaChannelFormatDesc got{};
    cudaExtent extent{};
    unsigned flags = 99;
    BOOST_TEST(cudaArrayGetInfo(&got, &extent, &flags, a) == 0);
    BOOST_TEST((got.x == 8 && extent.width == 7 && extent.height == 5 && extent.depth == 3 && flags == unsigned(cudaArrayLayered)));

    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc td{};
    td.filterMode = cudaFilterModeLinear;   // linear filtering of integers needs normalized-float reads
    cudaTextureObject_t t = 0;
    BOOST_TEST(cudaCreateTextureObject(&t, &res, &td, nullptr) == 26);   // cudaErrorInvalidFilterSetting
    td.readMode = cudaReadModeNormalizedFloat;
    td.borderColor[2] = 0.5f;
    BOOST_REQUIRE(cudaCreateTextureObject(&t, &res, &td, nullptr) == 0);
    BOOST_TEST(t != 0u);
    cudaTextureDesc back{};
    BOOST_TEST(cudaGetTextureObjectTextureDesc(&back, t) == 0);
    BOOST_TEST((back.filterMode == cudaFilterModeLinear && back.borderColor[2] == 0.5f));
    cudaSurfaceObject_t s = 0;
    BOOST_TEST(cudaCreateSurfaceObject(&s, &res) == 1);   // the array lacks cudaArraySurfaceLoadStore
    BOOST_TEST(cudaDestroyTextureObject(t) == 0);
    BOOST_TEST(cudaGetTextureObjectTextureDesc(&back, t) == 1);   // destroyed
    BOOST_TEST(cudaFreeArray(a) == 0);
    BOOST_TEST(cudaFreeArray(a) == 400);   // cudaErrorInvalidResourceHandle
    cudaGetLastError();
}

// An array copy on a capturing stream becomes a graph node: nothing moves until the graph runs.
BOOST_AUTO_TEST_CASE(array_copies_are_captured_into_graphs) {
    cudaGetLastError();
    const cudaChannelFormatDesc u32 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = nullptr;
    BOOST_REQUIRE(cudaMallocArray(&a, &u32, 4, 2, 0) == 0);
    const uint32_t zeros[8] = {}, values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    BOOST_REQUIRE(cudaMemcpy2DToArrayAsync(a, 0, 0, zeros, 16, 16, 2, 1, nullptr) == 0);
    cudaStream_t s = nullptr;
    BOOST_REQUIRE(cudaStreamCreate(&s) == 0);
    BOOST_REQUIRE(cudaStreamBeginCapture(s, 0) == 0);
    BOOST_REQUIRE(cudaMemcpy2DToArrayAsync(a, 4, 1, values, 16, 8, 1, 1, s) == 0);   // row 1, elements 1 and 2
    cudaGraph_t g = nullptr;
    BOOST_REQUIRE(cudaStreamEndCapture(s, &g) == 0);
    uint32_t back[8] = {99};
    BOOST_REQUIRE(cudaMemcpy2DFromArray(back, 16, a, 0, 0, 16, 2, 2) == 0);
    BOOST_TEST(back[5] == 0u);   // captured, not yet run
    cudaGraphExec_t e = nullptr;
    BOOST_REQUIRE(cudaGraphInstantiate(&e, g, 0) == 0);
    BOOST_REQUIRE(cudaGraphLaunch(e, s) == 0);
    BOOST_REQUIRE(cudaStreamSynchronize(s) == 0);
    BOOST_REQUIRE(cudaMemcpy2DFromArray(back, 16, a, 0, 0, 16, 2, 2) == 0);
    const uint32_t want[8] = {0, 0, 0, 0, 0, 1, 2, 0};
    for (int k = 0; k < 8; ++k) BOOST_TEST(back[k] == want[k]);
    cudaGraphExecDestroy(e);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    BOOST_TEST(cudaFreeArray(a) == 0);
}
