// The texture unit's sampling arithmetic, as measured on a real GPU (docs/textures.md gives the
// measurements): texel coordinates in fixed point, the address modes, point and linear filtering
// with 8-bit weights, and the conversion of texels to the result's four 32-bit words. It reads
// texels through a Reader (device memory in the model, a recorder of addresses for the timing
// model's texture cache), so one path serves both.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "alu/half.h"
#include "tex/texture_header.h"

namespace gpusim::tex {

// Fraction bits of a texel coordinate. The hardware truncates normalized coordinates to a fixed
// point before scaling them by the size (a coordinate of float(1/7) on a 7-texel texture lands on
// texel 0); 20 to 25 bits reproduce every captured case, 24 is the float mantissa.
constexpr int kFracBits = 24;
constexpr int64_t kOne = int64_t(1) << kFracBits;
// Linear filtering weighs neighbours in steps of 1/256 (the CUDA guide's 9-bit fixed point with
// 8 fraction bits); the fraction is rounded to the step, ties upward.
constexpr int kWeightBits = 8;
constexpr int64_t kWeightOne = int64_t(1) << kWeightBits;

// What one lane asks for: up to three coordinates and a layer (tex), or integer texel and byte
// coordinates (tex on a buffer, surfaces).
struct Request {
    float coord[3] = {0, 0, 0};
    int32_t layer = 0;
    int32_t icoord[3] = {0, 0, 0};
    bool integer = false;            // icoord holds the coordinates (tex.1d on a buffer, s32 coordinates)
};

struct Result {
    uint32_t word[4] = {0, 0, 0, 0};   // float bits for float results, integers for integer ones
};

// A texel coordinate of one axis in fixed point (kFracBits), after normalized coordinates are
// scaled and wrapped or mirrored.
int64_t texel_coordinate(float x, uint32_t size, bool normalized, AddressMode mode);
// The texel index an axis reads, or -1 for a border texel.
int64_t address_index(int64_t i, uint32_t size, AddressMode mode, bool normalized);
// Cube map: the face (0..5) a direction selects and the face's normalized coordinates.
void cube_face(const float dir[3], int& face, float& s, float& t);

// The weights of the 2, 4 or 8 texels around a linear fetch, in 1/256, from the filter fractions
// a (x), b (y) and c (z) in 1/256 (0 for the axes a shape lacks). Texel k is
// (x + (k & 1), y + (k >> 1 & 1), z + (k >> 2)).
void filter_weights(int64_t a, int64_t b, int64_t c, int64_t w[8]);

// Channel values of a texel on the scale filtering works on.
struct Texel {
    long double f[4] = {0, 0, 0, 0}; // float formats (exact sums of weighted texels)
    int64_t q[4] = {0, 0, 0, 0};     // normalized-float reads of integers: 16-bit unorm or snorm
};

// How a header's texels are filtered and returned.
enum class Path : uint8_t { Float, Unorm, Snorm, Integer };
Path path_of(const Header& h);
// One texel's channels from its bytes.
Texel decode_texel(const Header& h, Path p, const uint8_t* bytes);
// The border color on the texel scale of the path.
Texel border_texel(const Header& h, Path p);
// The result words of a weighted sum of texels (weights in 1/256 for 1D, 1/65536 for 2D ...).
Result finish(const Header& h, Path p, const Texel& sum, int64_t weight_scale);

// The texture unit's view of device memory.
class Reader {
public:
    virtual ~Reader() = default;
    virtual void read(uint64_t addr, void* out, uint32_t bytes) = 0;
};

// Samples header h at request r (tex), or gathers one channel of the 2x2 footprint (tld4).
Result sample(const Header& h, const Request& r, Reader& mem);
Result gather(const Header& h, const Request& r, int channel, Reader& mem);

} // namespace gpusim::tex
