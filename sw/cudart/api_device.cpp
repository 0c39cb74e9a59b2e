// Device query and management, and errors.
#include <cstring>

#include <fmt/format.h>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
constexpr int kVersion = 13000;   // the runtime and driver version the library stands in for

int cc_major(const GpuConfig& c) { return c.compute_capability[0] - '0'; }
int cc_minor(const GpuConfig& c) { return c.compute_capability.size() > 2 ? c.compute_capability[2] - '0' : 0; }

void fill_properties(cudaDeviceProp& p, const GpuConfig& c) {
    std::memset(&p, 0, sizeof p);
    std::snprintf(p.name, sizeof p.name, "gpusim %s", c.name.c_str());
    const bool tesla = cc_major(c) < 2;
    p.totalGlobalMem = c.memory_bytes;
    p.sharedMemPerBlock = c.max_shared_per_block;
    p.regsPerBlock = int(c.sm.registers);
    p.warpSize = 32;
    p.memPitch = 2147483647;
    p.maxThreadsPerBlock = int(c.max_threads_per_block);
    p.maxThreadsDim[0] = p.maxThreadsDim[1] = int(c.max_threads_per_block);
    p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = int(c.max_grid_x);
    p.maxGridSize[1] = 65535;
    p.maxGridSize[2] = tesla ? 1 : 65535;
    p.totalConstMem = 65536;
    p.major = cc_major(c);
    p.minor = cc_minor(c);
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.multiProcessorCount = int(c.num_sms);
    p.canMapHostMemory = 0;   // mapped (zero-copy) host memory is not modelled
    p.concurrentKernels = 0;  // the compute engine runs one kernel at a time
    p.asyncEngineCount = c.pcie.overlap ? int(c.pcie.copy_engines) : 0;
    p.unifiedAddressing = 1;
    p.memoryBusWidth = int(c.memory_bus_bits);
    p.l2CacheSize = int(c.sm.timing.memory.l2.bytes);
    p.maxThreadsPerMultiProcessor = int(c.sm.max_threads);
    p.sharedMemPerMultiprocessor = c.sm.shared_bytes;
    p.regsPerMultiprocessor = int(c.sm.registers);
    p.sharedMemPerBlockOptin = c.max_shared_per_block;
    p.maxBlocksPerMultiProcessor = int(c.sm.max_ctas);
    p.hostRegisterSupported = 1;
}
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
        fill_properties(*prop, c.rt().config());
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
        const GpuConfig& g = c.rt().config();
        cudaDeviceProp p;
        fill_properties(p, g);
        switch (attr) {
        case 1: *value = p.maxThreadsPerBlock; break;
        case 2: case 3: case 4: *value = p.maxThreadsDim[attr - 2]; break;
        case 5: case 6: case 7: *value = p.maxGridSize[attr - 5]; break;
        case 8: *value = int(p.sharedMemPerBlock); break;
        case 9: *value = int(p.totalConstMem); break;
        case 10: *value = p.warpSize; break;
        case 11: *value = int(p.memPitch); break;
        case 12: *value = p.regsPerBlock; break;
        case 13: *value = int(g.core_clock_mhz * 1000); break;        // kHz
        case 15: *value = p.asyncEngineCount > 0; break;
        case 16: *value = p.multiProcessorCount; break;
        case 18: *value = p.integrated; break;
        case 19: *value = p.canMapHostMemory; break;
        case 31: *value = p.concurrentKernels; break;
        case 36: *value = int(g.memory_clock_mhz * 1000); break;      // kHz
        case 37: *value = p.memoryBusWidth; break;
        case 38: *value = p.l2CacheSize; break;
        case 39: *value = p.maxThreadsPerMultiProcessor; break;
        case 40: *value = p.asyncEngineCount; break;
        case 41: *value = p.unifiedAddressing; break;
        case 75: *value = p.major; break;
        case 76: *value = p.minor; break;
        case 81: *value = int(p.sharedMemPerMultiprocessor); break;
        case 82: *value = p.regsPerMultiprocessor; break;
        case 106: *value = p.maxBlocksPerMultiProcessor; break;
        default: throw RuntimeError(fmt::format("cudaDeviceGetAttribute: attribute {} is not modelled", attr), Error::InvalidValue);
        }
    });
}

CUDART_API cudaError_t cudaDeviceSynchronize() {
    return guard([&](Context& c) { c.rt().synchronize(); });
}

// Reset also clears a sticky error, so it runs outside the guard's sticky check.
CUDART_API cudaError_t cudaDeviceReset() {
    Context& c = Context::get();
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

CUDART_API cudaError_t cudaGetLastError() {
    Context& c = Context::get();
    const cudaError_t e = c.last_error;
    c.last_error = c.sticky;
    return e;
}

CUDART_API cudaError_t cudaPeekAtLastError() { return Context::get().last_error; }

namespace {
struct ErrorText {
    int code;
    const char* name;
    const char* text;
};
// CUDA's names and descriptions for the errors the model returns.
constexpr ErrorText kErrors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {16, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {712, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {713, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {999, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_error(int code) {
    for (const auto& e : kErrors)
        if (e.code == code) return &e;
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
