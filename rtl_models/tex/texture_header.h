// A texture or surface object as the texture unit reads it: a 128-byte header in device memory
// (like the hardware's texture header pool). The runtime writes one per cudaCreateTextureObject
// or cudaCreateSurfaceObject, and the object's handle is the header's device address, so a kernel
// names its texture with one 64-bit register and a bad handle is found by the header's magic.
// docs/textures.md describes the layout of arrays in device memory.
#pragma once

#include <cstdint>

namespace gpusim::tex {

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };
enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };
enum class Shape : uint8_t { D1, D2, D3, Layered1, Layered2, Cube, CubeLayered, Buffer };

constexpr uint32_t kTextureMagic = 0x58455447;   // "GTEX"
constexpr uint32_t kSurfaceMagic = 0x46525347;   // "GSRF"

struct Header {
    uint32_t magic = 0;
    Shape shape = Shape::D2;
    uint8_t channels = 1;            // 1 .. 4
    uint8_t channel_bytes = 4;       // 1, 2 or 4 (every channel the same size)
    ChannelKind kind = ChannelKind::Float;
    uint8_t texel_bytes = 4;
    uint8_t linear_filter = 0;       // cudaFilterModeLinear
    uint8_t read_normalized = 0;     // cudaReadModeNormalizedFloat
    uint8_t normalized_coords = 0;
    AddressMode address[3] = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
    uint8_t srgb = 0;
    uint32_t width = 1, height = 1, depth = 1;   // texels (depth: 3D only)
    uint32_t layers = 1;             // layered and cube arrays (a cube has 6 faces per layer)
    uint64_t base = 0;               // device address of texel (0, 0, 0) of layer 0
    uint64_t pitch = 0;              // bytes from one row to the next
    uint64_t slice = 0;              // bytes from one depth slice (or layer, or cube face) to the next
    float border[4] = {0, 0, 0, 0};
    uint8_t sampler_only = 0;        // a reference's sampler state with no texture bound (PTX initializer)
    uint8_t reserved[128 - 73] = {};

    bool is_texture() const { return magic == kTextureMagic; }
    // Whether the fields describe something the unit can read (a header in device memory can be
    // overwritten by any program).
    bool well_formed() const {
        return channels >= 1 && channels <= 4 && (channel_bytes == 1 || channel_bytes == 2 || channel_bytes == 4) &&
               texel_bytes == channels * channel_bytes && uint8_t(shape) <= uint8_t(Shape::Buffer) &&
               uint8_t(kind) <= uint8_t(ChannelKind::Float) && uint8_t(address[0]) <= uint8_t(AddressMode::Border) &&
               uint8_t(address[1]) <= uint8_t(AddressMode::Border) && uint8_t(address[2]) <= uint8_t(AddressMode::Border) &&
               width >= 1 && height >= 1 && depth >= 1 && layers >= 1;
    }
    bool is_surface() const { return magic == kSurfaceMagic; }
    // Coordinates the shape takes besides its layer (cube maps take a direction of three).
    uint32_t dims() const {
        switch (shape) {
        case Shape::D1: case Shape::Layered1: case Shape::Buffer: return 1;
        case Shape::D2: case Shape::Layered2: return 2;
        default: return 3;
        }
    }
    bool layered() const { return shape == Shape::Layered1 || shape == Shape::Layered2 || shape == Shape::CubeLayered; }
};

static_assert(sizeof(Header) == 128, "the header is 128 bytes in device memory");

} // namespace gpusim::tex
