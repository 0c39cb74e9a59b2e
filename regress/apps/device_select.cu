// device_select: a device-selection helper in the CUDA samples' style (deviceQuery, gpuGetMaxGflopsDeviceId):
// it walks every cudaDeviceAttr enumerator of CUDA 13 with cudaDeviceGetAttribute, checks each against the
// matching cudaDeviceProp field, ranks the devices on their attributes, then runs one small kernel there.
// Exercises cudaDeviceGetAttribute (all attributes), cudaGetDeviceProperties, cudaChooseDevice, error codes.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/cuda_helpers.h"

// Every enumerator of enum cudaDeviceAttr in CUDA 13.0's driver_types.h, in declaration order.
struct AttrInfo {
    cudaDeviceAttr attr;
    const char* name;
    bool reserved;
};
#define ATTR(x) {cudaDevAttr##x, "cudaDevAttr" #x, false}
#define RESERVED(x) {cudaDevAttr##x, "cudaDevAttr" #x, true}
static const AttrInfo kAttributes[] = {
    ATTR(MaxThreadsPerBlock), ATTR(MaxBlockDimX), ATTR(MaxBlockDimY), ATTR(MaxBlockDimZ), ATTR(MaxGridDimX),
    ATTR(MaxGridDimY), ATTR(MaxGridDimZ), ATTR(MaxSharedMemoryPerBlock), ATTR(TotalConstantMemory),
    ATTR(WarpSize), ATTR(MaxPitch), ATTR(MaxRegistersPerBlock), ATTR(ClockRate), ATTR(TextureAlignment),
    ATTR(GpuOverlap), ATTR(MultiProcessorCount), ATTR(KernelExecTimeout), ATTR(Integrated),
    ATTR(CanMapHostMemory), ATTR(ComputeMode), ATTR(MaxTexture1DWidth), ATTR(MaxTexture2DWidth),
    ATTR(MaxTexture2DHeight), ATTR(MaxTexture3DWidth), ATTR(MaxTexture3DHeight), ATTR(MaxTexture3DDepth),
    ATTR(MaxTexture2DLayeredWidth), ATTR(MaxTexture2DLayeredHeight), ATTR(MaxTexture2DLayeredLayers),
    ATTR(SurfaceAlignment), ATTR(ConcurrentKernels), ATTR(EccEnabled), ATTR(PciBusId), ATTR(PciDeviceId),
    ATTR(TccDriver), ATTR(MemoryClockRate), ATTR(GlobalMemoryBusWidth), ATTR(L2CacheSize),
    ATTR(MaxThreadsPerMultiProcessor), ATTR(AsyncEngineCount), ATTR(UnifiedAddressing),
    ATTR(MaxTexture1DLayeredWidth), ATTR(MaxTexture1DLayeredLayers), ATTR(MaxTexture2DGatherWidth),
    ATTR(MaxTexture2DGatherHeight), ATTR(MaxTexture3DWidthAlt), ATTR(MaxTexture3DHeightAlt),
    ATTR(MaxTexture3DDepthAlt), ATTR(PciDomainId), ATTR(TexturePitchAlignment), ATTR(MaxTextureCubemapWidth),
    ATTR(MaxTextureCubemapLayeredWidth), ATTR(MaxTextureCubemapLayeredLayers), ATTR(MaxSurface1DWidth),
    ATTR(MaxSurface2DWidth), ATTR(MaxSurface2DHeight), ATTR(MaxSurface3DWidth), ATTR(MaxSurface3DHeight),
    ATTR(MaxSurface3DDepth), ATTR(MaxSurface1DLayeredWidth), ATTR(MaxSurface1DLayeredLayers),
    ATTR(MaxSurface2DLayeredWidth), ATTR(MaxSurface2DLayeredHeight), ATTR(MaxSurface2DLayeredLayers),
    ATTR(MaxSurfaceCubemapWidth), ATTR(MaxSurfaceCubemapLayeredWidth), ATTR(MaxSurfaceCubemapLayeredLayers),
    ATTR(MaxTexture1DLinearWidth), ATTR(MaxTexture2DLinearWidth), ATTR(MaxTexture2DLinearHeight),
    ATTR(MaxTexture2DLinearPitch), ATTR(MaxTexture2DMipmappedWidth), ATTR(MaxTexture2DMipmappedHeight),
    ATTR(ComputeCapabilityMajor), ATTR(ComputeCapabilityMinor), ATTR(MaxTexture1DMipmappedWidth),
    ATTR(StreamPrioritiesSupported), ATTR(GlobalL1CacheSupported), ATTR(LocalL1CacheSupported),
    ATTR(MaxSharedMemoryPerMultiprocessor), ATTR(MaxRegistersPerMultiprocessor), ATTR(ManagedMemory),
    ATTR(IsMultiGpuBoard), ATTR(MultiGpuBoardGroupID), ATTR(HostNativeAtomicSupported),
    ATTR(SingleToDoublePrecisionPerfRatio), ATTR(PageableMemoryAccess), ATTR(ConcurrentManagedAccess),
    ATTR(ComputePreemptionSupported), ATTR(CanUseHostPointerForRegisteredMem), RESERVED(Reserved92),
    RESERVED(Reserved93), RESERVED(Reserved94), ATTR(CooperativeLaunch), RESERVED(Reserved96),
    ATTR(MaxSharedMemoryPerBlockOptin), ATTR(CanFlushRemoteWrites), ATTR(HostRegisterSupported),
    ATTR(PageableMemoryAccessUsesHostPageTables), ATTR(DirectManagedMemAccessFromHost),
    ATTR(MaxBlocksPerMultiprocessor), ATTR(MaxPersistingL2CacheSize), ATTR(MaxAccessPolicyWindowSize),
    ATTR(ReservedSharedMemoryPerBlock), ATTR(SparseCudaArraySupported), ATTR(HostRegisterReadOnlySupported),
    ATTR(TimelineSemaphoreInteropSupported), ATTR(MemoryPoolsSupported), ATTR(GPUDirectRDMASupported),
    ATTR(GPUDirectRDMAFlushWritesOptions), ATTR(GPUDirectRDMAWritesOrdering),
    ATTR(MemoryPoolSupportedHandleTypes), ATTR(ClusterLaunch), ATTR(DeferredMappingCudaArraySupported),
    RESERVED(Reserved122), RESERVED(Reserved123), RESERVED(Reserved124), ATTR(IpcEventSupport),
    ATTR(MemSyncDomainCount), RESERVED(Reserved127), RESERVED(Reserved128), RESERVED(Reserved129),
    ATTR(NumaConfig), ATTR(NumaId), RESERVED(Reserved132), ATTR(MpsEnabled), ATTR(HostNumaId),
    ATTR(D3D12CigSupported), ATTR(VulkanCigSupported), ATTR(GpuPciDeviceId), ATTR(GpuPciSubsystemId),
    RESERVED(Reserved141), ATTR(HostNumaMemoryPoolsSupported), ATTR(HostNumaMultinodeIpcSupported),
    ATTR(HostMemoryPoolsSupported), RESERVED(Reserved145), ATTR(OnlyPartialHostNativeAtomicSupported)
};
#undef ATTR
#undef RESERVED
static const int kNumAttributes = int(sizeof(kAttributes) / sizeof(kAttributes[0]));

