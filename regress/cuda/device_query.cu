// Device query: count, selection, properties and attributes agree with each other.
#include "check.h"

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
    std::printf("device_query: %d device(s), warp size %d, %s\n", count, p.warpSize,
                cudaGetErrorString(cudaSuccess));
    return 0;
}
