// CUDA arrays, their copies, channel descriptions, and texture and surface objects.
#include <algorithm>
#include <cstring>
#include <map>

#include "cudart/api.h"
#include "cudart/arrays.h"
#include "cudart/copies.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {

// What an object was created from, for cudaGet*Object*Desc.
struct ObjectRecord {
    cudaResourceDesc res{};
    cudaTextureDesc tex{};
    bool surface = false;
};

std::map<uint64_t, ObjectRecord>& objects() {
    static std::map<uint64_t, ObjectRecord> live;
    return live;
}

tex::ChannelKind kind_of(const cudaChannelFormatDesc& d) {
    return d.f == cudaChannelFormatKindFloat ? tex::ChannelKind::Float
           : d.f == cudaChannelFormatKindSigned ? tex::ChannelKind::Signed : tex::ChannelKind::Unsigned;
}

// The header's format fields from a channel description.
void set_format(tex::Header& h, const cudaChannelFormatDesc& d) {
    h.texel_bytes = uint8_t(texel_bytes(d));
    h.channel_bytes = uint8_t(d.x / 8);
    h.channels = uint8_t(h.texel_bytes / h.channel_bytes);
    h.kind = kind_of(d);
}

// The resource part of a header: an array's memory, a buffer, or pitched 2D memory.
tex::Header resource_header(Runtime& rt, const cudaResourceDesc& r) {
    tex::Header h;
    switch (r.resType) {
    case cudaResourceTypeArray: {
        const cudaArray* a = array_of(r.res.array.array);
        set_format(h, a->desc);
        h.shape = a->shape;
        h.width = a->width;
        h.height = a->height;
        h.depth = a->depth;
        h.layers = a->layers;
        h.base = a->base;
        h.pitch = a->pitch;
        h.slice = a->slice;
        break;
    }
    case cudaResourceTypeLinear: {
        const auto& l = r.res.linear;
        set_format(h, l.desc);
        require(l.devPtr && rt.is_device(reinterpret_cast<DevicePtr>(l.devPtr), l.sizeInBytes ? l.sizeInBytes : 1),
                "a linear texture needs device memory");
        require(reinterpret_cast<uintptr_t>(l.devPtr) % rt.config().cuda.texture_alignment == 0,
                "a linear texture must start at a multiple of cudaDevAttrTextureAlignment (cuda.texture_alignment)");
        h.shape = tex::Shape::Buffer;
        require(l.sizeInBytes >= h.texel_bytes && l.sizeInBytes / h.texel_bytes <= rt.config().cuda.texture_1d_linear,
                "linear texture size out of range (cudaDevAttrMaxTexture1DLinearWidth)");
        h.width = uint32_t(l.sizeInBytes / h.texel_bytes);
        h.base = reinterpret_cast<DevicePtr>(l.devPtr);
        h.pitch = h.slice = l.sizeInBytes;
        break;
    }
    case cudaResourceTypePitch2D: {
        const auto& p = r.res.pitch2D;
        set_format(h, p.desc);
        const auto& limit = rt.config().cuda.texture_2d_linear;   // width, height, pitch in bytes
        require(p.width <= limit[0] && p.height <= limit[1] && p.pitchInBytes <= limit[2],
                "pitched texture larger than cudaDevAttrMaxTexture2DLinear* allows");
        require(p.devPtr && rt.is_device(reinterpret_cast<DevicePtr>(p.devPtr), std::max<size_t>(p.pitchInBytes * p.height, 1)),
                "a pitched texture needs device memory");
        require(p.width >= 1 && p.height >= 1 && p.width * h.texel_bytes <= p.pitchInBytes, "pitched texture extent", Error::InvalidValue);
        require(p.pitchInBytes % rt.config().cuda.texture_pitch_alignment == 0,
                "the pitch must be a multiple of cudaDevAttrTexturePitchAlignment (cuda.texture_pitch_alignment)",
                Error::InvalidPitchValue);
        require(reinterpret_cast<uintptr_t>(p.devPtr) % rt.config().cuda.texture_alignment == 0,
                "a pitched texture must start at a multiple of cudaDevAttrTextureAlignment (cuda.texture_alignment)");
        h.shape = tex::Shape::D2;
        h.width = uint32_t(p.width);
        h.height = uint32_t(p.height);
        h.base = reinterpret_cast<DevicePtr>(p.devPtr);
        h.pitch = p.pitchInBytes;
        h.slice = p.pitchInBytes * p.height;
        break;
    }
    default: require(false, "mipmapped arrays are not modelled", Error::NotSupported);
    }
    return h;
}

