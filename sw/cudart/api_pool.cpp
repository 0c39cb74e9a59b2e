// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) from the device's one memory pool,
// and that pool's attributes. An allocation is made at once, which stream order allows; a free
// happens once the stream has done the work queued before it.
#include <algorithm>
#include <cstring>
#include <map>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
enum PoolAttr { ReuseFollowEventDependencies = 1, ReuseAllowOpportunistic, ReuseAllowInternalDependencies,
                ReleaseThreshold, ReservedMemCurrent, ReservedMemHigh, UsedMemCurrent, UsedMemHigh };

// The default pool: its handle is this object's address.
struct Pool {
    int reuse[3] = {1, 1, 1};
    uint64_t release_threshold = 0;
    uint64_t used = 0, used_high = 0;
    std::map<DevicePtr, uint64_t> live;
} g_pool;

cudaMemPool_t pool_handle() { return reinterpret_cast<cudaMemPool_t>(&g_pool); }

void check_pool(cudaMemPool_t p) { require(p == pool_handle(), "not a memory pool of the model (it has only the default pool)"); }
} // namespace

CUDART_API cudaError_t cudaMallocAsync(void** p, size_t size, cudaStream_t s) {
    return guard([&](Context& c) {
        require(p, "cudaMallocAsync: null pointer");
        c.rt().stream_non_blocking(c.stream(s));
        const DevicePtr d = c.rt().malloc(size, "cudaMallocAsync");
        g_pool.live[d] = c.rt().allocation_size(d);
        g_pool.used += g_pool.live[d];
        g_pool.used_high = std::max(g_pool.used_high, g_pool.used);
        *p = reinterpret_cast<void*>(d);
    });
}

CUDART_API cudaError_t cudaFreeAsync(void* p, cudaStream_t s) {
    return guard([&](Context& c) {
        const auto d = reinterpret_cast<DevicePtr>(p);
        c.rt().free_after(d, c.stream(s));
        if (auto it = g_pool.live.find(d); it != g_pool.live.end()) {
            g_pool.used -= it->second;
            g_pool.live.erase(it);
        }
    });
}

CUDART_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
    return guard([&](Context&) {
        require(pool, "cudaDeviceGetDefaultMemPool: null pointer");
        require(device == 0, "cudaDeviceGetDefaultMemPool: the model has one device, 0", Error::InvalidDevice);
        *pool = pool_handle();
    });
}

CUDART_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) { return cudaDeviceGetDefaultMemPool(pool, device); }

CUDART_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    return guard([&](Context&) {
        require(device == 0, "cudaDeviceSetMemPool: the model has one device, 0", Error::InvalidDevice);
        check_pool(pool);
    });
}

CUDART_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) {
    return guard([&](Context&) { check_pool(pool); });
}

CUDART_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void* value) {
    return guard([&](Context&) {
        check_pool(pool);
        require(value, "cudaMemPoolSetAttribute: null value");
        if (attr >= ReuseFollowEventDependencies && attr <= ReuseAllowInternalDependencies)
            std::memcpy(&g_pool.reuse[attr - 1], value, sizeof(int));
        else if (attr == ReleaseThreshold) std::memcpy(&g_pool.release_threshold, value, sizeof(uint64_t));
        else if (attr == ReservedMemHigh || attr == UsedMemHigh) g_pool.used_high = g_pool.used;   // only reset is allowed
        else throw RuntimeError("cudaMemPoolSetAttribute: the attribute cannot be set");
    });
}

CUDART_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void* value) {
    return guard([&](Context&) {
        check_pool(pool);
        require(value, "cudaMemPoolGetAttribute: null value");
        switch (attr) {
        case ReuseFollowEventDependencies: case ReuseAllowOpportunistic: case ReuseAllowInternalDependencies:
            std::memcpy(value, &g_pool.reuse[attr - 1], sizeof(int));
            break;
        case ReleaseThreshold: std::memcpy(value, &g_pool.release_threshold, sizeof(uint64_t)); break;
        case ReservedMemCurrent: case UsedMemCurrent: std::memcpy(value, &g_pool.used, sizeof(uint64_t)); break;
        case ReservedMemHigh: case UsedMemHigh: std::memcpy(value, &g_pool.used_high, sizeof(uint64_t)); break;
        default: throw RuntimeError("cudaMemPoolGetAttribute: unknown attribute");
        }
    });
}
