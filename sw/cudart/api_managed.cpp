// Managed memory: cudaMallocManaged, __managed__ variables, prefetches, advice and its queries.
// runtime/managed_heap.h and tlm/memory/managed_pages.h are how pages move.
#include <cstring>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
constexpr unsigned kAttachGlobal = 1, kAttachHost = 2, kAttachSingle = 4;
enum Advice { SetReadMostly = 1, UnsetReadMostly, SetPreferredLocation, UnsetPreferredLocation, SetAccessedBy, UnsetAccessedBy };
enum RangeAttribute { ReadMostly = 1, PreferredLocation, AccessedBy, LastPrefetchLocation, PreferredLocationType,
                      PreferredLocationId, LastPrefetchLocationType, LastPrefetchLocationId };

// A location as a device number: 0, cudaCpuDeviceId for the host; anything else is refused.
int device_of(cudaMemLocation l) {
    if (l.type == cudaMemLocationTypeDevice) {
        require(l.id == 0, "managed memory: the model has one device, 0", Error::InvalidDevice);
        return 0;
    }
    require(l.type == cudaMemLocationTypeHost || l.type == cudaMemLocationTypeHostNuma ||
                l.type == cudaMemLocationTypeHostNumaCurrent,
            "managed memory: unknown location type");
    return cudaCpuDeviceId;
}

ManagedHeap::Block& block_of(Context& c, const void* p, size_t count, const char* what) {
    ManagedHeap::Block* b = c.rt().managed_block(dev(p));
    require(b && dev(p) + count <= b->base + b->bytes, what);
    return *b;
}
} // namespace

CUDART_API cudaError_t cudaMallocManaged(void** p, size_t size, unsigned int flags) {
    return guard([&](Context& c) {
        require(p, "cudaMallocManaged: null pointer");
        require(flags == kAttachGlobal || flags == kAttachHost, "cudaMallocManaged: flags must be cudaMemAttachGlobal or cudaMemAttachHost");
        *p = reinterpret_cast<void*>(c.rt().malloc_managed(size));
    });
}

// Attaching managed memory to a stream matters to GPUs without concurrent managed access only for
// when the host may touch it; pages here move on touch whatever the attachment.
CUDART_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void* p, size_t length, unsigned int flags) {
    return guard([&](Context& c) {
        require(flags == kAttachGlobal || flags == kAttachHost || flags == kAttachSingle, "cudaStreamAttachMemAsync: unknown flags");
        c.rt().stream_non_blocking(c.stream(s));
        block_of(c, p, length, "cudaStreamAttachMemAsync: not managed memory");
    });
}

CUDART_API cudaError_t cudaMemPrefetchAsync(const void* p, size_t count, cudaMemLocation location, unsigned int flags,
                                            cudaStream_t s) {
    return guard([&](Context& c) {
        require(flags == 0, "cudaMemPrefetchAsync: flags must be 0");
        const int to = device_of(location);
        block_of(c, p, count, "cudaMemPrefetchAsync: not managed memory");
        c.rt().prefetch(dev(p), count, to == 0, c.stream(s));
        c.host_thread().nudge();
    });
}

// Advice is kept and reported (cudaMemRangeGetAttribute); it does not change how pages move.
CUDART_API cudaError_t cudaMemAdvise(const void* p, size_t count, int advice, cudaMemLocation location) {
    return guard([&](Context& c) {
        ManagedHeap::Block& b = block_of(c, p, count, "cudaMemAdvise: not managed memory");
        switch (advice) {
        case SetReadMostly: b.read_mostly = true; break;
        case UnsetReadMostly: b.read_mostly = false; break;
        case SetPreferredLocation: b.preferred = device_of(location); break;
        case UnsetPreferredLocation: b.preferred = cudaInvalidDeviceId; break;
        case SetAccessedBy: b.accessed_by.insert(device_of(location)); break;
        case UnsetAccessedBy: b.accessed_by.erase(device_of(location)); break;
        default: throw RuntimeError("cudaMemAdvise: unknown advice");
        }
    });
}

CUDART_API cudaError_t cudaMemRangeGetAttribute(void* data, size_t size, int attribute, const void* p, size_t count) {
    return guard([&](Context& c) {
        require(data, "cudaMemRangeGetAttribute: null pointer");
        const ManagedHeap::Block& b = block_of(c, p, count, "cudaMemRangeGetAttribute: not managed memory");
        auto put = [&](int v) {
            require(size == sizeof(int), "cudaMemRangeGetAttribute: this attribute is 4 bytes");
            std::memcpy(data, &v, sizeof v);
        };
        auto type_of = [](int d) { return d == cudaInvalidDeviceId ? cudaMemLocationTypeInvalid : d == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice; };
        switch (attribute) {
        case ReadMostly: put(b.read_mostly); break;
        case PreferredLocation: put(b.preferred); break;
        case PreferredLocationType: put(type_of(b.preferred)); break;
        case PreferredLocationId: put(b.preferred == cudaCpuDeviceId ? 0 : b.preferred); break;
        case LastPrefetchLocation: put(b.last_prefetch); break;
        case LastPrefetchLocationType: put(type_of(b.last_prefetch)); break;
        case LastPrefetchLocationId: put(b.last_prefetch == cudaCpuDeviceId ? 0 : b.last_prefetch); break;
        case AccessedBy: {
            require(size % sizeof(int) == 0, "cudaMemRangeGetAttribute: cudaMemRangeAttributeAccessedBy fills an int array");
            std::vector<int> out(size / sizeof(int), cudaInvalidDeviceId);
            size_t k = 0;
            for (int d : b.accessed_by)
                if (k < out.size()) out[k++] = d;
            std::memcpy(data, out.data(), size);
            break;
        }
        default: throw RuntimeError("cudaMemRangeGetAttribute: unknown attribute");
        }
    });
}

CUDART_API cudaError_t cudaMemRangeGetAttributes(void** data, size_t* sizes, int* attributes, size_t n, const void* p, size_t count) {
    for (size_t k = 0; k < n; ++k)
        if (cudaError_t e = cudaMemRangeGetAttribute(data ? data[k] : nullptr, sizes ? sizes[k] : 0, attributes ? attributes[k] : 0, p, count))
            return e;
    return 0;
}

// nvcc's code for a __managed__ variable: the host reaches it through a pointer the runtime sets
// when the module is loaded (__cudaInitModule is called before the host's first access).
CUDART_API void __cudaRegisterManagedVar(void** module, void** host_var_pointer, char*, const char* device_name, int, size_t,
                                         int, int) {
    Context::get().register_managed_var(module, host_var_pointer, device_name);
}

CUDART_API char __cudaInitModule(void** module) {
    return guard([&](Context& c) { c.init_module(module); }) == 0;
}
