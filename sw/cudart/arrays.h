// CUDA arrays and texture and surface objects as the replacement libcudart keeps them. An array
// is plain pitched device memory (rows of texels, then slices: depth, layers or cube faces), so
// copies to and from it are the copy engines' 2D and 3D copies; an object is a texture header in
// device memory (rtl_models/tex/texture_header.h) whose address is the handle. docs/textures.md.
#pragma once

#include <cstdint>

#include "cudart/api.h"
#include "tex/texture_header.h"

struct cudaArray {
    cudaChannelFormatDesc desc{};
    cudaExtent extent{};              // as cudaArrayGetInfo reports it
    unsigned flags = 0;
    gpusim::tex::Shape shape = gpusim::tex::Shape::D2;
    uint32_t width = 1, height = 1, depth = 1, layers = 1;   // texels per axis; layers (x6 for cubes)
    uint32_t texel_bytes = 0;
    gpusim::DevicePtr base = 0;
    uint64_t pitch = 0, slice = 0;    // bytes per row, per slice (depth slice, layer or cube face)
    uint64_t slices = 1;              // depth, or layers (times 6 for cube maps)
};

namespace gpusim::cudart {

// The array a handle names; throws cudaErrorInvalidResourceHandle for anything else.
cudaArray* array_of(cudaArray_const_t a);
cudaArray* create_array(Runtime& rt, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned flags);
void destroy_array(Runtime& rt, cudaArray_t a);
// Bytes per texel of a channel description; throws cudaErrorInvalidChannelDescriptor for one the
// texture unit cannot read.
uint32_t texel_bytes(const cudaChannelFormatDesc& d);
// The array's memory as a pitched pointer (ysize: rows per slice).
cudaPitchedPtr pitched(const cudaArray* a);

} // namespace gpusim::cudart
