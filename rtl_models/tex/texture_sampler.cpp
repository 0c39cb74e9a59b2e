#include "tex/texture_sampler.h"

#include <algorithm>

namespace gpusim::tex {

namespace {

// Far enough outside any texture, and an even integer like every float beyond 2^24, so wrap and
// mirror see what they would see at the real coordinate; in fixed point it stays below 2^62.
constexpr double kCoordLimit = 274877906944.0;   // 2^38

int64_t fixed(double x) {
    if (std::isnan(x)) return 0;   // a NaN coordinate reads texel 0 (measured)
    x = std::clamp(x, -kCoordLimit, kCoordLimit);
    return int64_t(std::floor(x * double(kOne)));
}

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// One axis of the footprint: the lower texel and the weight of the upper one, in 1/256.
struct Axis {
    int64_t i = 0;
    int64_t a = 0;
};

Axis linear_axis(int64_t t) {
    t -= kOne / 2;   // texel centres sit at half-integer coordinates
    Axis ax;
    ax.i = t >> kFracBits;
    ax.a = ((t & (kOne - 1)) + (int64_t(1) << (kFracBits - kWeightBits - 1))) >> (kFracBits - kWeightBits);
    if (ax.a == kWeightOne) { ++ax.i; ax.a = 0; }
    return ax;
}

// The texels of one fetch: where they are, and each one's weight in 1/256.
struct Footprint {
    int64_t x[8], y[8], z[8];
    int64_t w[8];
    int n = 0;
};

// The layer index is unsigned: a negative one reads the last layer (measured).
int32_t clamp_layer(int32_t layer, uint32_t layers) { return int32_t(std::min<uint32_t>(uint32_t(layer), layers - 1)); }

// The filter's sum rounded to float, to nearest with ties away from zero (measured: a sum
// exactly between two floats takes the larger magnitude).
float round_ties_away(long double v) {
    const float f = float(v);
    const long double off = v - (long double)f;
    if (off == 0) return f;
    const float other = std::nextafter(f, off > 0 ? INFINITY : -INFINITY);
    return std::fabs((long double)other - v) == std::fabs(off) && std::fabs(other) > std::fabs(f) ? other : f;
}

uint32_t float_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// The value of an n-bit unsigned normalized integer on the 16-bit scale filtering works on.
int64_t unorm16(uint32_t v, uint32_t bytes) { return bytes == 1 ? int64_t(v) * 257 : int64_t(v); }
// Signed normalized texels are filtered on the 16-bit scale with kSnormFracBits more bits of
// fraction. An 8-bit value scales as v * 32767/127; -128 is not clamped here. Measured on every
// pair of s8 values filtered at six fractions (393,216 fetches): widening to whole 16-bit steps
// matches 76% of them, six fraction bits 96%; the rest is not yet worked out (docs/textures.md).
constexpr int kSnormFracBits = 6;
int64_t snorm16(int32_t v, uint32_t bytes) {
    if (bytes != 1) return int64_t(v) * (int64_t(1) << kSnormFracBits);
    return int64_t(std::floor(double(v) * 32767.0 * double(1 << kSnormFracBits) / 127.0 + 0.5));
}

} // namespace

// The weights of the 2, 4 or 8 neighbours, in 1/256, from the fractions a (x), b (y) and c (z),
// as the hardware splits them (measured exhaustively on one-hot 2x2x2 textures): z splits the
// whole exactly, x splits each slice rounding half up, and y splits each part of that, the upper
// x part rounding half up and the lower half down. So they always sum to one. Neighbour k is
// (x + (k & 1), y + (k >> 1 & 1), z + (k >> 2)).
void filter_weights(int64_t a, int64_t b, int64_t c, int64_t w[8]) {
    auto half_up = [](int64_t n) { return (n + kWeightOne / 2) >> kWeightBits; };
    auto half_down = [](int64_t n) { return (n + kWeightOne / 2 - 1) >> kWeightBits; };
    const int64_t slice[2] = {kWeightOne - c, c};
    for (int z = 0; z < 2; ++z) {
        const int64_t x1 = half_up(slice[z] * a), x0 = slice[z] - x1;
        const int64_t w11 = half_up(x1 * b), w01 = half_down(x0 * b);
        w[4 * z + 0] = x0 - w01;
        w[4 * z + 1] = x1 - w11;
        w[4 * z + 2] = w01;
        w[4 * z + 3] = w11;
    }
}

int64_t texel_coordinate(float x, uint32_t size, bool normalized, AddressMode mode) {
    if (!normalized) return fixed(x);
    int64_t u = fixed(x);
    if (mode == AddressMode::Wrap) {
        u &= kOne - 1;
    }
    // Mirror works on texel indices (address_index): the filter's neighbours and weights are
    // those of the unmirrored coordinate, mirrored.
    // Saturate rather than overflow: far outside, clamp and border give the same texel.
    const int64_t n = std::max<int64_t>(size, 1);
    const int64_t limit = (int64_t(1) << 62) / n;
    return std::clamp(u, -limit, limit) * n;
}

int64_t address_index(int64_t i, uint32_t size, AddressMode mode, bool normalized) {
    const int64_t n = size;
    if (!normalized && (mode == AddressMode::Wrap || mode == AddressMode::Mirror)) mode = AddressMode::Clamp;
    switch (mode) {
    case AddressMode::Wrap: return i - floor_div(i, n) * n;
    case AddressMode::Mirror: {
        const int64_t p = i - floor_div(i, 2 * n) * 2 * n;
        return p < n ? p : 2 * n - 1 - p;
    }
    case AddressMode::Border: return i >= 0 && i < n ? i : -1;
    default: return std::clamp<int64_t>(i, 0, n - 1);
    }
}

void cube_face(const float dir[3], int& face, float& s, float& t) {
    const float ax = std::fabs(dir[0]), ay = std::fabs(dir[1]), az = std::fabs(dir[2]);
    float sc, tc, ma;
    // On a tie the later axis wins: z over y over x (measured on edges and corners).
    if (ax > ay && ax > az) {
        face = dir[0] >= 0 ? 0 : 1;
        sc = dir[0] >= 0 ? -dir[2] : dir[2];
        tc = -dir[1];
        ma = ax;
    } else if (ay > az) {
        face = dir[1] >= 0 ? 2 : 3;
        sc = dir[0];
        tc = dir[1] >= 0 ? dir[2] : -dir[2];
        ma = ay;
    } else {
        face = dir[2] >= 0 ? 4 : 5;
        sc = dir[2] >= 0 ? dir[0] : -dir[0];
        tc = -dir[1];
        ma = az;
    }
    s = (sc / ma + 1.0f) * 0.5f;
    t = (tc / ma + 1.0f) * 0.5f;
}

Path path_of(const Header& h) {
    if (h.kind == ChannelKind::Float) return Path::Float;
    if (!h.read_normalized || h.channel_bytes == 4) return Path::Integer;
    return h.kind == ChannelKind::Unsigned ? Path::Unorm : Path::Snorm;
}

Texel decode_texel(const Header& h, Path p, const uint8_t* bytes) {
    Texel t;
    for (uint32_t c = 0; c < h.channels; ++c) {
        const uint8_t* at = bytes + c * h.channel_bytes;
        uint32_t raw = 0;
        std::memcpy(&raw, at, h.channel_bytes);
        int32_t sv = h.channel_bytes == 1 ? int32_t(int8_t(raw)) : h.channel_bytes == 2 ? int32_t(int16_t(raw)) : int32_t(raw);
        switch (p) {
        case Path::Float: {
            if (h.channel_bytes == 2) { t.f[c] = half_to_double(uint16_t(raw)); break; }
            float f;
            std::memcpy(&f, &raw, 4);
            t.f[c] = f;
            break;
        }
        case Path::Unorm: t.q[c] = unorm16(raw, h.channel_bytes); break;
        case Path::Snorm: t.q[c] = snorm16(sv, h.channel_bytes); break;
        case Path::Integer: t.q[c] = h.kind == ChannelKind::Signed ? int64_t(sv) : int64_t(raw); break;
        }
    }
    return t;
}

Texel border_texel(const Header& h, Path p) {
    Texel t;
    // Channels the format lacks read 0, as they do inside the texture.
    for (int c = 0; c < h.channels; ++c) {
        const double b = std::isnan(h.border[c]) ? 0.0 : double(h.border[c]);
        switch (p) {
        case Path::Float: t.f[c] = b; break;
        case Path::Unorm: {
            // The border color is stored at the texture's own precision, then widened like a texel.
            const double max = h.channel_bytes == 1 ? 255.0 : 65535.0;
            t.q[c] = unorm16(uint32_t(std::floor(std::clamp(b, 0.0, 1.0) * max + 0.5)), h.channel_bytes);
            break;
        }
        case Path::Snorm: {
            const double max = h.channel_bytes == 1 ? 127.0 : 32767.0;
            t.q[c] = snorm16(int32_t(std::floor(std::clamp(b, -1.0, 1.0) * max + 0.5)), h.channel_bytes);
            break;
        }
        case Path::Integer: {
            // Element-type integer reads take the low bits of the border color's float encoding
            // (measured: 1e10f = 0x501502f9 reads 0xf9 from an 8-bit channel).
            const uint32_t bits = h.channel_bytes * 8;
            const uint32_t raw = bits == 32 ? float_bits(float(b)) : float_bits(float(b)) & ((1u << bits) - 1);
            t.q[c] = h.kind == ChannelKind::Signed && bits < 32 && (raw >> (bits - 1)) ? int64_t(raw) - (int64_t(1) << bits)
                                                                                        : int64_t(int32_t(raw));
            if (h.kind == ChannelKind::Unsigned) t.q[c] = int64_t(raw);
            break;
        }
        }
    }
    return t;
}

Result finish(const Header& h, Path p, const Texel& sum, int64_t scale) {
    Result r;
    for (int c = 0; c < 4; ++c) {
        switch (p) {
        case Path::Float: {
            const long double v = sum.f[c] / (long double)scale;
            // Half textures are filtered to half precision (measured: the results keep 11 bits).
            r.word[c] = float_bits(h.channel_bytes == 2 ? float(half_to_double(double_to_half(v, 0))) : round_ties_away(v));
            break;
        }
        case Path::Unorm: {
            // Filtering ends on the 16-bit scale, rounded; the float is that over 65535.
            const int64_t v = (sum.q[c] + scale / 2) / scale;
            r.word[c] = float_bits(float(double(v) / 65535.0));
            break;
        }
        case Path::Snorm: {
            const int64_t den = scale << kSnormFracBits;
            const int64_t v = floor_div(sum.q[c] + den / 2, den);
            r.word[c] = float_bits(float(std::max(double(v) / 32767.0, -1.0)));
            break;
        }
        case Path::Integer: r.word[c] = uint32_t(sum.q[c] / scale); break;
        }
    }
    return r;
}

namespace {

struct Geometry {
    uint32_t size[3];
    AddressMode mode[3];
    bool normalized;
    int dims;
    int32_t z_base;      // layer (or cube face) for layered shapes
};

// Where the texel (x, y, z) of the fetch lies; false for a border texel.
bool texel_address(const Header& h, const Geometry& g, int64_t x, int64_t y, int64_t z, uint64_t& addr) {
    int64_t idx[3] = {x, y, z};
    for (int d = 0; d < g.dims; ++d) {
        idx[d] = address_index(idx[d], g.size[d], g.mode[d], g.normalized);
        if (idx[d] < 0) return false;
    }
    const int64_t slice = g.dims == 3 ? idx[2] : g.z_base;
    addr = h.base + uint64_t(slice) * h.slice + uint64_t(g.dims >= 2 ? idx[1] : 0) * h.pitch + uint64_t(idx[0]) * h.texel_bytes;
    return true;
}

Texel read_texel(const Header& h, Path p, const Geometry& g, int64_t x, int64_t y, int64_t z, Reader& mem) {
    uint64_t addr;
    if (!texel_address(h, g, x, y, z, addr)) return border_texel(h, p);
    uint8_t bytes[16];
    mem.read(addr, bytes, h.texel_bytes);
    return decode_texel(h, p, bytes);
}

// The coordinates of a request on its shape: a cube map turns its direction into a face.
Geometry geometry(const Header& h, const Request& r, float c[3]) {
    Geometry g{};
    g.size[0] = h.width;
    g.size[1] = h.height;
    g.size[2] = h.depth;
    g.normalized = h.normalized_coords;
    for (int d = 0; d < 3; ++d) { g.mode[d] = h.address[d]; c[d] = r.coord[d]; }
    g.dims = int(h.dims());
    g.z_base = h.layered() ? clamp_layer(r.layer, h.layers) : 0;
    if (h.shape == Shape::Cube || h.shape == Shape::CubeLayered) {
        int face;
        cube_face(r.coord, face, c[0], c[1]);
        g.dims = 2;
        g.normalized = true;
        g.mode[0] = g.mode[1] = AddressMode::Clamp;
        g.z_base = g.z_base * 6 + face;
    }
    return g;
}

Footprint footprint(const Header& h, const Geometry& g, const float c[3]) {
    Footprint f;
    int64_t t[3] = {0, 0, 0};
    for (int d = 0; d < g.dims; ++d) t[d] = texel_coordinate(c[d], g.size[d], g.normalized, g.mode[d]);
    if (!h.linear_filter) {
        f.n = 1;
        f.x[0] = t[0] >> kFracBits;
        f.y[0] = g.dims >= 2 ? t[1] >> kFracBits : 0;
        f.z[0] = g.dims >= 3 ? t[2] >> kFracBits : 0;
        f.w[0] = kWeightOne;
        return f;
    }
    Axis ax[3];
    for (int d = 0; d < g.dims; ++d) {
        // Clamping keeps the coordinate between the outer texel centres, so the filter's fraction
        // there is 0 (measured: in 3D the weights of the other axes depend on it).
        const bool clamp = g.mode[d] == AddressMode::Clamp ||
                           (!g.normalized && (g.mode[d] == AddressMode::Wrap || g.mode[d] == AddressMode::Mirror));
        if (clamp) t[d] = std::clamp<int64_t>(t[d], kOne / 2, int64_t(g.size[d]) * kOne - kOne / 2);
        ax[d] = linear_axis(t[d]);
    }
    int64_t w[8];
    filter_weights(ax[0].a, g.dims >= 2 ? ax[1].a : 0, g.dims == 3 ? ax[2].a : 0, w);
    f.n = 1 << g.dims;
    for (int k = 0; k < f.n; ++k) {
        f.x[k] = ax[0].i + (k & 1);
        f.y[k] = g.dims >= 2 ? ax[1].i + ((k >> 1) & 1) : 0;
        f.z[k] = g.dims == 3 ? ax[2].i + (k >> 2) : 0;
        f.w[k] = w[k];
    }
    return f;
}

Result fetch_buffer(const Header& h, const Request& r, Reader& mem) {
    const Path p = path_of(h);
    // A buffer fetch outside the buffer returns zeros (measured).
    const double x = r.integer ? double(r.icoord[0]) : std::floor(double(r.coord[0]));
    if (!(x >= 0 && x < double(h.width))) return Result{};
    const int64_t i = int64_t(x);
    uint8_t bytes[16];
    mem.read(h.base + uint64_t(i) * h.texel_bytes, bytes, h.texel_bytes);
    return finish(h, p, decode_texel(h, p, bytes), 1);
}

} // namespace

Result sample(const Header& h, const Request& r, Reader& mem) {
    if (h.shape == Shape::Buffer) return fetch_buffer(h, r, mem);
    const Path p = path_of(h);
    float c[3];
    Geometry g = geometry(h, r, c);
    if (r.integer) {
        // Integer coordinates address texels directly.
        Texel t = read_texel(h, p, g, r.icoord[0], r.icoord[1], r.icoord[2], mem);
        return finish(h, p, t, 1);
    }
    const Footprint f = footprint(h, g, c);
    Texel sum;
    for (int k = 0; k < f.n; ++k) {
        if (f.w[k] == 0 && f.n > 1) continue;
        const Texel t = read_texel(h, p, g, f.x[k], f.y[k], f.z[k], mem);
        for (int ch = 0; ch < 4; ++ch) {
            sum.f[ch] += (long double)f.w[k] * t.f[ch];
            sum.q[ch] += f.w[k] * t.q[ch];
        }
    }
    return finish(h, p, sum, kWeightOne);
}

Result gather(const Header& h, const Request& r, int channel, Reader& mem) {
    const Path p = path_of(h);
    float c[3];
    Geometry g = geometry(h, r, c);
    int64_t t[2] = {0, 0};
    for (int d = 0; d < 2; ++d) t[d] = texel_coordinate(c[d], g.size[d], g.normalized, g.mode[d]);
    const Axis ax = linear_axis(t[0]), ay = linear_axis(t[1]);
    // The four texels in the order the ISA gives: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
    const int64_t dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
    Result out;
    for (int k = 0; k < 4; ++k) {
        const Texel tx = read_texel(h, p, g, ax.i + dx[k], ay.i + dy[k], 0, mem);
        Texel one;
        one.f[0] = tx.f[channel];
        one.q[0] = tx.q[channel];
        out.word[k] = finish(h, p, one, 1).word[0];
    }
    return out;
}

} // namespace gpusim::tex
