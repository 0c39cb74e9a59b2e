// Device and host memory, copies (linear, 2D, 3D, symbols) and fills.
#include <cstring>

#include <fmt/format.h>

#include "cudart/api.h"
#include "cudart/copies.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
constexpr unsigned kHostAllocPortable = 1, kHostAllocMapped = 2, kHostAllocWriteCombined = 4;
constexpr unsigned kHostRegisterMapped = 2;
constexpr size_t kPitchAlign = 512;   // cudaMallocPitch's row alignment (cudaDeviceProp::texturePitchAlignment ... the driver uses 512)

// The planes of a pitched 3D allocation, each a 2D fill.
void fill_3d(Runtime& rt, const cudaPitchedPtr& pp, int value, const cudaExtent& e, StreamId s) {
    if (e.width == 0 || e.height == 0) return;   // nothing to set, however many slices it names
    for (size_t z = 0; z < e.depth; ++z)
        fill_2d(rt, static_cast<char*>(pp.ptr) + z * pp.ysize * pp.pitch, pp.pitch, uint8_t(value), 1, e.width, e.height, s);
}

// A symbol's range [offset, offset+count), checked against its size.
DevicePtr symbol_range(Context& c, const void* symbol, size_t count, size_t offset) {
    auto [addr, size] = c.symbol(symbol);
    require(offset + count <= size, "copy beyond the end of the symbol");
    return addr + offset;
}
} // namespace

CUDART_API cudaError_t cudaMalloc(void** p, size_t size) {
    return guard([&](Context& c) {
        require(p, "cudaMalloc: null pointer");
        *p = reinterpret_cast<void*>(c.rt().malloc(size));
    });
}

CUDART_API cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
    return guard([&](Context& c) {
        require(p && pitch, "cudaMallocPitch: null pointer");
        *pitch = (width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
        *p = reinterpret_cast<void*>(c.rt().malloc(*pitch * height, "cudaMallocPitch"));
    });
}

CUDART_API cudaError_t cudaMalloc3D(cudaPitchedPtr* pp, cudaExtent e) {
    return guard([&](Context& c) {
        require(pp, "cudaMalloc3D: null pointer");
        const size_t pitch = (e.width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
        pp->ptr = reinterpret_cast<void*>(c.rt().malloc(pitch * e.height * e.depth, "cudaMalloc3D"));
        pp->pitch = pitch;
        pp->xsize = e.width;
        pp->ysize = e.height;
    });
}

CUDART_API cudaError_t cudaFree(void* p) {
    return guard([&](Context& c) {
        if (p) c.rt().free(dev(p));
    });
}

CUDART_API cudaError_t cudaMallocHost(void** p, size_t size) {
    return guard([&](Context& c) {
        require(p, "cudaMallocHost: null pointer");
        *p = c.rt().malloc_host(size);
    });
}

// Every pinned allocation is mapped: kernels reach it at the host's address (unified addressing).
// cudaHostGetFlags reports the mapped and write-combined flags it was made with (not portable,
// as NVIDIA's runtime does on an H100).
CUDART_API cudaError_t cudaHostAlloc(void** p, size_t size, unsigned int flags) {
    return guard([&](Context& c) {
        require(p, "cudaHostAlloc: null pointer");
        require(flags <= (kHostAllocPortable | kHostAllocMapped | kHostAllocWriteCombined), "cudaHostAlloc: unknown flags");
        *p = c.rt().malloc_host(size, flags & ~kHostAllocPortable);
    });
}

CUDART_API cudaError_t cudaHostGetFlags(unsigned int* flags, void* p) {
    return guard([&](Context& c) {
        require(flags, "cudaHostGetFlags: null pointer");
        *flags = c.rt().host_flags(p);
    });
}

CUDART_API cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags) {
    return guard([&](Context& c) {
        require(device && flags == 0, "cudaHostGetDevicePointer: null pointer or non-zero flags");
        require(c.rt().is_pinned(host, 1), "cudaHostGetDevicePointer: the pointer is not page-locked host memory");
        *device = host;
    });
}

CUDART_API cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attr, const void* p) {
    return guard([&](Context& c) {
        require(attr, "cudaPointerGetAttributes: null pointer");
        *attr = cudaPointerAttributes{};
        attr->type = int(c.rt().memory_kind(p));
        attr->device = attr->type == cudaMemoryTypeUnregistered ? -2 : 0;
        if (attr->type != cudaMemoryTypeUnregistered) attr->devicePointer = const_cast<void*>(p);
        if (attr->type != cudaMemoryTypeDevice && attr->type != cudaMemoryTypeUnregistered) attr->hostPointer = const_cast<void*>(p);
    });
}

CUDART_API cudaError_t cudaFreeHost(void* p) {
    return guard([&](Context& c) {
        if (p) c.rt().free_host(p);
    });
}

CUDART_API cudaError_t cudaHostRegister(void* p, size_t size, unsigned int flags) {
    return guard([&](Context& c) {
        require(flags <= 0xF, "cudaHostRegister: unknown flags");
        c.rt().register_host(p, size, flags & kHostRegisterMapped);
    });
}

CUDART_API cudaError_t cudaHostUnregister(void* p) {
    return guard([&](Context& c) { c.rt().unregister_host(p); });
}

CUDART_API cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
    return guard([&](Context& c) {
        require(free_bytes && total, "cudaMemGetInfo: null pointer");
        *total = c.rt().config().memory_bytes;
        *free_bytes = *total - c.rt().bytes_allocated();
    });
}

