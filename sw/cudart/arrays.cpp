#include "cudart/arrays.h"

#include <memory>
#include <set>

namespace gpusim::cudart {

namespace {

// Every live array; the API lock guards it.
std::set<cudaArray*>& arrays() {
    static std::set<cudaArray*> live;
    return live;
}

// The device's largest array of each shape (the cudaDevAttrMaxTexture* answers, cuda.* in the config).
void check_limits(const CudaFacts& f, tex::Shape shape, const cudaExtent& e) {
    using tex::Shape;
    size_t w = 0, h = 0, d = 0;
    switch (shape) {
    case Shape::D1: w = f.texture_1d; break;
    case Shape::D2: w = f.texture_2d[0]; h = f.texture_2d[1]; break;
    case Shape::D3: w = f.texture_3d[0]; h = f.texture_3d[1]; d = f.texture_3d[2]; break;
    case Shape::Layered1: w = f.texture_1d_layered[0]; d = f.texture_1d_layered[1]; break;
    case Shape::Layered2: w = f.texture_2d_layered[0]; h = f.texture_2d_layered[1]; d = f.texture_2d_layered[2]; break;
    case Shape::Cube: w = h = f.texture_cubemap; d = 6; break;
    default: w = h = f.texture_cubemap_layered[0]; d = size_t(f.texture_cubemap_layered[1]) * 6; break;
    }
    require(e.width <= w && e.height <= h && e.depth <= d,
            "array extent larger than the device allows for its shape (cudaDevAttrMaxTexture*)", Error::InvalidValue);
}

} // namespace

uint32_t texel_bytes(const cudaChannelFormatDesc& d) {
    const int bits[4] = {d.x, d.y, d.z, d.w};
    int channels = 0;
    for (int c = 0; c < 4; ++c) {
        if (bits[c] == 0) break;
        require(bits[c] == bits[0], "channel description: every channel must have the same size", Error::InvalidChannelDescriptor);
        ++channels;
    }
    for (int c = channels; c < 4; ++c) require(bits[c] == 0, "channel description: channels must be x, then y, z, w", Error::InvalidChannelDescriptor);
    require(channels == 1 || channels == 2 || channels == 4, "channel description: 1, 2 or 4 channels", Error::InvalidChannelDescriptor);
    require(bits[0] == 8 || bits[0] == 16 || bits[0] == 32, "channel description: channels of 8, 16 or 32 bits",
            Error::InvalidChannelDescriptor);
    require(d.f == cudaChannelFormatKindSigned || d.f == cudaChannelFormatKindUnsigned || d.f == cudaChannelFormatKindFloat,
            "channel description: the kind must be signed, unsigned or float", Error::InvalidChannelDescriptor);
    require(d.f != cudaChannelFormatKindFloat || bits[0] != 8, "channel description: float channels are 16 or 32 bits",
            Error::InvalidChannelDescriptor);
    return uint32_t(channels * bits[0] / 8);
}

cudaArray* array_of(cudaArray_const_t a) {
    auto it = arrays().find(const_cast<cudaArray*>(a));
    require(it != arrays().end(), "not a CUDA array (never allocated, or freed)", Error::InvalidResourceHandle);
    return *it;
}

cudaArray* create_array(Runtime& rt, const cudaChannelFormatDesc* desc, cudaExtent e, unsigned flags) {
    require(desc, "null channel description");
    require(!(flags & ~unsigned(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather)),
            "unknown array flags");
    auto a = std::make_unique<cudaArray>();
    a->desc = *desc;
    a->texel_bytes = texel_bytes(*desc);
    a->flags = flags;
    a->extent = e;
    require(e.width >= 1 && (e.depth == 0 || e.height >= 1 || (flags & cudaArrayLayered)), "array extent: width, height and depth");
    using tex::Shape;
    a->width = uint32_t(e.width);
    a->height = uint32_t(e.height ? e.height : 1);
    if (flags & cudaArrayCubemap) {
        require(e.width == e.height, "a cube map's faces are square");
        const bool layered = flags & cudaArrayLayered;
        require(layered ? e.depth % 6 == 0 && e.depth > 0 : e.depth == 6, "a cube map has 6 faces per layer");
        a->shape = layered ? Shape::CubeLayered : Shape::Cube;
        a->layers = uint32_t(e.depth / 6);
        a->slices = e.depth;
    } else if (flags & cudaArrayLayered) {
        require(e.depth >= 1, "a layered array needs at least one layer");
        a->shape = e.height ? Shape::Layered2 : Shape::Layered1;
        a->layers = uint32_t(e.depth);
        a->slices = e.depth;
    } else if (e.depth) {
        a->shape = Shape::D3;
        a->depth = uint32_t(e.depth);
        a->slices = e.depth;
    } else {
        a->shape = e.height ? Shape::D2 : Shape::D1;
    }
    check_limits(rt.config().cuda, a->shape, e);
    a->pitch = uint64_t(a->width) * a->texel_bytes;
    a->slice = a->pitch * a->height;
    a->base = rt.malloc(a->slice * a->slices, "cudaMallocArray");
    cudaArray* raw = a.release();
    arrays().insert(raw);
    return raw;
}

void destroy_array(Runtime& rt, cudaArray_t a) {
    cudaArray* arr = array_of(a);
    rt.free(arr->base);
    arrays().erase(arr);
    delete arr;
}

cudaPitchedPtr pitched(const cudaArray* a) {
    return cudaPitchedPtr{reinterpret_cast<void*>(a->base), a->pitch, a->pitch, a->height};
}

} // namespace gpusim::cudart