void set_sampler(tex::Header& h, const cudaTextureDesc& t) {
    for (int k = 0; k < 3; ++k) {
        require(t.addressMode[k] >= cudaAddressModeWrap && t.addressMode[k] <= cudaAddressModeBorder, "invalid address mode");
        h.address[k] = tex::AddressMode(t.addressMode[k]);
    }
    require(t.filterMode == cudaFilterModePoint || t.filterMode == cudaFilterModeLinear, "invalid filter mode", Error::InvalidFilterSetting);
    require(t.readMode == cudaReadModeElementType || t.readMode == cudaReadModeNormalizedFloat, "invalid read mode");
    h.linear_filter = t.filterMode == cudaFilterModeLinear;
    h.read_normalized = t.readMode == cudaReadModeNormalizedFloat && h.kind != tex::ChannelKind::Float;
    require(!h.read_normalized || h.channel_bytes < 4, "normalized-float reads need 8- or 16-bit integer channels",
            Error::InvalidNormSetting);
    require(!h.linear_filter || h.kind == tex::ChannelKind::Float || h.read_normalized,
            "linear filtering needs float channels or normalized-float reads", Error::InvalidFilterSetting);
    require(!h.linear_filter || h.shape != tex::Shape::Buffer, "a linear texture cannot be filtered", Error::InvalidFilterSetting);
    require(!t.sRGB, "sRGB conversion is not modelled", Error::NotSupported);
    h.normalized_coords = t.normalizedCoords != 0;
    std::memcpy(h.border, t.borderColor, sizeof h.border);
}

// Writes the header into device memory, in stream order; its address is the handle.
uint64_t publish(Context& c, const tex::Header& h, const ObjectRecord& rec) {
    Runtime& rt = c.rt();
    const DevicePtr at = rt.malloc(sizeof h, "texture object state");
    // Written before the call returns, so a kernel on any stream may use the handle at once (the
    // new address is in no queued work).
    rt.memcpy_to_device(at, &h, sizeof h);
    objects()[at] = rec;
    return at;
}

ObjectRecord& record_of(uint64_t handle, bool surface) {
    auto it = objects().find(handle);
    require(it != objects().end() && it->second.surface == surface,
            surface ? "not a surface object" : "not a texture object", Error::InvalidValue);
    return it->second;
}

void destroy_object(Context& c, uint64_t handle, bool surface) {
    if (handle == 0) return;
    record_of(handle, surface);
    // Kernels queued before keep reading the header; it is cleared and freed after them.
    const tex::Header dead;
    c.rt().copy_to_device(handle, &dead, sizeof dead, 0);
    c.rt().free_after(handle, 0);
    objects().erase(handle);
}

char* array_at(const cudaArray* a, size_t w_offset, size_t h_offset) {
    require(w_offset <= a->pitch && h_offset < uint64_t(a->height) * a->slices, "array offset out of range");
    return reinterpret_cast<char*>(a->base) + h_offset * a->pitch + w_offset;
}

// A 2D copy into or out of an array's rows (offsets and width in bytes, as CUDA gives them): the
// synchronous forms wait for it, the asynchronous ones queue it or record it in a capture.
void array_rows(Context& c, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                cudaMemcpyKind kind, cudaStream_t s, bool sync) {
    if (sync) {
        c.check_not_capturing(nullptr);
        copy_2d(c.rt(), dst, dpitch, src, spitch, width, height, kind, 0, true);
    } else {
        copy_2d_async(c, dst, dpitch, src, spitch, width, height, kind, s);
    }
}

void check_rows(const cudaArray* a, size_t w_offset, size_t h_offset, size_t width, size_t height) {
    const uint64_t rows = uint64_t(a->height) * a->slices;
    require(w_offset <= a->pitch && width <= a->pitch - w_offset && h_offset <= rows && height <= rows - h_offset,
            "the copy leaves the array");
}

