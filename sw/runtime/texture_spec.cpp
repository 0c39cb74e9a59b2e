#include "runtime/texture_spec.h"

#include <regex>

#include "ptx/diagnostics.h"

#include "runtime/manifest_parse.h"

namespace gpusim {

using namespace manifest_parse;

namespace {

// "f32", "u8x4", "s16x2", "f16x4": kind, bits per channel, channels.
void parse_format(const std::string& path, const std::string& where, const std::string& f, tex::Header& h) {
    static const std::regex re("([fus])(8|16|32)(?:x([124]))?");
    std::smatch m;
    if (!std::regex_match(f, m, re) || (f[0] == 'f' && m[2] == "8"))
        bad(path, where, fmt::format("format \"{}\": expected u8, s16, f32 ... with x1, x2 or x4 (e.g. u8x4, f16x2)", f));
    h.kind = f[0] == 'f' ? tex::ChannelKind::Float : f[0] == 's' ? tex::ChannelKind::Signed : tex::ChannelKind::Unsigned;
    h.channel_bytes = uint8_t(std::stoi(m[2]) / 8);
    h.channels = uint8_t(m[3].matched ? std::stoi(m[3]) : 1);
    h.texel_bytes = uint8_t(h.channel_bytes * h.channels);
}

tex::Shape parse_shape(const std::string& path, const std::string& where, const std::string& s) {
    static const std::pair<const char*, tex::Shape> shapes[] = {
        {"1d", tex::Shape::D1}, {"2d", tex::Shape::D2}, {"3d", tex::Shape::D3}, {"a1d", tex::Shape::Layered1},
        {"a2d", tex::Shape::Layered2}, {"cube", tex::Shape::Cube}, {"acube", tex::Shape::CubeLayered}, {"buffer", tex::Shape::Buffer}};
    for (const auto& [name, shape] : shapes)
        if (s == name) return shape;
    bad(path, where, fmt::format("shape \"{}\": expected 1d, 2d, 3d, a1d, a2d, cube, acube or buffer", s));
}

tex::AddressMode parse_address(const std::string& path, const std::string& where, const json& j) {
    const std::string s = j.is_string() ? j.get<std::string>() : "";
    if (s == "wrap") return tex::AddressMode::Wrap;
    if (s == "clamp") return tex::AddressMode::Clamp;
    if (s == "mirror") return tex::AddressMode::Mirror;
    if (s == "border") return tex::AddressMode::Border;
    bad(path, where, fmt::format("address mode {}: expected wrap, clamp, mirror or border", j.dump()));
}

uint32_t extent(const std::string& path, const std::string& where, const json& j, const char* key, uint32_t dflt) {
    if (!j.contains(key)) return dflt;
    if (!j[key].is_number_unsigned() || j[key].get<uint64_t>() == 0 || j[key].get<uint64_t>() > 65536)
        bad(path, where, fmt::format("\"{}\" must be an integer from 1 to 65536", key));
    return j[key].get<uint32_t>();
}

std::string text(const std::string& path, const std::string& where, const json& j, const char* key, const char* dflt) {
    if (!j.contains(key)) return dflt;
    if (!j[key].is_string()) bad(path, where, fmt::format("\"{}\" must be a string", key));
    return j[key].get<std::string>();
}

bool flag(const std::string& path, const std::string& where, const json& j, const char* key) {
    if (!j.contains(key)) return false;
    if (!j[key].is_boolean()) bad(path, where, fmt::format("\"{}\" must be true or false", key));
    return j[key].get<bool>();
}

// Sampler state: filter, address modes, coordinates, read mode and border color.
void parse_sampler(const std::string& path, const std::string& w, const json& j, tex::Header& h) {
    const std::string filter = text(path, w, j, "filter", "point");
    if (filter != "point" && filter != "linear") bad(path, w, "\"filter\" must be \"point\" or \"linear\"");
    h.linear_filter = filter == "linear";
    if (j.contains("address")) {
        const json& a = j["address"];
        if (a.is_array()) {
            if (a.empty() || a.size() > 3) bad(path, w, "\"address\" takes one to three modes");
            for (size_t k = 0; k < 3; ++k) h.address[k] = parse_address(path, w, a[std::min(k, a.size() - 1)]);
        } else {
            h.address[0] = h.address[1] = h.address[2] = parse_address(path, w, a);
        }
    }
    h.normalized_coords = flag(path, w, j, "normalized_coords");
    const std::string read = text(path, w, j, "read", "element");
    if (read != "element" && read != "normalized") bad(path, w, "\"read\" must be \"element\" or \"normalized\"");
    h.read_normalized = read == "normalized" && h.kind != tex::ChannelKind::Float;
    if (h.read_normalized && h.channel_bytes == 4) bad(path, w, "normalized reads need 8- or 16-bit integer channels");
    if (h.linear_filter && h.kind != tex::ChannelKind::Float && !h.read_normalized)
        bad(path, w, "linear filtering needs float channels or \"read\": \"normalized\"");
    if (j.contains("border")) {
        const json& b = j["border"];
        if (!b.is_array() || b.size() != 4 || !std::all_of(b.begin(), b.end(), [](const json& v) { return v.is_number(); }))
            bad(path, w, "\"border\" must be an array of four numbers");
        for (int k = 0; k < 4; ++k) h.border[k] = b[k].get<float>();
    }
}

} // namespace

TextureSpec parse_texture(const std::string& path, const std::string& w, const json& j,
                          const std::map<std::string, uint64_t>& buffer_bytes) {
    only_keys(path, w, j, {"name", "buffer", "format", "shape", "width", "height", "depth", "layers", "pitch", "filter",
                           "address", "normalized_coords", "read", "border", "surface", "bind"});
    TextureSpec s;
    s.name = field(path, w, j, "name").get<std::string>();
    s.buffer = field(path, w, j, "buffer").get<std::string>();
    auto buf = buffer_bytes.find(s.buffer);
    if (buf == buffer_bytes.end()) bad(path, w, fmt::format("unknown buffer \"{}\"", s.buffer));
    s.bind = text(path, w, j, "bind", "");
    tex::Header& h = s.header;
    const bool surface = flag(path, w, j, "surface");
    h.magic = surface ? tex::kSurfaceMagic : tex::kTextureMagic;
    parse_format(path, w, field(path, w, j, "format").get<std::string>(), h);
    h.shape = parse_shape(path, w, text(path, w, j, "shape", "2d"));
    h.width = extent(path, w, j, "width", 0);
    if (h.width == 0) bad(path, w, "missing \"width\"");
    h.height = h.dims() >= 2 ? extent(path, w, j, "height", 1) : 1;
    h.depth = h.shape == tex::Shape::D3 ? extent(path, w, j, "depth", 1) : 1;
    h.layers = h.layered() ? extent(path, w, j, "layers", 1) : 1;
    if ((h.shape == tex::Shape::Cube || h.shape == tex::Shape::CubeLayered) && h.width != h.height)
        bad(path, w, "a cube map's faces are square: width and height must be equal");
    const uint64_t row = uint64_t(h.width) * h.texel_bytes;
    if (j.contains("pitch") && !j["pitch"].is_number_unsigned()) bad(path, w, "\"pitch\" must be a byte count");
    h.pitch = j.contains("pitch") ? j["pitch"].get<uint64_t>() : row;
    if (h.pitch < row) bad(path, w, fmt::format("\"pitch\" {} is less than a row of {} bytes", h.pitch, row));
    if (h.pitch > buf->second) bad(path, w, fmt::format("\"pitch\" {} is larger than buffer \"{}\"", h.pitch, s.buffer));
    h.slice = h.pitch * h.height;
    const uint64_t slices = h.shape == tex::Shape::D3 ? h.depth : h.shape == tex::Shape::Cube ? 6
                            : h.shape == tex::Shape::CubeLayered ? 6ull * h.layers : h.layers;
    s.bytes = h.slice * slices;
    if (s.bytes > buf->second)
        bad(path, w, fmt::format("the texels need {} bytes but buffer \"{}\" holds {}", s.bytes, s.buffer, buf->second));
    if (!surface) parse_sampler(path, w, j, h);
    return s;
}

uint64_t create_texture(Runtime& rt, const TextureSpec& spec, DevicePtr buffer, const ModuleHandle& mod,
                        const std::string& manifest_path) {
    tex::Header h = spec.header;
    h.base = buffer;
    const DevicePtr at = rt.malloc(sizeof h);
    rt.memcpy_to_device(at, &h, sizeof h);
    if (!spec.bind.empty()) {
        auto it = mod.symbols.find(spec.bind);
        if (it == mod.symbols.end() || it->second.second != 8)
            throw std::runtime_error(fmt::format("{}: error: texture \"{}\": the module has no .texref, .samplerref or .surfref \"{}\"",
                                                 manifest_path, spec.name, spec.bind));
        const uint64_t handle = at;
        rt.memcpy_to_device(it->second.first, &handle, sizeof handle);
    }
    return at;
}

tex::Header reference_sampler(const ptx::Variable& v, const std::string& file) {
    tex::Header h;
    h.magic = tex::kTextureMagic;
    h.sampler_only = 1;
    h.normalized_coords = v.type == "samplerref";   // a sampler normalizes unless told not to
    auto fail = [&](const ptx::Variable::OpaqueField& f, const std::string& why) {
        throw ptx::PtxError(file, f.loc, fmt::format("'{}' of '{}': {}", f.name, v.name, why));
    };
    for (const auto& f : v.opaque_init) {
        if (f.name == "filter_mode") {
            if (f.value != "nearest" && f.value != "linear") fail(f, "expected nearest or linear");
            h.linear_filter = f.value == "linear";
        } else if (f.name.rfind("addr_mode_", 0) == 0 && f.name.size() == 11 && f.name[10] >= '0' && f.name[10] <= '2') {
            tex::AddressMode m = tex::AddressMode::Wrap;
            if (f.value == "mirror") m = tex::AddressMode::Mirror;
            else if (f.value == "clamp_ogl" || f.value == "clamp_to_edge") m = tex::AddressMode::Clamp;
            else if (f.value == "clamp_to_border") m = tex::AddressMode::Border;
            else if (f.value != "wrap") fail(f, "expected wrap, mirror, clamp_ogl, clamp_to_edge or clamp_to_border");
            h.address[f.name[10] - '0'] = m;
        } else if (f.name == "normalized_coords" || f.name == "force_unnormalized_coords") {
            if (f.value != "0" && f.value != "1") fail(f, "expected 0 or 1");
            h.normalized_coords = (f.name == "normalized_coords") == (f.value == "1");
        } else {
            fail(f, "not a sampler field the model takes (filter_mode, addr_mode_0..2, normalized_coords, "
                    "force_unnormalized_coords): bind the texture's memory through the manifest");
        }
    }
    return h;
}

} // namespace gpusim
