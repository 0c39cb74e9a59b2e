// Device query: count, selection, properties and attributes agree with each other; a kernel's
// attributes, occupancy and cache preferences.
#include "check.h"

__global__ void staged(float* out, int n) {
    __shared__ float tile[256];
    int t = threadIdx.x;
    tile[t] = float(t);
    __syncthreads();
    if (t < n) out[t] = tile[255 - t];
}

int main() {
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    EXPECT(p.warpSize == 32);
    EXPECT(p.major >= 1 && p.multiProcessorCount >= 1);
    EXPECT(p.maxThreadsPerBlock >= 512 && p.maxThreadsDim[0] >= 512 && p.maxGridSize[0] >= 65535);
    EXPECT(p.sharedMemPerBlock >= 16384 && p.regsPerBlock >= 8192 && p.totalGlobalMem > 0);
    EXPECT(p.totalConstMem == 65536);
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == p.multiProcessorCount);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == p.major);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    EXPECT(v == p.maxThreadsPerBlock);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrAsyncEngineCount, 0));
    EXPECT(v == p.asyncEngineCount);
    int clock = 0, mem_clock = 0;
    CHECK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0));
    EXPECT(clock > 0 && mem_clock > 0);
    cudaDeviceProp want{};
    want.major = 1;
    int chosen = -1;
    CHECK(cudaChooseDevice(&chosen, &want));
    EXPECT(chosen == 0);
    EXPECT(cudaSetDevice(count) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaSuccess);
    int rt = 0;
    CHECK(cudaRuntimeGetVersion(&rt));
    EXPECT(rt >= 13000);
    size_t free_b = 0, total = 0;
    CHECK(cudaMemGetInfo(&free_b, &total));
    EXPECT(total == p.totalGlobalMem && free_b <= total);
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, staged));
    EXPECT(fa.sharedSizeBytes == 256 * sizeof(float));
    EXPECT(fa.maxThreadsPerBlock >= 256 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock);
    EXPECT(fa.numRegs > 0);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, staged, 256, 0));
    EXPECT(blocks >= 1);
    CHECK(cudaFuncSetCacheConfig(staged, cudaFuncCachePreferShared));
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    CHECK(cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    float* out;
    CHECK(cudaMalloc(&out, 256 * sizeof(float)));
    staged<<<1, 256, 1024>>>(out, 256);
    float last = 0;
    CHECK(cudaMemcpy(&last, out + 255, sizeof last, cudaMemcpyDeviceToHost));
    EXPECT(last == 0.0f);
    CHECK(cudaFree(out));
    std::printf("device_query: %d device(s), warp size %d, %s\n", count, p.warpSize,
                cudaGetErrorString(cudaSuccess));
    return 0;
}