// The cudaDeviceProp field that carries the same fact as an attribute, if CUDA 13's struct still has one.
// Returns false where the struct has no such field (clockRate, computeMode, kernelExecTimeoutEnabled and
// memoryClockRate left cudaDeviceProp in CUDA 13; some attributes never had one).
static bool prop_value(const cudaDeviceProp& p, cudaDeviceAttr a, long long* v) {
    switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; return true;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; return true;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; return true;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; return true;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; return true;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (long long)p.sharedMemPerBlock; return true;
    case cudaDevAttrTotalConstantMemory: *v = (long long)p.totalConstMem; return true;
    case cudaDevAttrWarpSize: *v = p.warpSize; return true;
    case cudaDevAttrMaxPitch: *v = (long long)p.memPitch; return true;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; return true;
    case cudaDevAttrTextureAlignment: *v = (long long)p.textureAlignment; return true;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; return true;
    case cudaDevAttrIntegrated: *v = p.integrated; return true;
    case cudaDevAttrCanMapHostMemory: *v = p.canMapHostMemory; return true;
    case cudaDevAttrMaxTexture1DWidth: *v = p.maxTexture1D; return true;
    case cudaDevAttrMaxTexture2DWidth: *v = p.maxTexture2D[0]; return true;
    case cudaDevAttrMaxTexture2DHeight: *v = p.maxTexture2D[1]; return true;
    case cudaDevAttrMaxTexture3DWidth: *v = p.maxTexture3D[0]; return true;
    case cudaDevAttrMaxTexture3DHeight: *v = p.maxTexture3D[1]; return true;
    case cudaDevAttrMaxTexture3DDepth: *v = p.maxTexture3D[2]; return true;
    case cudaDevAttrMaxTexture2DLayeredWidth: *v = p.maxTexture2DLayered[0]; return true;
    case cudaDevAttrMaxTexture2DLayeredHeight: *v = p.maxTexture2DLayered[1]; return true;
    case cudaDevAttrMaxTexture2DLayeredLayers: *v = p.maxTexture2DLayered[2]; return true;
    case cudaDevAttrSurfaceAlignment: *v = (long long)p.surfaceAlignment; return true;
    case cudaDevAttrConcurrentKernels: *v = p.concurrentKernels; return true;
    case cudaDevAttrEccEnabled: *v = p.ECCEnabled; return true;
    case cudaDevAttrPciBusId: *v = p.pciBusID; return true;
    case cudaDevAttrPciDeviceId: *v = p.pciDeviceID; return true;
    case cudaDevAttrTccDriver: *v = p.tccDriver; return true;
    case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; return true;
    case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; return true;
    case cudaDevAttrAsyncEngineCount: *v = p.asyncEngineCount; return true;
    case cudaDevAttrUnifiedAddressing: *v = p.unifiedAddressing; return true;
    case cudaDevAttrMaxTexture1DLayeredWidth: *v = p.maxTexture1DLayered[0]; return true;
    case cudaDevAttrMaxTexture1DLayeredLayers: *v = p.maxTexture1DLayered[1]; return true;
    case cudaDevAttrMaxTexture2DGatherWidth: *v = p.maxTexture2DGather[0]; return true;
    case cudaDevAttrMaxTexture2DGatherHeight: *v = p.maxTexture2DGather[1]; return true;
    case cudaDevAttrMaxTexture3DWidthAlt: *v = p.maxTexture3DAlt[0]; return true;
    case cudaDevAttrMaxTexture3DHeightAlt: *v = p.maxTexture3DAlt[1]; return true;
    case cudaDevAttrMaxTexture3DDepthAlt: *v = p.maxTexture3DAlt[2]; return true;
    case cudaDevAttrPciDomainId: *v = p.pciDomainID; return true;
    case cudaDevAttrTexturePitchAlignment: *v = (long long)p.texturePitchAlignment; return true;
    case cudaDevAttrMaxTextureCubemapWidth: *v = p.maxTextureCubemap; return true;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = p.maxTextureCubemapLayered[0]; return true;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *v = p.maxTextureCubemapLayered[1]; return true;
    case cudaDevAttrMaxSurface1DWidth: *v = p.maxSurface1D; return true;
    case cudaDevAttrMaxSurface2DWidth: *v = p.maxSurface2D[0]; return true;
    case cudaDevAttrMaxSurface2DHeight: *v = p.maxSurface2D[1]; return true;
    case cudaDevAttrMaxSurface3DWidth: *v = p.maxSurface3D[0]; return true;
    case cudaDevAttrMaxSurface3DHeight: *v = p.maxSurface3D[1]; return true;
    case cudaDevAttrMaxSurface3DDepth: *v = p.maxSurface3D[2]; return true;
    case cudaDevAttrMaxSurface1DLayeredWidth: *v = p.maxSurface1DLayered[0]; return true;
    case cudaDevAttrMaxSurface1DLayeredLayers: *v = p.maxSurface1DLayered[1]; return true;
    case cudaDevAttrMaxSurface2DLayeredWidth: *v = p.maxSurface2DLayered[0]; return true;
    case cudaDevAttrMaxSurface2DLayeredHeight: *v = p.maxSurface2DLayered[1]; return true;
    case cudaDevAttrMaxSurface2DLayeredLayers: *v = p.maxSurface2DLayered[2]; return true;
    case cudaDevAttrMaxSurfaceCubemapWidth: *v = p.maxSurfaceCubemap; return true;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = p.maxSurfaceCubemapLayered[0]; return true;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *v = p.maxSurfaceCubemapLayered[1]; return true;
    case cudaDevAttrMaxTexture2DLinearWidth: *v = p.maxTexture2DLinear[0]; return true;
    case cudaDevAttrMaxTexture2DLinearHeight: *v = p.maxTexture2DLinear[1]; return true;
    case cudaDevAttrMaxTexture2DLinearPitch: *v = p.maxTexture2DLinear[2]; return true;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *v = p.maxTexture2DMipmap[0]; return true;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *v = p.maxTexture2DMipmap[1]; return true;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; return true;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; return true;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *v = p.maxTexture1DMipmap; return true;
    case cudaDevAttrStreamPrioritiesSupported: *v = p.streamPrioritiesSupported; return true;
    case cudaDevAttrGlobalL1CacheSupported: *v = p.globalL1CacheSupported; return true;
    case cudaDevAttrLocalL1CacheSupported: *v = p.localL1CacheSupported; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (long long)p.sharedMemPerMultiprocessor; return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; return true;
    case cudaDevAttrManagedMemory: *v = p.managedMemory; return true;
    case cudaDevAttrIsMultiGpuBoard: *v = p.isMultiGpuBoard; return true;
    case cudaDevAttrMultiGpuBoardGroupID: *v = p.multiGpuBoardGroupID; return true;
    case cudaDevAttrHostNativeAtomicSupported: *v = p.hostNativeAtomicSupported; return true;
    case cudaDevAttrPageableMemoryAccess: *v = p.pageableMemoryAccess; return true;
    case cudaDevAttrConcurrentManagedAccess: *v = p.concurrentManagedAccess; return true;
    case cudaDevAttrComputePreemptionSupported: *v = p.computePreemptionSupported; return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *v = p.canUseHostPointerForRegisteredMem; return true;
    case cudaDevAttrCooperativeLaunch: *v = p.cooperativeLaunch; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (long long)p.sharedMemPerBlockOptin; return true;
    case cudaDevAttrHostRegisterSupported: *v = p.hostRegisterSupported; return true;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *v = p.pageableMemoryAccessUsesHostPageTables; return true;
    case cudaDevAttrDirectManagedMemAccessFromHost: *v = p.directManagedMemAccessFromHost; return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; return true;
    case cudaDevAttrMaxPersistingL2CacheSize: *v = p.persistingL2CacheMaxSize; return true;
    case cudaDevAttrMaxAccessPolicyWindowSize: *v = p.accessPolicyMaxWindowSize; return true;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (long long)p.reservedSharedMemPerBlock; return true;
    case cudaDevAttrSparseCudaArraySupported: *v = p.sparseCudaArraySupported; return true;
    case cudaDevAttrHostRegisterReadOnlySupported: *v = p.hostRegisterReadOnlySupported; return true;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *v = p.timelineSemaphoreInteropSupported; return true;
    case cudaDevAttrMemoryPoolsSupported: *v = p.memoryPoolsSupported; return true;
    case cudaDevAttrGPUDirectRDMASupported: *v = p.gpuDirectRDMASupported; return true;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *v = (int)p.gpuDirectRDMAFlushWritesOptions; return true;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *v = p.gpuDirectRDMAWritesOrdering; return true;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *v = (int)p.memoryPoolSupportedHandleTypes; return true;
    case cudaDevAttrClusterLaunch: *v = p.clusterLaunch; return true;
    case cudaDevAttrDeferredMappingCudaArraySupported: *v = p.deferredMappingCudaArraySupported; return true;
    case cudaDevAttrIpcEventSupport: *v = p.ipcEventSupported; return true;
    case cudaDevAttrNumaConfig: *v = p.deviceNumaConfig; return true;
    case cudaDevAttrNumaId: *v = p.deviceNumaId; return true;
    case cudaDevAttrMpsEnabled: *v = p.mpsEnabled; return true;
    case cudaDevAttrHostNumaId: *v = p.hostNumaId; return true;
    case cudaDevAttrGpuPciDeviceId: *v = (int)p.gpuPciDeviceID; return true;
    case cudaDevAttrGpuPciSubsystemId: *v = (int)p.gpuPciSubsystemID; return true;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *v = p.hostNumaMultinodeIpcSupported; return true;
    default: return false;
    }
}

