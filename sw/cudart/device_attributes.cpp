#include "cudart/device_attributes.h"

#include <cstdio>
#include <cstring>

#include "runtime/fnv1a.h"

namespace gpusim::cudart {

namespace {
constexpr int kWarpSize = 32;
constexpr int kPciBusId = 1;          // the model is the only GPU, on the first bus after the root
constexpr int kNvidiaVendorId = 0x10de;
constexpr int kAttrMax = 148;           // cudaDevAttrMax

int cc_major(const GpuConfig& c) { return c.compute_capability[0] - '0'; }
int cc_minor(const GpuConfig& c) { return c.compute_capability.size() > 2 ? c.compute_capability[2] - '0' : 0; }
int i32(uint64_t v) { return v > 0x7fffffffu ? 0x7fffffff : int(v); }

// Single-precision over double-precision throughput, from the config's pipes.
int single_to_double_ratio(const GpuConfig& c) {
    const auto& p = c.sm.timing.pipes;
    const PipeConfig& alu = p[size_t(PipeKind::Alu)];
    const PipeConfig& fp64 = p[size_t(PipeKind::Fp64)];
    const uint64_t a = uint64_t(alu.lanes) * (alu.per_scheduler ? c.sm.warp_schedulers : 1);
    const uint64_t d = uint64_t(fp64.lanes) * (fp64.per_scheduler ? c.sm.warp_schedulers : 1);
    return d ? i32(a / d) : 0;
}

// Attributes by their cudaDeviceAttr number. Those with no counterpart in the model answer what a
// plain single GPU in a workstation reports (default compute mode, no ECC, no MPS, ...).
enum Attr : int {
    MaxThreadsPerBlock = 1, MaxBlockDimX, MaxBlockDimY, MaxBlockDimZ, MaxGridDimX, MaxGridDimY, MaxGridDimZ,
    MaxSharedMemoryPerBlock, TotalConstantMemory, WarpSize, MaxPitch, MaxRegistersPerBlock, ClockRate,
    TextureAlignment, GpuOverlap, MultiProcessorCount, KernelExecTimeout, Integrated, CanMapHostMemory, ComputeMode,
    MaxTexture1DWidth, MaxTexture2DWidth, MaxTexture2DHeight, MaxTexture3DWidth, MaxTexture3DHeight,
    MaxTexture3DDepth, MaxTexture2DLayeredWidth, MaxTexture2DLayeredHeight, MaxTexture2DLayeredLayers,
    SurfaceAlignment, ConcurrentKernels, EccEnabled, PciBusId, PciDeviceId, TccDriver, MemoryClockRate,
    GlobalMemoryBusWidth, L2CacheSize, MaxThreadsPerMultiProcessor, AsyncEngineCount, UnifiedAddressing,
    MaxTexture1DLayeredWidth, MaxTexture1DLayeredLayers,
    MaxTexture2DGatherWidth = 45, MaxTexture2DGatherHeight, MaxTexture3DWidthAlt, MaxTexture3DHeightAlt,
    MaxTexture3DDepthAlt, PciDomainId, TexturePitchAlignment, MaxTextureCubemapWidth,
    MaxTextureCubemapLayeredWidth, MaxTextureCubemapLayeredLayers, MaxSurface1DWidth, MaxSurface2DWidth,
    MaxSurface2DHeight, MaxSurface3DWidth, MaxSurface3DHeight, MaxSurface3DDepth, MaxSurface1DLayeredWidth,
    MaxSurface1DLayeredLayers, MaxSurface2DLayeredWidth, MaxSurface2DLayeredHeight, MaxSurface2DLayeredLayers,
    MaxSurfaceCubemapWidth, MaxSurfaceCubemapLayeredWidth, MaxSurfaceCubemapLayeredLayers,
    MaxTexture1DLinearWidth, MaxTexture2DLinearWidth, MaxTexture2DLinearHeight, MaxTexture2DLinearPitch,
    MaxTexture2DMipmappedWidth, MaxTexture2DMipmappedHeight, ComputeCapabilityMajor, ComputeCapabilityMinor,
    MaxTexture1DMipmappedWidth, StreamPrioritiesSupported, GlobalL1CacheSupported, LocalL1CacheSupported,
    MaxSharedMemoryPerMultiprocessor, MaxRegistersPerMultiprocessor, ManagedMemory, IsMultiGpuBoard,
    MultiGpuBoardGroupID, HostNativeAtomicSupported, SingleToDoublePrecisionPerfRatio, PageableMemoryAccess,
    ConcurrentManagedAccess, ComputePreemptionSupported, CanUseHostPointerForRegisteredMem,
    CooperativeLaunch = 95, MaxSharedMemoryPerBlockOptin = 97, CanFlushRemoteWrites, HostRegisterSupported,
    PageableMemoryAccessUsesHostPageTables, DirectManagedMemAccessFromHost,
    MaxBlocksPerMultiprocessor = 106, MaxPersistingL2CacheSize = 108, MaxAccessPolicyWindowSize,
    ReservedSharedMemoryPerBlock = 111, SparseCudaArraySupported, HostRegisterReadOnlySupported,
    TimelineSemaphoreInteropSupported, MemoryPoolsSupported, GPUDirectRDMASupported,
    GPUDirectRDMAFlushWritesOptions, GPUDirectRDMAWritesOrdering, MemoryPoolSupportedHandleTypes, ClusterLaunch,
    DeferredMappingCudaArraySupported, IpcEventSupport = 125, MemSyncDomainCount, NumaConfig = 130, NumaId,
    MpsEnabled = 133, HostNumaId, D3D12CigSupported, VulkanCigSupported = 138, GpuPciDeviceId, GpuPciSubsystemId,
    HostNumaMemoryPoolsSupported = 142, HostNumaMultinodeIpcSupported, HostMemoryPoolsSupported,
    OnlyPartialHostNativeAtomicSupported = 147,
};
} // namespace

bool device_attribute(const GpuConfig& c, int attr, int& v) {
    const CudaFacts& f = c.cuda;
    const bool fermi_or_later = cc_major(c) >= 2;
    switch (attr) {
    case MaxThreadsPerBlock: v = i32(c.max_threads_per_block); return true;
    case MaxBlockDimX: case MaxBlockDimY: case MaxBlockDimZ: v = i32(c.max_block[size_t(attr - MaxBlockDimX)]); return true;
    case MaxGridDimX: case MaxGridDimY: case MaxGridDimZ: v = i32(c.max_grid[size_t(attr - MaxGridDimX)]); return true;
    case MaxSharedMemoryPerBlock: case MaxSharedMemoryPerBlockOptin: v = i32(c.max_shared_per_block); return true;
    case TotalConstantMemory: v = i32(f.constant_bytes); return true;
    case WarpSize: v = kWarpSize; return true;
    case MaxPitch: v = i32(f.max_pitch_bytes); return true;
    case MaxRegistersPerBlock: case MaxRegistersPerMultiprocessor: v = i32(c.sm.registers); return true;
    case ClockRate: v = i32(uint64_t(c.core_clock_mhz * 1000 + 0.5)); return true;          // kHz
    case MemoryClockRate: v = i32(uint64_t(c.memory_clock_mhz * 1000 + 0.5)); return true;  // kHz
    case TextureAlignment: v = i32(f.texture_alignment); return true;
    case TexturePitchAlignment: v = i32(f.texture_pitch_alignment); return true;
    case SurfaceAlignment: v = i32(f.surface_alignment); return true;
    case GpuOverlap: v = c.pcie.overlap; return true;
    case AsyncEngineCount: v = c.pcie.overlap ? i32(c.pcie.copy_engines) : 0; return true;
    case MultiProcessorCount: v = i32(c.num_sms); return true;
    case MaxTexture1DWidth: v = i32(f.texture_1d); return true;
    case MaxTexture2DWidth: case MaxTexture2DHeight: v = i32(f.texture_2d[size_t(attr - MaxTexture2DWidth)]); return true;
    case MaxTexture3DWidth: case MaxTexture3DHeight: case MaxTexture3DDepth:
        v = i32(f.texture_3d[size_t(attr - MaxTexture3DWidth)]);
        return true;
    case MaxTexture2DLayeredWidth: case MaxTexture2DLayeredHeight: case MaxTexture2DLayeredLayers:
        v = i32(f.texture_2d_layered[size_t(attr - MaxTexture2DLayeredWidth)]);
        return true;
    case MaxTexture1DLayeredWidth: case MaxTexture1DLayeredLayers:
        v = i32(f.texture_1d_layered[size_t(attr - MaxTexture1DLayeredWidth)]);
        return true;
    case MaxTexture2DGatherWidth: case MaxTexture2DGatherHeight:
        v = i32(f.texture_2d_gather[size_t(attr - MaxTexture2DGatherWidth)]);
        return true;
    case MaxTexture3DWidthAlt: case MaxTexture3DHeightAlt: case MaxTexture3DDepthAlt:
        v = i32(f.texture_3d_alt[size_t(attr - MaxTexture3DWidthAlt)]);
        return true;
    case MaxTextureCubemapWidth: v = i32(f.texture_cubemap); return true;
    case MaxTextureCubemapLayeredWidth: case MaxTextureCubemapLayeredLayers:
        v = i32(f.texture_cubemap_layered[size_t(attr - MaxTextureCubemapLayeredWidth)]);
        return true;
    case MaxSurface1DWidth: v = i32(f.surface_1d); return true;
    case MaxSurface2DWidth: case MaxSurface2DHeight: v = i32(f.surface_2d[size_t(attr - MaxSurface2DWidth)]); return true;
    case MaxSurface3DWidth: case MaxSurface3DHeight: case MaxSurface3DDepth:
        v = i32(f.surface_3d[size_t(attr - MaxSurface3DWidth)]);
        return true;
    case MaxSurface1DLayeredWidth: case MaxSurface1DLayeredLayers:
        v = i32(f.surface_1d_layered[size_t(attr - MaxSurface1DLayeredWidth)]);
        return true;
    case MaxSurface2DLayeredWidth: case MaxSurface2DLayeredHeight: case MaxSurface2DLayeredLayers:
        v = i32(f.surface_2d_layered[size_t(attr - MaxSurface2DLayeredWidth)]);
        return true;
    case MaxSurfaceCubemapWidth: v = i32(f.surface_cubemap); return true;
    case MaxSurfaceCubemapLayeredWidth: case MaxSurfaceCubemapLayeredLayers:
        v = i32(f.surface_cubemap_layered[size_t(attr - MaxSurfaceCubemapLayeredWidth)]);
        return true;
    case MaxTexture1DLinearWidth: v = i32(f.texture_1d_linear); return true;
    case MaxTexture2DLinearWidth: case MaxTexture2DLinearHeight: case MaxTexture2DLinearPitch:
        v = i32(f.texture_2d_linear[size_t(attr - MaxTexture2DLinearWidth)]);
        return true;
    case MaxTexture2DMipmappedWidth: case MaxTexture2DMipmappedHeight:
        v = i32(f.texture_2d_mipmapped[size_t(attr - MaxTexture2DMipmappedWidth)]);
        return true;
    case MaxTexture1DMipmappedWidth: v = i32(f.texture_1d_mipmapped); return true;
    case EccEnabled: v = f.ecc_enabled; return true;
    case PciBusId: v = kPciBusId; return true;
    case GlobalMemoryBusWidth: v = i32(c.memory_bus_bits); return true;
    case L2CacheSize: v = i32(c.l2.cache.bytes); return true;
    case MaxThreadsPerMultiProcessor: v = i32(c.sm.max_threads); return true;
    case MaxSharedMemoryPerMultiprocessor: v = i32(c.sm.shared_bytes); return true;
    case MaxBlocksPerMultiprocessor: v = i32(c.sm.max_ctas); return true;
    case ComputeCapabilityMajor: v = cc_major(c); return true;
    case ComputeCapabilityMinor: v = cc_minor(c); return true;
    // One address space for host and device needs a 64-bit GPU address space: Fermi and later.
    case UnifiedAddressing: v = fermi_or_later; return true;
    case GlobalL1CacheSupported: v = fermi_or_later && c.sm.timing.ldst.l1.bytes > 0 && c.sm.timing.ldst.l1_caches_global; return true;
    case LocalL1CacheSupported: v = fermi_or_later && c.sm.timing.ldst.l1.bytes > 0; return true;
    case SingleToDoublePrecisionPerfRatio: v = single_to_double_ratio(c); return true;
    // What the model offers on every config (docs/cudart.md): mapped host memory at the host's
    // own addresses, managed memory, cooperative launches, host registration.
    case CanMapHostMemory: case ManagedMemory: case CooperativeLaunch: case HostRegisterSupported:
    case CanUseHostPointerForRegisteredMem:
        v = 1;
        return true;
    case MemSyncDomainCount: v = 1; return true;
    case MemoryPoolsSupported: v = 1; return true;   // the default pool: cudaMallocAsync, cudaFreeAsync
    case GpuPciDeviceId: v = int((f.pci_device_id << 16) | kNvidiaVendorId); return true;
    case NumaId: case HostNumaId: v = -1; return true;
    case StreamPrioritiesSupported: v = c.stream_priorities > 1; return true;
    // The compute engine runs one kernel at a time.
    case ConcurrentKernels:
    // A plain single GPU: default compute mode, no display watchdog, not integrated, no TCC, MPS,
    // multi-GPU board, NUMA node, pageable access, native host atomics, preemption, pools,
    // persisting L2, sparse or deferred arrays, RDMA, IPC, clusters, graphics interop.
    case KernelExecTimeout: case Integrated: case ComputeMode: case PciDeviceId: case TccDriver: case PciDomainId:
    case IsMultiGpuBoard: case MultiGpuBoardGroupID: case HostNativeAtomicSupported: case PageableMemoryAccess:
    case ConcurrentManagedAccess: case ComputePreemptionSupported: case CanFlushRemoteWrites:
    case PageableMemoryAccessUsesHostPageTables: case DirectManagedMemAccessFromHost: case MaxPersistingL2CacheSize:
    case MaxAccessPolicyWindowSize: case ReservedSharedMemoryPerBlock: case SparseCudaArraySupported:
    case HostRegisterReadOnlySupported: case TimelineSemaphoreInteropSupported:
    case GPUDirectRDMASupported: case GPUDirectRDMAFlushWritesOptions: case GPUDirectRDMAWritesOrdering:
    case MemoryPoolSupportedHandleTypes: case ClusterLaunch: case DeferredMappingCudaArraySupported:
    case IpcEventSupport: case NumaConfig: case MpsEnabled: case D3D12CigSupported: case VulkanCigSupported:
    case GpuPciSubsystemId: case HostNumaMemoryPoolsSupported: case HostNumaMultinodeIpcSupported:
    case HostMemoryPoolsSupported: case OnlyPartialHostNativeAtomicSupported:
        v = 0;
        return true;
    // The numbers CUDA 13 reserves or leaves out below cudaDevAttrMax are answered too (with 0), as
    // NVIDIA's runtime answers them (seen on an H100: regress/apps/expected/attribute_codes.out).
    default:
        v = 0;
        return attr >= 1 && attr < kAttrMax;
    }
}

void device_properties(const GpuConfig& c, cudaDeviceProp& p) {
    std::memset(&p, 0, sizeof p);
    auto a = [&](int attr) {
        int v = 0;
        device_attribute(c, attr, v);
        return v;
    };
    std::snprintf(p.name, sizeof p.name, "gpusim %s", c.name.c_str());
    // A stable UUID per config name, so tools that key on it see the same device every run (its
    // first version started the hash from this seed; kept, so the UUIDs stay what they were).
    const uint64_t h = fnv1a(c.name, 1469598103934665603ull);
    for (int k = 0; k < 16; ++k) p.uuid[k] = char(uint8_t(h >> (8 * (k % 8))) ^ uint8_t(k * 37));
    p.totalGlobalMem = c.memory_bytes;
    p.sharedMemPerBlock = size_t(a(MaxSharedMemoryPerBlock));
    p.regsPerBlock = a(MaxRegistersPerBlock);
    p.warpSize = a(WarpSize);
    p.memPitch = size_t(a(MaxPitch));
    p.maxThreadsPerBlock = a(MaxThreadsPerBlock);
    for (int k = 0; k < 3; ++k) {
        p.maxThreadsDim[k] = a(MaxBlockDimX + k);
        p.maxGridSize[k] = a(MaxGridDimX + k);
        p.maxTexture3D[k] = a(MaxTexture3DWidth + k);
        p.maxTexture3DAlt[k] = a(MaxTexture3DWidthAlt + k);
        p.maxTexture2DLayered[k] = a(MaxTexture2DLayeredWidth + k);
        p.maxTexture2DLinear[k] = a(MaxTexture2DLinearWidth + k);
        p.maxSurface3D[k] = a(MaxSurface3DWidth + k);
        p.maxSurface2DLayered[k] = a(MaxSurface2DLayeredWidth + k);
    }
    for (int k = 0; k < 2; ++k) {
        p.maxTexture2D[k] = a(MaxTexture2DWidth + k);
        p.maxTexture2DMipmap[k] = a(MaxTexture2DMipmappedWidth + k);
        p.maxTexture2DGather[k] = a(MaxTexture2DGatherWidth + k);
        p.maxTexture1DLayered[k] = a(MaxTexture1DLayeredWidth + k);
        p.maxTextureCubemapLayered[k] = a(MaxTextureCubemapLayeredWidth + k);
        p.maxSurface2D[k] = a(MaxSurface2DWidth + k);
        p.maxSurface1DLayered[k] = a(MaxSurface1DLayeredWidth + k);
        p.maxSurfaceCubemapLayered[k] = a(MaxSurfaceCubemapLayeredWidth + k);
    }
    p.totalConstMem = size_t(a(TotalConstantMemory));
    p.major = a(ComputeCapabilityMajor);
    p.minor = a(ComputeCapabilityMinor);
    p.textureAlignment = size_t(a(TextureAlignment));
    p.texturePitchAlignment = size_t(a(TexturePitchAlignment));
    p.multiProcessorCount = a(MultiProcessorCount);
    p.integrated = a(Integrated);
    p.canMapHostMemory = a(CanMapHostMemory);
    p.maxTexture1D = a(MaxTexture1DWidth);
    p.maxTexture1DMipmap = a(MaxTexture1DMipmappedWidth);
    p.maxTextureCubemap = a(MaxTextureCubemapWidth);
    p.maxSurface1D = a(MaxSurface1DWidth);
    p.maxSurfaceCubemap = a(MaxSurfaceCubemapWidth);
    p.surfaceAlignment = size_t(a(SurfaceAlignment));
    p.concurrentKernels = a(ConcurrentKernels);
    p.ECCEnabled = a(EccEnabled);
    p.pciBusID = a(PciBusId);
    p.pciDeviceID = a(PciDeviceId);
    p.pciDomainID = a(PciDomainId);
    p.tccDriver = a(TccDriver);
    p.asyncEngineCount = a(AsyncEngineCount);
    p.unifiedAddressing = a(UnifiedAddressing);
    p.memoryBusWidth = a(GlobalMemoryBusWidth);
    p.l2CacheSize = a(L2CacheSize);
    p.persistingL2CacheMaxSize = a(MaxPersistingL2CacheSize);
    p.maxThreadsPerMultiProcessor = a(MaxThreadsPerMultiProcessor);
    p.streamPrioritiesSupported = a(StreamPrioritiesSupported);
    p.globalL1CacheSupported = a(GlobalL1CacheSupported);
    p.localL1CacheSupported = a(LocalL1CacheSupported);
    p.sharedMemPerMultiprocessor = size_t(a(MaxSharedMemoryPerMultiprocessor));
    p.regsPerMultiprocessor = a(MaxRegistersPerMultiprocessor);
    p.managedMemory = a(ManagedMemory);
    p.isMultiGpuBoard = a(IsMultiGpuBoard);
    p.multiGpuBoardGroupID = a(MultiGpuBoardGroupID);
    p.hostNativeAtomicSupported = a(HostNativeAtomicSupported);
    p.pageableMemoryAccess = a(PageableMemoryAccess);
    p.concurrentManagedAccess = a(ConcurrentManagedAccess);
    p.computePreemptionSupported = a(ComputePreemptionSupported);
    p.canUseHostPointerForRegisteredMem = a(CanUseHostPointerForRegisteredMem);
    p.cooperativeLaunch = a(CooperativeLaunch);
    p.sharedMemPerBlockOptin = size_t(a(MaxSharedMemoryPerBlockOptin));
    p.pageableMemoryAccessUsesHostPageTables = a(PageableMemoryAccessUsesHostPageTables);
    p.directManagedMemAccessFromHost = a(DirectManagedMemAccessFromHost);
    p.maxBlocksPerMultiProcessor = a(MaxBlocksPerMultiprocessor);
    p.accessPolicyMaxWindowSize = a(MaxAccessPolicyWindowSize);
    p.reservedSharedMemPerBlock = size_t(a(ReservedSharedMemoryPerBlock));
    p.hostRegisterSupported = a(HostRegisterSupported);
    p.sparseCudaArraySupported = a(SparseCudaArraySupported);
    p.hostRegisterReadOnlySupported = a(HostRegisterReadOnlySupported);
    p.timelineSemaphoreInteropSupported = a(TimelineSemaphoreInteropSupported);
    p.memoryPoolsSupported = a(MemoryPoolsSupported);
    p.gpuDirectRDMASupported = a(GPUDirectRDMASupported);
    p.gpuDirectRDMAFlushWritesOptions = unsigned(a(GPUDirectRDMAFlushWritesOptions));
    p.gpuDirectRDMAWritesOrdering = a(GPUDirectRDMAWritesOrdering);
    p.memoryPoolSupportedHandleTypes = unsigned(a(MemoryPoolSupportedHandleTypes));
    p.deferredMappingCudaArraySupported = a(DeferredMappingCudaArraySupported);
    p.ipcEventSupported = a(IpcEventSupport);
    p.clusterLaunch = a(ClusterLaunch);
    p.unifiedFunctionPointers = 0;
    p.deviceNumaConfig = a(NumaConfig);
    p.deviceNumaId = a(NumaId);
    p.mpsEnabled = a(MpsEnabled);
    p.hostNumaId = a(HostNumaId);
    p.gpuPciDeviceID = unsigned(a(GpuPciDeviceId));
    p.gpuPciSubsystemID = unsigned(a(GpuPciSubsystemId));
    p.hostNumaMultinodeIpcSupported = a(HostNumaMultinodeIpcSupported);
}

} // namespace gpusim::cudart
