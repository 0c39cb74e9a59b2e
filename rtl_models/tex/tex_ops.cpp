// The texture unit's instructions: tex and tld4 sample through the unit's filtering arithmetic
// (texture_sampler.h), suld, sust and sured move surface elements with their out-of-range rules,
// txq and suq answer an object's attributes, istypep tells the kind of handle. Each lane names its
// object by a handle: the device address of the object's header (texture_header.h), or for a
// module-scope .texref/.surfref the address of the variable that holds that handle.
#include "tex/tex_ops.h"

#include <algorithm>
#include <type_traits>
#include <cstring>

#include <fmt/format.h>

#include "isa/exec_context.h"
#include "isa/op_registry.h"
#include "tex/texture_sampler.h"

namespace gpusim {

using Op = TexOperands::Op;

namespace {

void read_memory(ExecContext& c, uint64_t addr, void* out, uint32_t bytes, int lane) {
    try {
        if (uint8_t* p = c.gmem->direct(addr, bytes, false)) std::memcpy(out, p, bytes);
        else c.gmem->slow(false, addr, static_cast<uint8_t*>(out), bytes);
    } catch (AccessFault& f) {
        f.lane = lane;
        f.space = "texture";
        throw;
    }
}

void write_memory(ExecContext& c, uint64_t addr, const void* in, uint32_t bytes, int lane) {
    try {
        if (uint8_t* p = c.gmem->direct(addr, bytes, true)) std::memcpy(p, in, bytes);
        else c.gmem->slow(true, addr, static_cast<uint8_t*>(const_cast<void*>(in)), bytes);
    } catch (AccessFault& f) {
        f.lane = lane;
        f.space = "surface";
        throw;
    }
}

// Texels come from device memory; a texel the memory refuses is a fault of the lane.
class LaneReader : public tex::Reader {
public:
    LaneReader(ExecContext& c, int lane) : m_c(c), m_lane(lane) {}
    void read(uint64_t addr, void* out, uint32_t bytes) override { read_memory(m_c, addr, out, bytes, m_lane); }

private:
    ExecContext& m_c;
    int m_lane;
};

// Texels are only located: the timing model prices the lines they lie in.
class AddressRecorder : public tex::Reader {
public:
    AddressRecorder(uint64_t* out, uint32_t cap) : m_out(out), m_cap(cap) {}
    void read(uint64_t addr, void* out, uint32_t bytes) override {
        std::memset(out, 0, bytes);
        if (m_n < m_cap) m_out[m_n++] = addr;
    }
    uint32_t count() const { return m_n; }

private:
    uint64_t* m_out;
    uint32_t m_cap;
    uint32_t m_n = 0;
};

const char* object_name(Op op) {
    return op == Op::SurfLoad || op == Op::SurfStore || op == Op::SurfReduce || op == Op::SurfQuery ? "surface" : "texture";
}

// Reads a lane's object header; handles are nearly always uniform, so the last one is kept.
class Headers {
public:
    const tex::Header& get(ExecContext& c, Warp& w, const TexOperands& o, int lane) {
        uint64_t handle = c.src(w, o.handle)[lane];
        if (o.handle_in_memory) read_memory(c, handle, &handle, 8, lane);
        if (!m_valid || handle != m_handle) {
            load(c, handle, o, lane);
            if (o.sampler != kNoRow) apply_sampler(c, w, o, lane);
        }
        return m_header;
    }

private:
    tex::Header m_header;
    uint64_t m_handle = 0;
    bool m_valid = false;

    [[noreturn]] static void invalid(uint64_t handle, const TexOperands& o, int lane, const char* why) {
        throw ExecFault(lane, fmt::format("invalid {} handle 0x{:x}: {}", object_name(o.op), handle, why));
    }

    void load(ExecContext& c, uint64_t handle, const TexOperands& o, int lane) {
        if (handle == 0) invalid(handle, o, lane, "a null handle (no object created or bound)");
        if (handle % alignof(uint64_t)) invalid(handle, o, lane, "not an object's address");
        try {
            read_memory(c, handle, &m_header, sizeof m_header, lane);
        } catch (const AccessFault&) {
            invalid(handle, o, lane, "no object at that address");
        }
        const bool surface = object_name(o.op)[0] == 's';
        if (o.op != Op::TypeTest && !(surface ? m_header.is_surface() : m_header.is_texture()))
            invalid(handle, o, lane, m_header.is_texture() || m_header.is_surface() ? (surface ? "a texture, not a surface" : "a surface, not a texture")
                                                                                    : "not a live object (destroyed, or never created)");
        if (!m_header.well_formed()) invalid(handle, o, lane, "the object's header in device memory is corrupt");
        if (m_header.sampler_only) invalid(handle, o, lane, "a reference with sampler state only: no texture is bound to it");
        m_handle = handle;
        m_valid = true;
    }