// An array is device memory: a copy kind that says otherwise is refused.
void check_kind(cudaMemcpyKind kind, bool array_is_source) {
    const bool ok = kind == cudaMemcpyDefault || kind == cudaMemcpyDeviceToDevice ||
                    kind == (array_is_source ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice);
    require(ok, "an array copy's array side is device memory: that copy kind contradicts it", Error::InvalidMemcpyDirection);
}

} // namespace

CUDART_API cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
    return cudaChannelFormatDesc{x, y, z, w, f};
}

CUDART_API cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                                       unsigned int flags) {
    return guard([&](Context& c) {
        require(array, "cudaMallocArray: null pointer");
        require(!(flags & (cudaArrayLayered | cudaArrayCubemap)), "cudaMallocArray: layered and cube arrays need cudaMalloc3DArray");
        *array = create_array(c.rt(), desc, cudaExtent{width, height, 0}, flags);
    });
}

CUDART_API cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned int flags) {
    return guard([&](Context& c) {
        require(array, "cudaMalloc3DArray: null pointer");
        *array = create_array(c.rt(), desc, extent, flags);
    });
}

CUDART_API cudaError_t cudaFreeArray(cudaArray_t array) {
    return guard([&](Context& c) {
        if (!array) return;
        c.rt().synchronize(0);
        destroy_array(c.rt(), array);
    });
}

CUDART_API cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
    return guard([&](Context&) {
        const cudaArray* a = array_of(array);
        if (desc) *desc = a->desc;
        if (extent) *extent = a->extent;
        if (flags) *flags = a->flags;
    });
}

CUDART_API cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
    return guard([&](Context&) {
        require(desc, "cudaGetChannelDesc: null pointer");
        *desc = array_of(array)->desc;
    });
}

CUDART_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                           size_t width, size_t height, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        check_kind(kind, false);
        const cudaArray* a = array_of(dst);
        check_rows(a, w_offset, h_offset, width, height);
        array_rows(c, array_at(a, w_offset, h_offset), a->pitch, src, spitch, width, height, kind, nullptr, true);
    });
}

CUDART_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                                size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        check_kind(kind, false);
        const cudaArray* a = array_of(dst);
        check_rows(a, w_offset, h_offset, width, height);
        array_rows(c, array_at(a, w_offset, h_offset), a->pitch, src, spitch, width, height, kind, s, false);
    });
}

CUDART_API cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                             size_t width, size_t height, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        check_kind(kind, true);
        const cudaArray* a = array_of(src);
        check_rows(a, w_offset, h_offset, width, height);
        array_rows(c, dst, dpitch, array_at(a, w_offset, h_offset), a->pitch, width, height, kind, nullptr, true);
    });
}

CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                                  size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        check_kind(kind, true);
        const cudaArray* a = array_of(src);
        check_rows(a, w_offset, h_offset, width, height);
        array_rows(c, dst, dpitch, array_at(a, w_offset, h_offset), a->pitch, width, height, kind, s, false);
    });
}

CUDART_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t w_dst, size_t h_dst, cudaArray_const_t src, size_t w_src,
                                                size_t h_src, size_t width, size_t height, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        const cudaArray* d = array_of(dst);
        const cudaArray* s = array_of(src);
        check_rows(d, w_dst, h_dst, width, height);
        check_rows(s, w_src, h_src, width, height);
        require(kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault, "array-to-array copies are device to device",
                Error::InvalidMemcpyDirection);
        array_rows(c, array_at(d, w_dst, h_dst), d->pitch, array_at(s, w_src, h_src), s->pitch, width, height,
                   cudaMemcpyDeviceToDevice, nullptr, true);
    });
}

// The deprecated linear forms: count bytes from (w_offset, h_offset) on, running on into the
// next rows (an array's rows lie back to back).
namespace {
void linear_array_copy(Context& c, void* dst, const void* src, const cudaArray* a, size_t w_offset, size_t h_offset,
                       size_t count, cudaMemcpyKind kind, cudaStream_t s, bool sync) {
    const uint64_t bytes = a->slice * a->slices;
    require(w_offset <= a->pitch && h_offset < uint64_t(a->height) * a->slices, "array offset out of range");
    const uint64_t start = h_offset * a->pitch + w_offset;
    require(start <= bytes && count <= bytes - start, "the copy leaves the array");
    if (sync) {
        c.check_not_capturing(nullptr);
        copy(c.rt(), dst, src, count, kind, 0, true);
    } else {
        copy_async(c, dst, src, count, kind, s);
    }
}
} // namespace

