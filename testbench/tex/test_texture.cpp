// The texture unit's sampling arithmetic (rtl_models/tex/texture_sampler.*) against what an H100
// returned: one-hot 2x2x2 textures fetched at every combination of 20 filter fractions per axis
// (regress/golden/texture_weights), plus the rules that need no capture.
#define BOOST_TEST_MODULE texture
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "tex/texture_sampler.h"

using namespace gpusim::tex;

namespace {

// Device memory for the sampler: a host buffer at address 0.
class HostTexels : public Reader {
public:
    explicit HostTexels(std::vector<uint8_t> bytes) : m_bytes(std::move(bytes)) {}
    void read(uint64_t addr, void* out, uint32_t bytes) override {
        BOOST_REQUIRE(addr + bytes <= m_bytes.size());
        std::memcpy(out, m_bytes.data() + addr, bytes);
    }

private:
    std::vector<uint8_t> m_bytes;
};

Header volume(bool unorm) {
    Header h;
    h.magic = kTextureMagic;
    h.shape = Shape::D3;
    h.width = h.height = h.depth = 2;
    h.channels = 1;
    h.channel_bytes = unorm ? 1 : 4;
    h.texel_bytes = h.channel_bytes;
    h.kind = unorm ? ChannelKind::Unsigned : ChannelKind::Float;
    h.read_normalized = unorm;
    h.linear_filter = 1;
    h.pitch = 2 * h.texel_bytes;
    h.slice = 4 * h.texel_bytes;
    return h;
}

const int kFractions[] = {0, 1, 2, 3, 31, 51, 64, 77, 102, 127, 128, 129, 154, 179, 192, 213, 230, 253, 254, 255};

} // namespace

BOOST_AUTO_TEST_CASE(weights_always_sum_to_one) {
    for (int64_t a = 0; a < 256; a += 3)
        for (int64_t b = 0; b < 256; b += 5)
            for (int64_t c = 0; c < 256; c += 7) {
                int64_t w[8];
                filter_weights(a, b, c, w);
                int64_t sum = 0;
                for (int64_t x : w) {
                    BOOST_REQUIRE(x >= 0);
                    sum += x;
                }
                BOOST_REQUIRE_EQUAL(sum, 256);
            }
}

BOOST_AUTO_TEST_CASE(bilinear_rounds_the_product_half_up) {
    int64_t w[8];
    filter_weights(128, 51, 0, w);   // a*b/256 = 25.5 rounds to 26: the measured 2D case
    BOOST_TEST(w[3] == 26);
    BOOST_TEST(w[1] == 128 - 26);
    BOOST_TEST(w[2] == 51 - 26);
    BOOST_TEST(w[0] == 256 - 128 - 51 + 26);
    BOOST_TEST((w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0));
}

// Every corner's weight, through the whole sampler (coordinate, fraction, weights, float or
// 16-bit unorm result), bit for bit against the H100's 128,000 results.
BOOST_AUTO_TEST_CASE(trilinear_matches_the_h100_on_one_hot_volumes) {
    std::ifstream in(GPUSIM_SOURCE_DIR "/regress/golden/texture_weights/weights.bin", std::ios::binary);
    BOOST_REQUIRE(in);
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t n = 20 * 20 * 20;
    BOOST_REQUIRE_EQUAL(raw.size(), 16 * n * sizeof(float));
    size_t checked = 0, wrong = 0;
    for (int kind = 0; kind < 2; ++kind)
        for (int corner = 0; corner < 8; ++corner) {
            const Header h = volume(kind == 1);
            std::vector<uint8_t> texels(8 * h.texel_bytes, 0);
            if (kind == 0) {
                const float one = 1.0f;
                std::memcpy(texels.data() + corner * 4, &one, 4);
            } else {
                texels[corner] = 255;
            }
            HostTexels mem(texels);
            for (size_t k = 0; k < n; ++k) {
                Request r;
                r.coord[0] = 0.5f + kFractions[k / 400] / 256.0f;
                r.coord[1] = 0.5f + kFractions[k / 20 % 20] / 256.0f;
                r.coord[2] = 0.5f + kFractions[k % 20] / 256.0f;
                uint32_t want;
                std::memcpy(&want, raw.data() + ((size_t(kind) * 8 + corner) * n + k) * 4, 4);
                ++checked;
                if (sample(h, r, mem).word[0] != want) ++wrong;
            }
        }
    BOOST_TEST(checked == 16 * n);
    BOOST_TEST(wrong == 0u);
}

BOOST_AUTO_TEST_CASE(normalized_coordinates_truncate_before_scaling) {
    // float(1/7) * 7 rounds to 1.0 in float arithmetic, but the unit's fixed point lands below.
    const int64_t t = texel_coordinate(1.0f / 7.0f, 7, true, AddressMode::Clamp);
    BOOST_TEST((t >> kFracBits) == 0);
    BOOST_TEST(address_index(-1, 5, AddressMode::Mirror, true) == 0);
    BOOST_TEST(address_index(5, 5, AddressMode::Mirror, true) == 4);
    BOOST_TEST(address_index(-1, 5, AddressMode::Wrap, true) == 4);
    BOOST_TEST(address_index(-1, 5, AddressMode::Wrap, false) == 0);   // unnormalized wrap clamps
    BOOST_TEST(address_index(7, 5, AddressMode::Border, true) == -1);
}

BOOST_AUTO_TEST_CASE(cube_faces_prefer_z_then_y_on_ties) {
    int face;
    float s, t;
    const float corner[3] = {-1.0f, -1.0f, -1.0f};
    cube_face(corner, face, s, t);
    BOOST_TEST(face == 5);
    const float edge[3] = {0.9f, 0.9f, -0.5f};
    cube_face(edge, face, s, t);
    BOOST_TEST(face == 2);
    const float plain[3] = {1.0f, 0.25f, -0.5f};
    cube_face(plain, face, s, t);
    BOOST_TEST(face == 0);
    BOOST_TEST(s == 0.75f);
    BOOST_TEST(t == 0.375f);
}