CUDART_API cudaError_t cudaMemset(void* p, int value, size_t n) {
    return guard([&](Context& c) {
        c.check_not_capturing(nullptr);
        c.rt().fill(dev(p), uint8_t(value), n, 0);
        c.rt().synchronize(0);
    });
}

CUDART_API cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t s) {
    return guard([&](Context& c) {
        if (GraphNode* node = c.capture_node(s, cudaGraphNodeTypeMemset)) {
            node->memset = cudaMemsetParams{p, 0, unsigned(uint8_t(value)), 1, n, 1};
            return;
        }
        c.rt().fill(dev(p), uint8_t(value), n, c.stream(s));
    });
}

CUDART_API cudaError_t cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height) {
    return guard([&](Context& c) {
        require(width <= pitch, "cudaMemset2D: width exceeds the pitch", Error::InvalidPitchValue);
        fill_2d(c.rt(), p, pitch, uint8_t(value), 1, width, height, 0);
        c.rt().synchronize(0);
    });
}

CUDART_API cudaError_t cudaMemset2DAsync(void* p, size_t pitch, int value, size_t width, size_t height, cudaStream_t s) {
    return guard([&](Context& c) {
        if (GraphNode* node = c.capture_node(s, cudaGraphNodeTypeMemset)) {
            node->memset = cudaMemsetParams{p, pitch, unsigned(uint8_t(value)), 1, width, height};
            return;
        }
        fill_2d(c.rt(), p, pitch, uint8_t(value), 1, width, height, c.stream(s));
    });
}

CUDART_API cudaError_t cudaMemset3DAsync(cudaPitchedPtr pp, int value, cudaExtent e, cudaStream_t s) {
    return guard([&](Context& c) {
        c.check_not_capturing(s);
        require(!c.captures.of(c.stream(s)), "cudaMemset3DAsync cannot be captured", Error::StreamCaptureUnsupported);
        fill_3d(c.rt(), pp, value, e, c.stream(s));
    });
}

CUDART_API cudaError_t cudaMemset3D(cudaPitchedPtr pp, int value, cudaExtent e) {
    return guard([&](Context& c) {
        require(e.width <= pp.pitch, "cudaMemset3D: width exceeds the pitch", Error::InvalidPitchValue);
        fill_3d(c.rt(), pp, value, e, 0);
        c.rt().synchronize(0);
    });
}

CUDART_API cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        c.check_not_capturing(nullptr);
        copy(c.rt(), dst, src, n, kind, 0, true);
    });
}

CUDART_API cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) { copy_async(c, dst, src, n, kind, s); });
}

// Copies between devices; with one device both are 0 and it is a device-to-device copy.
CUDART_API cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t n) {
    return guard([&](Context& c) {
        require(dst_device == 0 && src_device == 0, "cudaMemcpyPeer: the model has one device, 0", Error::InvalidDevice);
        copy(c.rt(), dst, src, n, cudaMemcpyDeviceToDevice, 0, true);
    });
}

CUDART_API cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t n,
                                           cudaStream_t s) {
    return guard([&](Context& c) {
        require(dst_device == 0 && src_device == 0, "cudaMemcpyPeerAsync: the model has one device, 0", Error::InvalidDevice);
        copy_async(c, dst, src, n, cudaMemcpyDeviceToDevice, s);
    });
}

CUDART_API cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                    cudaMemcpyKind kind) {
    return guard([&](Context& c) { copy_2d(c.rt(), dst, dpitch, src, spitch, width, height, kind, 0, true); });
}

CUDART_API cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                         size_t height, cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        copy_2d_async(c, dst, dpitch, src, spitch, width, height, kind, s);
    });
}

CUDART_API cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
    return guard([&](Context& c) {
        c.check_not_capturing(nullptr);
        copy_3d(c.rt(), p, 0, true);
    });
}

CUDART_API cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t s) {
    return guard([&](Context& c) {
        require(p, "cudaMemcpy3DAsync: null parameters");
        if (GraphNode* node = c.capture_node(s, cudaGraphNodeTypeMemcpy)) {
            node->copy3d = *p;
            return;
        }
        copy_3d(c.rt(), p, c.stream(s), false);
    });
}

CUDART_API cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t n, size_t offset, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        require(kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault,
                "cudaMemcpyToSymbol: invalid direction", Error::InvalidMemcpyDirection);
        copy(c.rt(), reinterpret_cast<void*>(symbol_range(c, symbol, n, offset)), src, n, kind, 0, true);
    });
}

CUDART_API cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t n, size_t offset, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        require(kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault,
                "cudaMemcpyFromSymbol: invalid direction", Error::InvalidMemcpyDirection);
        copy(c.rt(), dst, reinterpret_cast<void*>(symbol_range(c, symbol, n, offset)), n, kind, 0, true);
    });
}

CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t n, size_t offset,
                                               cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        copy_async(c, reinterpret_cast<void*>(symbol_range(c, symbol, n, offset)), src, n, kind, s);
    });
}

CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t n, size_t offset,
                                                 cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        copy_async(c, dst, reinterpret_cast<void*>(symbol_range(c, symbol, n, offset)), n, kind, s);
    });
}

CUDART_API cudaError_t cudaGetSymbolAddress(void** p, const void* symbol) {
    return guard([&](Context& c) {
        require(p, "cudaGetSymbolAddress: null pointer");
        *p = reinterpret_cast<void*>(c.symbol(symbol).first);
    });
}

CUDART_API cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
    return guard([&](Context& c) {
        require(size, "cudaGetSymbolSize: null pointer");
        *size = c.symbol(symbol).second;
    });
}
