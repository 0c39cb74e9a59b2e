// Device query and management, and errors.
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "cudart/api.h"
#include "cudart/device_attributes.h"
#include "cudart/error_table.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
constexpr int kVersion = 13000;   // the runtime and driver version the library stands in for
} // namespace

CUDART_API cudaError_t cudaGetDeviceCount(int* count) {
    return guard([&](Context& c) {
        require(count, "cudaGetDeviceCount: null pointer");
        c.rt();
        *count = 1;
    });
}

CUDART_API cudaError_t cudaSetDevice(int device) {
    return guard([&](Context& c) {
        require(device == 0, "cudaSetDevice: the model has one device, 0", Error::InvalidDevice);
        c.rt();
    });
}

CUDART_API cudaError_t cudaGetDevice(int* device) {
    return guard([&](Context&) {
        require(device, "cudaGetDevice: null pointer");
        *device = 0;
    });
}

CUDART_API cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    return guard([&](Context& c) {
        require(prop, "cudaGetDeviceProperties: null pointer");
        require(device == 0, "cudaGetDeviceProperties: the model has one device, 0", Error::InvalidDevice);
        device_properties(c.rt().config(), *prop);
    });
}

CUDART_API cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
    return guard([&](Context& c) {
        require(device && prop, "cudaChooseDevice: null pointer");
        c.rt();
        *device = 0;
    });
}

CUDART_API cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device) {
    return guard([&](Context& c) {
        require(value, "cudaDeviceGetAttribute: null pointer");
        require(device == 0, "cudaDeviceGetAttribute: the model has one device, 0", Error::InvalidDevice);
        require(device_attribute(c.rt().config(), attr, *value),
                fmt::format("cudaDeviceGetAttribute: {} is not a device attribute of CUDA 13", attr).c_str());
    });
}

// Peer access between GPUs, answered as CUDA answers on a machine with one GPU: there is no peer,
// and a device is not its own peer (cudaErrorPeerAccessUnsupported, seen on an H100).
CUDART_API cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
    return guard([&](Context& c) {
        require(can, "cudaDeviceCanAccessPeer: null pointer");
        require(device == 0 && peer == 0, "cudaDeviceCanAccessPeer: the model has one device, 0", Error::InvalidDevice);
        c.rt();
        *can = 0;
    });
}

CUDART_API cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
    return guard([&](Context& c) {
        require(peer == 0, "cudaDeviceEnablePeerAccess: the model has one device, 0", Error::InvalidDevice);
        require(flags == 0, "cudaDeviceEnablePeerAccess: flags must be 0");
        c.rt();
        throw RuntimeError("cudaDeviceEnablePeerAccess: a device is not its own peer", Error::PeerAccessUnsupported);
    });
}

CUDART_API cudaError_t cudaDeviceDisablePeerAccess(int peer) {
    return guard([&](Context& c) {
        require(peer == 0, "cudaDeviceDisablePeerAccess: the model has one device, 0", Error::InvalidDevice);
        c.rt();
        throw RuntimeError("cudaDeviceDisablePeerAccess: peer access was never enabled", Error::PeerAccessNotEnabled);
    });
}

// The model's one GPU sits on PCI bus 1 (cudaDevAttrPciBusId).
CUDART_API cudaError_t cudaDeviceGetPCIBusId(char* id, int len, int device) {
    return guard([&](Context& c) {
        require(id && len > 0, "cudaDeviceGetPCIBusId: null or empty buffer");
        require(device == 0, "cudaDeviceGetPCIBusId: the model has one device, 0", Error::InvalidDevice);
        int bus = 0;
        device_attribute(c.rt().config(), 33, bus);
        std::snprintf(id, size_t(len), "0000:%02x:00.0", bus);
    });
}

CUDART_API cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* id) {
    return guard([&](Context& c) {
        require(device && id, "cudaDeviceGetByPCIBusId: null pointer");
        unsigned domain = 0, bus = 0, dev = 0, fn = 0;
        const int n = std::sscanf(id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn);
        int ours = 0;
        device_attribute(c.rt().config(), 33, ours);
        require((n == 4 || n == 3) && domain == 0 && bus == unsigned(ours) && dev == 0,
                "cudaDeviceGetByPCIBusId: no device at that PCI address", Error::InvalidDevice);
        *device = 0;
    });
}

// P2P attributes are between two different devices; the model has one.
CUDART_API cudaError_t cudaDeviceGetP2PAttribute(int* value, int, int src, int dst) {
    return guard([&](Context& c) {
        require(value, "cudaDeviceGetP2PAttribute: null pointer");
        c.rt();
        require(src == 0 && dst == 0 && src != dst, "cudaDeviceGetP2PAttribute: the model has one device, 0", Error::InvalidDevice);
    });
}

CUDART_API cudaError_t cudaInitDevice(int device, unsigned int, unsigned int) {
    return guard([&](Context& c) {
        require(device == 0, "cudaInitDevice: the model has one device, 0", Error::InvalidDevice);
        c.rt();
    });
}

