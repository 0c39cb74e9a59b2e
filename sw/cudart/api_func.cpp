// Kernel attributes, occupancy, and cache preferences.
#include <algorithm>

#include <fmt/format.h>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
constexpr int kAttrMaxDynamicShared = 8;      // cudaFuncAttributeMaxDynamicSharedMemorySize
constexpr int kAttrCarveout = 9;              // cudaFuncAttributePreferredSharedMemoryCarveout

} // namespace

CUDART_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
    return guard([&](Context& c) {
        require(attr, "cudaFuncGetAttributes: null pointer");
        const KernelInfo& k = c.kernel(func);
        const GpuConfig& cfg = c.rt().config();
        const KernelImage& img = *k.image;
        *attr = cudaFuncAttributes{};
        attr->sharedSizeBytes = img.static_shared_bytes;
        attr->localSizeBytes = img.local_bytes;
        attr->numRegs = int(c.rt().registers_per_thread(k));
        // The largest block (in whole warps) that fits on an SM with this kernel's registers.
        uint32_t threads = cfg.max_threads_per_block / 32 * 32;
        while (threads > 32 && c.rt().blocks_per_sm(k, Dim3{threads, 1, 1}, 0) == 0) threads -= 32;
        attr->maxThreadsPerBlock = int(threads);
        const int cc = (cfg.compute_capability[0] - '0') * 10 + (cfg.compute_capability.size() > 2 ? cfg.compute_capability[2] - '0' : 0);
        // As CUDA reports a kernel JIT-compiled from PTX: the PTX target it was built for, and
        // the device's own architecture for the code that runs (CUB picks its tuning by ptxVersion).
        attr->ptxVersion = c.ptx_arch(func);
        attr->binaryVersion = cc;
        attr->maxDynamicSharedSizeBytes = int(cfg.max_shared_per_block - std::min(img.static_shared_bytes, cfg.max_shared_per_block));
        attr->preferredShmemCarveout = -1;
    });
}

CUDART_API cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value) {
    return guard([&](Context& c) {
        const KernelInfo& k = c.kernel(func);
        const GpuConfig& cfg = c.rt().config();
        if (attr == kAttrMaxDynamicShared) {
            require(value >= 0 && uint64_t(value) + k.image->static_shared_bytes <= cfg.max_shared_per_block,
                    "cudaFuncSetAttribute: more dynamic shared memory than a block may have");
            return;
        }
        if (attr == kAttrCarveout) {
            require(value >= -1 && value <= 100, "cudaFuncSetAttribute: a carveout is a percentage, or -1");
            return;   // a preference; the config fixes the split
        }
        throw RuntimeError(fmt::format("cudaFuncSetAttribute: attribute {} is not modelled", attr), Error::NotSupported);
    });
}

CUDART_API cudaError_t cudaFuncGetName(const char** name, const void* func) {
    return guard([&](Context& c) {
        require(name, "cudaFuncGetName: null pointer");
        *name = c.kernel(func).name.c_str();
    });
}

// A kernel's handles are the host stub's address, which is what the program registered.
CUDART_API cudaError_t cudaGetKernel(cudaKernel_t* kernel, const void* func) {
    return guard([&](Context& c) {
        require(kernel, "cudaGetKernel: null pointer");
        c.kernel(func);
        *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
    });
}

CUDART_API cudaError_t cudaGetFuncBySymbol(void** function, const void* func) {
    return guard([&](Context& c) {
        require(function, "cudaGetFuncBySymbol: null pointer");
        c.kernel(func);
        *function = const_cast<void*>(func);
    });
}

// The most dynamic shared memory a block can have when `blocks` blocks of `threads` share an SM.
CUDART_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* func, int blocks, int threads) {
    return guard([&](Context& c) {
        require(bytes && blocks > 0 && threads > 0, "cudaOccupancyAvailableDynamicSMemPerBlock: bad arguments");
        const KernelInfo& k = c.kernel(func);
        const GpuConfig& cfg = c.rt().config();
        const uint64_t per_block = cfg.sm.shared_bytes / uint64_t(blocks);
        const uint64_t fixed = k.image->static_shared_bytes;
        const uint64_t cap = cfg.max_shared_per_block > fixed ? cfg.max_shared_per_block - fixed : 0;
        *bytes = per_block > fixed ? std::min(per_block - fixed, cap) : 0;
        if (c.rt().blocks_per_sm(k, Dim3{uint32_t(threads), 1, 1}, 0) < uint32_t(blocks)) *bytes = 0;
    });
}

CUDART_API cudaError_t cudaFuncSetSharedMemConfig(const void* func, int config) {
    return guard([&](Context& c) {
        require(config >= 0 && config <= 2, "cudaFuncSetSharedMemConfig: unknown configuration");
        c.kernel(func);
    });
}

// Cache preferences are hints, as on hardware whose L1/shared split is fixed: accepted, and the
// config's split stays (smem and l1 sections).
CUDART_API cudaError_t cudaFuncSetCacheConfig(const void* func, int config) {
    return guard([&](Context& c) {
        require(config >= 0 && config <= 3, "cudaFuncSetCacheConfig: unknown cache configuration");
        c.kernel(func);
    });
}

CUDART_API cudaError_t cudaDeviceSetCacheConfig(int config) {
    return guard([&](Context& c) {
        require(config >= 0 && config <= 3, "cudaDeviceSetCacheConfig: unknown cache configuration");
        c.cache_config = config;
    });
}

CUDART_API cudaError_t cudaDeviceGetCacheConfig(int* config) {
    return guard([&](Context& c) {
        require(config, "cudaDeviceGetCacheConfig: null pointer");
        *config = c.cache_config;
    });
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                                    size_t dynamic_shared) {
    return guard([&](Context& c) {
        require(blocks, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: null pointer");
        require(block_size > 0, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: block size must be positive");
        const KernelInfo& k = c.kernel(func);
        const GpuConfig& cfg = c.rt().config();
        *blocks = uint32_t(block_size) > cfg.max_threads_per_block
                      ? 0 : int(c.rt().blocks_per_sm(k, Dim3{uint32_t(block_size), 1, 1}, uint32_t(dynamic_shared)));
    });
}

// The flags (cudaOccupancyDisableCachingOverride) concern caching, which does not change how many
// blocks fit.
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block_size,
                                                                             size_t dynamic_shared, unsigned int flags) {
    if (flags > 1) return guard([](Context&) { throw RuntimeError("unknown occupancy flags"); });
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, dynamic_shared);
}
