// peer_access: multi-GPU copy code that must also run on a single GPU, in the style of the simpleP2P sample:
// it probes every device pair with cudaDeviceCanAccessPeer, copies between a source and a peer device with
// cudaMemcpyPeer / cudaMemcpyPeerAsync (device 0 to itself on a one-GPU machine) and through a host-staged
// fallback, and checks the error codes of the misuse cases (self peer access, out-of-range ordinals).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/cuda_helpers.h"

__global__ void SimpleKernel(const float* src, float* dst, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) dst[idx] = src[idx] * 2.0f;
}

static int count_errors(const float* got, const float* want, int n, float scale) {
    int errors = 0;
    for (int i = 0; i < n; i++)
        if (got[i] != want[i] * scale) errors++;
    return errors;
}

int main(int argc, char** argv) {
    (void)argc;
    (void)argv;
    printf("[peer_access] - Starting...\n");

    int gpu_n = 0;
    checkCudaErrors(cudaGetDeviceCount(&gpu_n));
    fprintf(stderr, "CUDA-capable device count: %i\n", gpu_n);
    if (gpu_n < 1) {
        printf("no CUDA device\n");
        return EXIT_FAILURE;
    }

    // Every ordered pair of distinct devices.
    int peer_pairs = 0;
    for (int i = 0; i < gpu_n; i++) {
        for (int j = 0; j < gpu_n; j++) {
            if (i == j) continue;
            int can = 0;
            checkCudaErrors(cudaDeviceCanAccessPeer(&can, i, j));
            fprintf(stderr, "> Peer access from GPU%d -> GPU%d : %s\n", i, j, can ? "Yes" : "No");
            if (can) peer_pairs++;
        }
    }
    fprintf(stderr, "peer pairs: %d\n", peer_pairs);

    int self = -1;
    checkCudaErrors(cudaDeviceCanAccessPeer(&self, 0, 0));
    printf("cudaDeviceCanAccessPeer(device 0, device 0) reports: %d\n", self);

    // The source is device 0; the peer is device 1 where there is one, else device 0 itself.
    const int src_dev = 0;
    const int dst_dev = gpu_n > 1 ? 1 : 0;
    bool direct = false;
    if (dst_dev != src_dev) {
        int a = 0, b = 0;
        checkCudaErrors(cudaDeviceCanAccessPeer(&a, src_dev, dst_dev));
        checkCudaErrors(cudaDeviceCanAccessPeer(&b, dst_dev, src_dev));
        direct = a && b;
    }
    fprintf(stderr, "copy path: GPU%d -> GPU%d, %s\n", src_dev, dst_dev,
            direct ? "peer-to-peer" : "no peer access (cudaMemcpyPeer stages it)");

    const int n = 1 << 16;
    const size_t buf_size = n * sizeof(float);
    float *g0, *g1, *h0;
    checkCudaErrors(cudaSetDevice(src_dev));
    if (direct) checkCudaErrors(cudaDeviceEnablePeerAccess(dst_dev, 0));
    checkCudaErrors(cudaMalloc(&g0, buf_size));
    checkCudaErrors(cudaSetDevice(dst_dev));
    if (direct) checkCudaErrors(cudaDeviceEnablePeerAccess(src_dev, 0));
    checkCudaErrors(cudaMalloc(&g1, buf_size));
    checkCudaErrors(cudaMallocHost(&h0, buf_size));

    std::vector<float> ref(n);
    Lcg rng(4242);
    for (int i = 0; i < n; i++) ref[i] = (float)rng.below(1 << 20);
    checkCudaErrors(cudaSetDevice(src_dev));
    checkCudaErrors(cudaMemcpy(g0, ref.data(), buf_size, cudaMemcpyHostToDevice));

    bool ok = true;
    // 1. cudaMemcpyPeer, then a kernel on the peer doubles the data, copied back on the host.
    checkCudaErrors(cudaMemset(g1, 0, buf_size));
    checkCudaErrors(cudaMemcpyPeer(g1, dst_dev, g0, src_dev, buf_size));
    checkCudaErrors(cudaSetDevice(dst_dev));
    float* g1b;
    checkCudaErrors(cudaMalloc(&g1b, buf_size));
    SimpleKernel<<<n / 256, 256>>>(g1, g1b, n);
    getLastCudaError("SimpleKernel launch failed");
    checkCudaErrors(cudaMemcpy(h0, g1b, buf_size, cudaMemcpyDeviceToHost));
    int errors = count_errors(h0, ref.data(), n, 2.0f);
    printf("cudaMemcpyPeer to the peer device, kernel there: %s\n", errors == 0 ? "correct" : "WRONG");
    ok = ok && errors == 0;

    // 2. cudaMemcpyPeerAsync back to the source device on a stream.
    cudaStream_t stream;
    checkCudaErrors(cudaSetDevice(src_dev));
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    checkCudaErrors(cudaMemsetAsync(g0, 0, buf_size, stream));
    checkCudaErrors(cudaMemcpyPeerAsync(g0, src_dev, g1b, dst_dev, buf_size, stream));
    checkCudaErrors(cudaMemcpyAsync(h0, g0, buf_size, cudaMemcpyDeviceToHost, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));
    errors = count_errors(h0, ref.data(), n, 2.0f);
    printf("cudaMemcpyPeerAsync back to the source device: %s\n", errors == 0 ? "correct" : "WRONG");
    ok = ok && errors == 0;

    // 3. The fallback every multi-GPU code carries: stage through pinned host memory.
    checkCudaErrors(cudaMemcpy(h0, g0, buf_size, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaSetDevice(dst_dev));
    checkCudaErrors(cudaMemset(g1, 0, buf_size));
    checkCudaErrors(cudaMemcpy(g1, h0, buf_size, cudaMemcpyHostToDevice));
    SimpleKernel<<<n / 256, 256>>>(g1, g1b, n);
    getLastCudaError("SimpleKernel launch failed");
    checkCudaErrors(cudaMemcpy(h0, g1b, buf_size, cudaMemcpyDeviceToHost));
    errors = count_errors(h0, ref.data(), n, 4.0f);
    printf("host-staged fallback path works: %s\n", errors == 0 ? "yes" : "no");
    ok = ok && errors == 0;

    // 4. Misuse, as defensive multi-GPU code probes it; none of these errors is sticky.
    checkCudaErrors(cudaSetDevice(0));
    // The reference manual promises cudaErrorInvalidDevice when the device cannot access the peer; the
    // CUDA 13 driver (580) answers cudaErrorPeerAccessUnsupported for a device and itself. Either is a refusal.
    cudaError_t e = cudaDeviceEnablePeerAccess(0, 0);
    printf("cudaDeviceEnablePeerAccess(0) on device 0 itself: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    ok = ok && (e == cudaErrorPeerAccessUnsupported || e == cudaErrorInvalidDevice);

    e = cudaSetDevice(gpu_n);
    printf("cudaSetDevice(device count): %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    ok = ok && e == cudaErrorInvalidDevice;
    int current = -1;
    checkCudaErrors(cudaGetDevice(&current));
    printf("current device after the failed cudaSetDevice: %d\n", current);
    ok = ok && current == 0;

    cudaDeviceProp prop;
    e = cudaGetDeviceProperties(&prop, gpu_n);
    printf("cudaGetDeviceProperties(device count): %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    ok = ok && e == cudaErrorInvalidDevice;
    e = cudaGetDeviceProperties(&prop, -1);
    printf("cudaGetDeviceProperties(-1): %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    ok = ok && e == cudaErrorInvalidDevice;

    int can = -1;
    e = cudaDeviceCanAccessPeer(&can, 0, gpu_n);
    printf("cudaDeviceCanAccessPeer(0, device count): %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    ok = ok && e == cudaErrorInvalidDevice;

    e = cudaGetLastError();
    printf("cudaGetLastError after the probes: %s\n", cudaGetErrorName(e));

    // The device still works after all of that.
    SimpleKernel<<<n / 256, 256>>>(g0, g0, n);
    getLastCudaError("SimpleKernel launch after the probes failed");
    checkCudaErrors(cudaMemcpy(h0, g0, buf_size, cudaMemcpyDeviceToHost));
    errors = count_errors(h0, ref.data(), n, 4.0f);
    printf("device 0 still computes correctly: %s\n", errors == 0 ? "yes" : "no");
    ok = ok && errors == 0;

    checkCudaErrors(cudaStreamDestroy(stream));
    checkCudaErrors(cudaFreeHost(h0));
    checkCudaErrors(cudaSetDevice(dst_dev));
    checkCudaErrors(cudaFree(g1));
    checkCudaErrors(cudaFree(g1b));
    if (direct) checkCudaErrors(cudaDeviceDisablePeerAccess(src_dev));
    checkCudaErrors(cudaSetDevice(src_dev));
    if (direct) checkCudaErrors(cudaDeviceDisablePeerAccess(dst_dev));
    checkCudaErrors(cudaFree(g0));

    printf("peer_access: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