CUDART_API cudaError_t cudaSetValidDevices(int* devices, int len) {
    return guard([&](Context& c) {
        require(len >= 0 && (len == 0 || devices), "cudaSetValidDevices: null list");
        for (int k = 0; k < len; ++k) require(devices[k] == 0, "cudaSetValidDevices: the model has one device, 0", Error::InvalidDevice);
        c.rt();
    });
}

// Shared memory bank configurations are accepted; the config's bank width stays (smem section).
CUDART_API cudaError_t cudaDeviceSetSharedMemConfig(int config) {
    return guard([&](Context&) { require(config >= 0 && config <= 2, "cudaDeviceSetSharedMemConfig: unknown configuration"); });
}

CUDART_API cudaError_t cudaDeviceGetSharedMemConfig(int* config) {
    return guard([&](Context& c) {
        require(config, "cudaDeviceGetSharedMemConfig: null pointer");
        *config = c.rt().config().sm.timing.smem.bank_width_bytes == 8 ? 2 : 1;   // eight- or four-byte banks
    });
}

CUDART_API cudaError_t cudaDeviceSynchronize() {
    return guard([&](Context& c) {
        c.check_not_capturing(nullptr);
        c.rt().synchronize();
    });
}

// Reset also clears a sticky error, so it runs outside the guard's sticky check.
CUDART_API cudaError_t cudaDeviceReset() {
    if (HostThread::inside()) return not_permitted_in_host_function();
    Context& c = Context::get();
    std::lock_guard<std::recursive_mutex> lock(c.lock());
    c.sticky = 0;
    return guard([&](Context& ctx) { ctx.reset(); });
}

CUDART_API cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    return guard([&](Context& c) { c.device_flags = int(flags); });
}

CUDART_API cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
    return guard([&](Context& c) {
        require(flags, "cudaGetDeviceFlags: null pointer");
        *flags = unsigned(c.device_flags);
    });
}

CUDART_API cudaError_t cudaRuntimeGetVersion(int* v) {
    return guard([&](Context&) {
        require(v, "cudaRuntimeGetVersion: null pointer");
        *v = kVersion;
    });
}

CUDART_API cudaError_t cudaDriverGetVersion(int* v) {
    return guard([&](Context&) {
        require(v, "cudaDriverGetVersion: null pointer");
        *v = kVersion;
    });
}

CUDART_API cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
    return guard([&](Context& c) {
        switch (limit) {
        case 0: c.stack_bytes = value; break;
        case 1: c.printf_fifo = value; break;
        case 2:
            require(!c.rt().heap_in_use(), "cudaDeviceSetLimit: the device heap is in use");
            c.rt().set_heap_size(value);
            break;
        default: throw RuntimeError(fmt::format("cudaDeviceSetLimit: limit {} is not modelled", limit), Error::NotSupported);
        }
    });
}

CUDART_API cudaError_t cudaDeviceGetLimit(size_t* value, int limit) {
    return guard([&](Context& c) {
        require(value, "cudaDeviceGetLimit: null pointer");
        switch (limit) {
        case 0: *value = c.stack_bytes; break;
        case 1: *value = c.printf_fifo; break;
        case 2: *value = c.rt().heap_size(); break;
        default: throw RuntimeError(fmt::format("cudaDeviceGetLimit: limit {} is not modelled", limit), Error::NotSupported);
        }
    });
}

// The profiler API bounds the statistics window (GPUSIM_STATS): work queued before
// cudaProfilerStart and after cudaProfilerStop is not counted. Neither call waits (programs such
// as asyncAPI poll after cudaProfilerStop): each is a marker on the legacy default stream, which
// the command processor reaches once the work queued before it is done, and which takes the
// statistics at that simulated time.
namespace {
cudaError_t profiler_marker(bool start, const char* api = __builtin_FUNCTION()) {
    return guard([&](Context& c) {
        c.rt().launch_host_function(0, [&c, start](Error) {
            Runtime& rt = c.rt();
            if (start) c.profiler.start(rt.unit_stats(), rt.now_ns());
            else c.profiler.stop(rt.unit_stats(), rt.now_ns());
        }, false);
        c.host_thread().nudge();
    }, api);
}
} // namespace

CUDART_API cudaError_t cudaProfilerStart() { return profiler_marker(true); }

CUDART_API cudaError_t cudaProfilerStop() { return profiler_marker(false); }

CUDART_API cudaError_t cudaGetLastError() {
    Context& c = Context::get();
    const cudaError_t e = Context::last_error();
    Context::last_error() = c.sticky;
    return e;
}

CUDART_API cudaError_t cudaPeekAtLastError() { return Context::last_error(); }

namespace {
const ErrorText* find_error(int code) {
    for (size_t k = 0; k < kErrorTableSize; ++k)
        if (kErrorTable[k].code == code) return &kErrorTable[k];
    return nullptr;
}
} // namespace

CUDART_API const char* cudaGetErrorString(cudaError_t error) {
    const ErrorText* e = find_error(error);
    return e ? e->text : "unrecognized error code";
}

CUDART_API const char* cudaGetErrorName(cudaError_t error) {
    const ErrorText* e = find_error(error);
    return e ? e->name : "unrecognized error code";
}