// The samples' way to pick a GPU: skip prohibited devices and those too old for this binary's PTX
// (compute_75), then take the one with the most resident threads. Everything comes from attributes.
static int pick_device() {
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    int best = -1;
    long long best_score = -1;
    for (int dev = 0; dev < count; ++dev) {
        int mode, major, minor, sms, threads_per_sm, managed;
        checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
        bool usable = mode != cudaComputeModeProhibited && major * 10 + minor >= 75;
        long long score = (long long)sms * threads_per_sm + (managed ? 1 : 0);
        fprintf(stderr, "device %d: sm_%d%d, %d SMs x %d threads, compute mode %d, score %lld%s\n", dev, major, minor,
                sms, threads_per_sm, mode, score, usable ? "" : " (not usable)");
        if (usable && score > best_score) {
            best_score = score;
            best = dev;
        }
    }
    return best;
}

// Per-block sums of a hashed index: the block size is chosen from the device's attributes.
__global__ void block_sums(unsigned* out, int n) {
    extern __shared__ unsigned partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = 0;
    if (i < n) {
        v = (unsigned)i * 2654435761u;
        v ^= v >> 15;
    }
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

int main(int argc, char** argv) {
    (void)argc;
    (void)argv;
    printf("device_select: walking the cudaDeviceAttr enumerators of CUDA 13\n");

    int dev = pick_device();
    if (dev < 0) {
        printf("no usable CUDA device (compute capability 7.5 or newer)\n");
        return EXIT_FAILURE;
    }
    checkCudaErrors(cudaSetDevice(dev));
    fprintf(stderr, "selected device %d\n", dev);

    // cudaChooseDevice as the older samples used it: ask for compute capability 7.5.
    cudaDeviceProp want;
    memset(&want, 0, sizeof(want));
    want.major = 7;
    want.minor = 5;
    int chosen = -1;
    checkCudaErrors(cudaChooseDevice(&chosen, &want));
    cudaDeviceProp chosen_prop;
    checkCudaErrors(cudaGetDeviceProperties(&chosen_prop, chosen));
    fprintf(stderr, "cudaChooseDevice picked device %d\n", chosen);
    printf("cudaChooseDevice returned a device of compute capability >= 7.5: %s\n",
           chosen_prop.major * 10 + chosen_prop.minor >= 75 ? "yes" : "no");

    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    fprintf(stderr, "Device %d: \"%s\", compute capability %d.%d, %.1f GiB\n", dev, prop.name, prop.major, prop.minor,
            prop.totalGlobalMem / 1073741824.0);

    int named = 0, reserved = 0, named_ok = 0, with_field = 0, compared = 0, agree = 0;
    std::vector<const char*> failed;
    fprintf(stderr, "%-52s %5s %12s %12s %s\n", "attribute", "enum", "value", "prop", "status");
    for (int k = 0; k < kNumAttributes; ++k) {
        const AttrInfo& a = kAttributes[k];
        int value = 0;
        cudaError_t err = cudaDeviceGetAttribute(&value, a.attr, dev);
        long long pv = 0;
        bool has_field = prop_value(prop, a.attr, &pv);
        if (a.reserved) {
            ++reserved;
            // Reserved slots are driver-specific: their outcome goes to stderr only.
            fprintf(stderr, "%-52s %5d %12d %12s %s\n", a.name, (int)a.attr, value, "-", cudaGetErrorName(err));
            if (err != cudaSuccess) cudaGetLastError();
            continue;
        }
        ++named;
        if (has_field) ++with_field;
        if (err != cudaSuccess) {
            cudaGetLastError();   // a failed query is not sticky; clear it for the next call
            failed.push_back(a.name);
            fprintf(stderr, "%-52s %5d %12s %12s %s\n", a.name, (int)a.attr, "-", "-", cudaGetErrorName(err));
            continue;
        }
        ++named_ok;
        bool same = true;
        if (has_field) {
            ++compared;
            same = pv == (long long)value;
            if (same) ++agree;
        }
        char pbuf[32];
        if (has_field) snprintf(pbuf, sizeof(pbuf), "%lld", pv);
        else snprintf(pbuf, sizeof(pbuf), "-");
        fprintf(stderr, "%-52s %5d %12d %12s %s%s\n", a.name, (int)a.attr, value, pbuf, cudaGetErrorName(err),
                same ? "" : "  MISMATCH");
        if (!same) printf("mismatch: %s differs from its cudaDeviceProp field\n", a.name);
    }

    printf("enumerators walked: %d (%d named, %d reserved)\n", kNumAttributes, named, reserved);
    printf("named attributes that returned cudaSuccess: %d of %d\n", named_ok, named);
    for (const char* name : failed) printf("  query failed: %s\n", name);
    printf("named attributes with a cudaDeviceProp field: %d, compared: %d\n", with_field, compared);
    bool all_agree = agree == compared;
    printf("all attributes agree with cudaDeviceProp: %s\n", all_agree ? "yes" : "no");

    int warp = 0, mode = -1;
    checkCudaErrors(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
    printf("warp size: %d\n", warp);
    printf("compute mode: %s\n", mode == cudaComputeModeDefault      ? "default"
                                 : mode == cudaComputeModeExclusiveProcess ? "exclusive process"
                                 : mode == cudaComputeModeProhibited   ? "prohibited"
                                                                       : "other");

    // The two ways a query can go wrong, as a careful helper checks them.
    int dummy = 0, count = 0;
    cudaError_t bad_attr = cudaDeviceGetAttribute(&dummy, cudaDevAttrMax, dev);
    cudaGetLastError();
    checkCudaErrors(cudaGetDeviceCount(&count));
    cudaError_t bad_dev = cudaDeviceGetAttribute(&dummy, cudaDevAttrWarpSize, count);
    cudaGetLastError();
    printf("query of cudaDevAttrMax: %s\n", cudaGetErrorName(bad_attr));
    printf("query of device ordinal == device count: %s\n", cudaGetErrorName(bad_dev));

    // One small kernel on the chosen device, its block size taken from the attributes.
    int max_threads = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev));
    const int threads = max_threads < 256 ? max_threads : 256;
    const int n = 1 << 15;
    const int blocks = (n + threads - 1) / threads;
    unsigned* d_out = nullptr;
    checkCudaErrors(cudaMalloc(&d_out, blocks * sizeof(unsigned)));
    block_sums<<<blocks, threads, threads * sizeof(unsigned)>>>(d_out, n);
    getLastCudaError("block_sums launch failed");
    std::vector<unsigned> h_out(blocks);
    checkCudaErrors(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaFree(d_out));

    unsigned total = 0;
    int bad_blocks = 0;
    for (int b = 0; b < blocks; ++b) {
        unsigned ref = 0;
        for (int t = 0; t < threads; ++t) {
            int i = b * threads + t;
            if (i >= n) break;
            unsigned v = (unsigned)i * 2654435761u;
            ref += v ^ (v >> 15);
        }
        if (ref != h_out[b]) ++bad_blocks;
        total += h_out[b];
    }
    printf("kernel on the selected device: %d elements, checksum 0x%08x, %s\n", n, total,
           bad_blocks == 0 ? "matches the CPU" : "DOES NOT match the CPU");

    bool ok = all_agree && warp == 32 && bad_blocks == 0 && bad_attr == cudaErrorInvalidValue &&
              bad_dev == cudaErrorInvalidDevice;
    printf("device_select: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