CUDART_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t count,
                                         cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        check_kind(kind, false);
        const cudaArray* a = array_of(dst);
        linear_array_copy(c, reinterpret_cast<char*>(a->base) + h_offset * a->pitch + w_offset, src, a, w_offset, h_offset, count,
                          kind, nullptr, true);
    });
}

CUDART_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t count,
                                              cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        check_kind(kind, false);
        const cudaArray* a = array_of(dst);
        linear_array_copy(c, reinterpret_cast<char*>(a->base) + h_offset * a->pitch + w_offset, src, a, w_offset, h_offset, count,
                          kind, s, false);
    });
}

CUDART_API cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                           cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        check_kind(kind, true);
        const cudaArray* a = array_of(src);
        linear_array_copy(c, dst, reinterpret_cast<char*>(a->base) + h_offset * a->pitch + w_offset, a, w_offset, h_offset, count,
                          kind, nullptr, true);
    });
}

CUDART_API cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                                cudaMemcpyKind kind, cudaStream_t s) {
    return guard([&](Context& c) {
        check_kind(kind, true);
        const cudaArray* a = array_of(src);
        linear_array_copy(c, dst, reinterpret_cast<char*>(a->base) + h_offset * a->pitch + w_offset, a, w_offset, h_offset, count,
                          kind, s, false);
    });
}

CUDART_API cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t w_dst, size_t h_dst, cudaArray_const_t src, size_t w_src,
                                              size_t h_src, size_t count, cudaMemcpyKind kind) {
    return guard([&](Context& c) {
        const cudaArray* d = array_of(dst);
        const cudaArray* s = array_of(src);
        require(kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault, "array-to-array copies are device to device",
                Error::InvalidMemcpyDirection);
        require(w_src <= s->pitch && h_src < uint64_t(s->height) * s->slices &&
                    count <= s->slice * s->slices - (h_src * s->pitch + w_src),
                "the copy leaves the source array");
        linear_array_copy(c, reinterpret_cast<char*>(d->base) + h_dst * d->pitch + w_dst,
                          reinterpret_cast<char*>(s->base) + h_src * s->pitch + w_src, d, w_dst, h_dst, count,
                          cudaMemcpyDeviceToDevice, nullptr, true);
    });
}

CUDART_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex_object, const cudaResourceDesc* res, const cudaTextureDesc* td,
                                               const cudaResourceViewDesc* view) {
    return guard([&](Context& c) {
        require(tex_object && res && td, "cudaCreateTextureObject: null pointer");
        require(!view, "resource views are not modelled", Error::NotSupported);
        tex::Header h = resource_header(c.rt(), *res);
        h.magic = tex::kTextureMagic;
        set_sampler(h, *td);
        *tex_object = publish(c, h, ObjectRecord{*res, *td, false});
    });
}

CUDART_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex_object) {
    return guard([&](Context& c) { destroy_object(c, tex_object, false); });
}

CUDART_API cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* res, cudaTextureObject_t tex_object) {
    return guard([&](Context&) {
        require(res, "null pointer");
        *res = record_of(tex_object, false).res;
    });
}

CUDART_API cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* td, cudaTextureObject_t tex_object) {
    return guard([&](Context&) {
        require(td, "null pointer");
        *td = record_of(tex_object, false).tex;
    });
}

CUDART_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf_object, const cudaResourceDesc* res) {
    return guard([&](Context& c) {
        require(surf_object && res, "cudaCreateSurfaceObject: null pointer");
        require(res->resType == cudaResourceTypeArray, "a surface object needs a CUDA array", Error::InvalidValue);
        require(array_of(res->res.array.array)->flags & cudaArraySurfaceLoadStore,
                "the array was not allocated with cudaArraySurfaceLoadStore", Error::InvalidValue);
        tex::Header h = resource_header(c.rt(), *res);
        h.magic = tex::kSurfaceMagic;
        *surf_object = publish(c, h, ObjectRecord{*res, cudaTextureDesc{}, true});
    });
}

CUDART_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf_object) {
    return guard([&](Context& c) { destroy_object(c, surf_object, true); });
}

CUDART_API cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* res, cudaSurfaceObject_t surf_object) {
    return guard([&](Context&) {
        require(res, "null pointer");
        *res = record_of(surf_object, true).res;
    });
}