    // Independent mode: the sampler state comes from the .samplerref.
    void apply_sampler(ExecContext& c, Warp& w, const TexOperands& o, int lane) {
        uint64_t sh = c.src(w, o.sampler)[lane];
        if (o.sampler_in_memory) read_memory(c, sh, &sh, 8, lane);
        if (sh == 0 || sh % alignof(uint64_t)) invalid(sh, o, lane, "a null or misaligned sampler handle (no sampler created or bound)");
        tex::Header s;
        try {
            read_memory(c, sh, &s, sizeof s, lane);
        } catch (const AccessFault&) {
            invalid(sh, o, lane, "no sampler at that address");
        }
        if (!s.is_texture() || !s.well_formed()) invalid(sh, o, lane, "not a sampler");
        m_header.linear_filter = s.linear_filter;
        m_header.normalized_coords = s.normalized_coords;
        std::copy(s.address, s.address + 3, m_header.address);
        std::copy(s.border, s.border + 4, m_header.border);
        m_valid = false;   // combined per lane: the sampler may differ
    }
};

float as_float(uint64_t v) {
    uint32_t b = uint32_t(v);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// A lane's coordinates: a layered shape's layer comes first in PTX's vector.
tex::Request request(ExecContext& c, Warp& w, const TexOperands& o, int lane) {
    tex::Request r;
    const tex::Shape s = tex::Shape(o.shape);
    const bool layered = s == tex::Shape::Layered1 || s == tex::Shape::Layered2 || s == tex::Shape::CubeLayered;
    int k = 0;
    if (layered) r.layer = int32_t(c.src(w, o.coord[k++])[lane]);
    for (int d = 0; k < o.ncoord && d < 3; ++d, ++k) {
        const uint64_t v = c.src(w, o.coord[k])[lane];
        r.coord[d] = as_float(v);
        r.icoord[d] = int32_t(v);
    }
    r.integer = o.integer_coords;
    return r;
}

void write_results(Warp& w, const TexOperands& o, int lane, const uint32_t* words) {
    for (int k = 0; k < o.nvalue; ++k)
        if (o.value[k] >= 0) w.regs[size_t(o.value[k]) * kWarpSize + size_t(lane)] = words[k];
}

void tex_fn(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    Headers headers;
    for_lanes(m, [&](int l) {
        const tex::Header& h = headers.get(c, w, o, l);
        LaneReader mem(c, l);
        const tex::Request r = request(c, w, o, l);
        const tex::Result res = o.op == Op::Gather ? tex::gather(h, r, o.component, mem) : tex::sample(h, r, mem);
        write_results(w, o, l, res.word);
    });
}

// Surface coordinates: x in bytes, then y and z (or the layer, which PTX puts first).
struct SurfacePlace {
    int64_t x = 0, y = 0, z = 0;
};

SurfacePlace surface_place(ExecContext& c, Warp& w, const TexOperands& o, int lane) {
    SurfacePlace p;
    int64_t v[4] = {0, 0, 0, 0};
    for (int k = 0; k < o.ncoord; ++k) v[k] = int32_t(c.src(w, o.coord[k])[lane]);
    switch (tex::Shape(o.shape)) {
    case tex::Shape::Layered1: p.z = v[0]; p.x = v[1]; break;
    case tex::Shape::Layered2: p.z = v[0]; p.x = v[1]; p.y = v[2]; break;
    default: p.x = v[0]; p.y = v[1]; p.z = v[2]; break;
    }
    return p;
}

// The address of a surface access of `bytes`, or 0 when .zero drops it. .trap faults out of
// range, .clamp moves the access to the nearest element inside.
uint64_t surface_address(const tex::Header& h, const TexOperands& o, SurfacePlace p, uint32_t bytes, int lane) {
    const int64_t row = int64_t(h.width) * h.texel_bytes;
    const int64_t rows = h.dims() >= 2 ? h.height : 1;
    const int64_t slices = h.shape == tex::Shape::D3 ? h.depth : h.shape == tex::Shape::Cube ? 6
                           : h.shape == tex::Shape::CubeLayered ? 6 * int64_t(h.layers) : h.layered() ? h.layers : 1;
    if (p.x % bytes) throw ExecFault(lane, fmt::format("misaligned surface access: byte {} of a row, {} bytes", p.x, bytes));
    if (bytes > row) throw ExecFault(lane, fmt::format("surface access of {} bytes is wider than the surface's rows of {} bytes", bytes, row));
    const bool inside = p.x >= 0 && p.x + bytes <= row && p.y >= 0 && p.y < rows && p.z >= 0 && p.z < slices;
    if (!inside) {
        if (o.boundary == 0)
            throw ExecFault(lane, fmt::format("surface access out of range (.trap): byte {} of row {} of slice {}, {} bytes; the "
                                              "surface has rows of {} bytes, {} rows and {} slices",
                                              p.x, p.y, p.z, bytes, row, rows, slices), FaultKind::Trap);
        if (o.boundary == 2) return 0;
        p.x = std::clamp<int64_t>(p.x, 0, (row - bytes) / bytes * bytes);
        p.y = std::clamp<int64_t>(p.y, 0, rows - 1);
        p.z = std::clamp<int64_t>(p.z, 0, slices - 1);
    }
    return h.base + uint64_t(p.z) * h.slice + uint64_t(p.y) * h.pitch + uint64_t(p.x);
}

// Visits each active lane of a surface instruction with the address of its access of `bytes`
// (0 when .zero drops it).
template <class F>
void for_surface_lanes(ExecContext& c, Warp& w, const TexOperands& o, LaneMask m, uint32_t bytes, F&& f) {
    Headers headers;
    for_lanes(m, [&](int l) { f(l, surface_address(headers.get(c, w, o, l), o, surface_place(c, w, o, l), bytes, l)); });
}

void suld_fn(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    for_surface_lanes(c, w, o, m, uint32_t(o.value_bytes) * o.nvalue, [&](int l, uint64_t a) {
        uint8_t data[32] = {};
        if (a) read_memory(c, a, data, uint32_t(o.value_bytes) * o.nvalue, l);
        for (int k = 0; k < o.nvalue; ++k) {
            uint64_t v = 0;
            std::memcpy(&v, data + k * o.value_bytes, o.value_bytes);
            if (o.value[k] >= 0) w.regs[size_t(o.value[k]) * kWarpSize + size_t(l)] = v;
        }
    });
}

void sust_fn(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    for_surface_lanes(c, w, o, m, uint32_t(o.value_bytes) * o.nvalue, [&](int l, uint64_t a) {
        if (!a) return;
        uint8_t data[32] = {};
        for (int k = 0; k < o.nvalue; ++k) {
            const uint64_t v = c.src(w, o.value[k])[l];
            std::memcpy(data + k * o.value_bytes, &v, o.value_bytes);
        }
        write_memory(c, a, data, uint32_t(o.value_bytes) * o.nvalue, l);
    });
}

template <class T>
T reduce(T old, T v, uint8_t op) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
    case 0: return T(U(old) + U(v));   // wraps, as the hardware's adder does
    case 1: return std::min(old, v);
    case 2: return std::max(old, v);
    case 3: return T(old & v);
    default: return T(old | v);
    }
}

void sured_fn(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    const uint32_t bytes = o.value_bytes;
    // Lanes reduce one after the other, as a warp's atomics to one element are performed.
    for_surface_lanes(c, w, o, m, bytes, [&](int l, uint64_t a) {
        if (!a) return;
        const uint64_t v = c.src(w, o.value[0])[l];
        uint64_t old = 0, out = 0;
        read_memory(c, a, &old, bytes, l);
        if (bytes == 8) out = o.reduce_signed ? uint64_t(reduce<int64_t>(int64_t(old), int64_t(v), o.reduce)) : reduce<uint64_t>(old, v, o.reduce);
        else out = o.reduce_signed ? uint32_t(reduce<int32_t>(int32_t(old), int32_t(v), o.reduce)) : reduce<uint32_t>(uint32_t(old), uint32_t(v), o.reduce);
        write_memory(c, a, &out, bytes, l);
    });
}

// OpenCL's channel type and order numbers, which PTX's txq and suq answer in.
uint32_t channel_data_type(const tex::Header& h) {
    const bool norm = h.read_normalized && h.kind != tex::ChannelKind::Float;
    switch (h.kind) {
    case tex::ChannelKind::Float: return h.channel_bytes == 2 ? 0x10DD : 0x10DE;
    case tex::ChannelKind::Signed: return norm ? (h.channel_bytes == 1 ? 0x10D0 : 0x10D1) : 0x10D7 + (h.channel_bytes == 1 ? 0 : h.channel_bytes == 2 ? 1 : 2);
    default: return norm ? (h.channel_bytes == 1 ? 0x10D2 : 0x10D3) : 0x10DA + (h.channel_bytes == 1 ? 0 : h.channel_bytes == 2 ? 1 : 2);
    }
}

uint32_t channel_order(const tex::Header& h) {
    static const uint32_t order[5] = {0, 0x10B0, 0x10B2, 0x10B4, 0x10B5};   // R, RG, RGB, RGBA
    return order[std::min<uint32_t>(h.channels, 4)];
}

uint32_t query(const tex::Header& h, TexQuery q) {
    switch (q) {
    case TexQuery::Width: return h.width;
    case TexQuery::Height: return h.dims() >= 2 ? h.height : 1;
    case TexQuery::Depth: return h.shape == tex::Shape::D3 ? h.depth : 1;
    case TexQuery::ChannelDataType: return channel_data_type(h);
    case TexQuery::ChannelOrder: return channel_order(h);
    case TexQuery::NormalizedCoords: return h.normalized_coords;
    case TexQuery::FilterMode: return h.linear_filter;
    case TexQuery::AddrMode0: return uint32_t(h.address[0]);
    case TexQuery::AddrMode1: return uint32_t(h.address[1]);
    case TexQuery::AddrMode2: return uint32_t(h.address[2]);
    case TexQuery::ArraySize: return h.layered() ? h.layers : 1;
    case TexQuery::MipmapLevels: return 1;
    case TexQuery::Samples: return 1;
    }
    return 0;
}

void query_fn(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    Headers headers;
    for_lanes(m, [&](int l) {
        const uint32_t v = query(headers.get(c, w, o, l), TexQuery(o.component));
        write_results(w, o, l, &v);
    });
}

// istypep: whether a handle names an object of the type (a texture carries its sampler state).
void typetest_fn(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    LaneMask yes = 0;
    for_lanes(m, [&](int l) {
        uint64_t handle = c.src(w, o.handle)[l];
        if (o.handle_in_memory) read_memory(c, handle, &handle, 8, l);
        tex::Header h;
        bool ok = handle && handle % 8 == 0;
        if (ok) {
            try {
                read_memory(c, handle, &h, sizeof h, l);
            } catch (const AccessFault&) {
                ok = false;
            }
        }
        const bool match = ok && (o.component == 2 ? h.is_surface() : h.is_texture());
        if (match) yes |= 1u << l;
    });
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | yes;
}

} // namespace

ExecFn texture_fn(TexOperands::Op op) {
    switch (op) {
    case Op::Tex: case Op::Gather: return tex_fn;
    case Op::Query: case Op::SurfQuery: return query_fn;
    case Op::SurfLoad: return suld_fn;
    case Op::SurfStore: return sust_fn;
    case Op::SurfReduce: return sured_fn;
    case Op::TypeTest: return typetest_fn;
    }
    return nullptr;
}

uint32_t texture_footprint(ExecContext& c, Warp& w, const Inst& in, LaneMask m, uint64_t* out, uint32_t cap) {
    const TexOperands& o = c.kernel->tex_operands[in.target];
    if (o.op == Op::Query || o.op == Op::SurfQuery || o.op == Op::TypeTest) return 0;
    AddressRecorder rec(out, cap);
    Headers headers;
    for_lanes(m, [&](int l) {
        const tex::Header& h = headers.get(c, w, o, l);
        if (o.op == Op::Tex || o.op == Op::Gather) {
            const tex::Request r = request(c, w, o, l);
            if (o.op == Op::Gather) tex::gather(h, r, o.component, rec);
            else tex::sample(h, r, rec);
            return;
        }
        const uint32_t bytes = uint32_t(o.value_bytes) * (o.op == Op::SurfReduce ? 1 : o.nvalue);
        if (const uint64_t a = surface_address(h, o, surface_place(c, w, o, l), bytes, l)) {
            uint8_t none[32];
            rec.read(a, none, bytes);
        }
    });
    return rec.count();
}

} // namespace gpusim
