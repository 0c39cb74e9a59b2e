// Texture and surface instructions: their many operands (a handle, a sampler, up to four
// coordinates, four results) go to a TexOperands entry of the image, which Inst::target indexes.
#include <algorithm>

#include <fmt/format.h>

#include "loader/function_decoder.h"
#include "tex/tex_ops.h"
#include "tex/texture_header.h"

namespace gpusim::loader {

namespace {

using Op = TexOperands::Op;

bool has(const std::vector<std::string>& mods, const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); }

// The shape a geometry modifier names, and how many coordinates PTX's vector holds for it.
bool shape_of(const std::vector<std::string>& mods, tex::Shape& shape, uint8_t& ncoord) {
    static const struct { const char* name; tex::Shape shape; uint8_t ncoord; } shapes[] = {
        {"1d", tex::Shape::D1, 1},       {"2d", tex::Shape::D2, 2},       {"3d", tex::Shape::D3, 4},
        {"a1d", tex::Shape::Layered1, 2}, {"a2d", tex::Shape::Layered2, 4}, {"cube", tex::Shape::Cube, 4},
        {"acube", tex::Shape::CubeLayered, 4}};
    for (const auto& s : shapes)
        if (has(mods, s.name)) { shape = s.shape; ncoord = s.ncoord; return true; }
    return false;
}

int query_of(const std::vector<std::string>& mods) {
    static const char* names[] = {"width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
                                  "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "array_size",
                                  "num_mipmap_levels", "num_samples"};
    for (int k = 0; k < int(std::size(names)); ++k)
        if (has(mods, names[k])) return k;
    return -1;
}

uint8_t element_bytes(const std::vector<std::string>& mods) {
    for (const char* t : {"b8", "b16", "b32", "b64"})
        if (has(mods, t)) return uint8_t(t[1] == '8' ? 1 : t[1] == '1' ? 2 : t[1] == '3' ? 4 : 8);
    return 0;
}

} // namespace

bool Decoder::is_texture_opcode(const std::string& op) {
    return op == "tex" || op == "tld4" || op == "txq" || op == "suld" || op == "sust" || op == "sured" || op == "suq" ||
           op == "istypep";
}

void Decoder::texture_handle(const Operand& o, Row& row, bool& in_memory) {
    if (o.kind == Operand::Kind::Reg || (o.kind == Operand::Kind::Address && o.reg >= 0)) {
        const int reg = o.reg;
        if (m_fn.regs[reg].is_pred || m_fn.regs[reg].bits != 64)
            fail(o.loc, fmt::format("a texture or surface handle is a 64-bit register; '{}' is not", m_fn.regs[reg].name));
        row = Row(m_reg_row[reg]);
        in_memory = false;
        return;
    }
    if (o.sym.kind != SymbolRef::Kind::ModuleVar) fail(o.loc, "expected a texture, sampler or surface handle");
    const ptx::Variable& v = m_mod.globals[o.sym.index];
    if (v.type != "texref" && v.type != "samplerref" && v.type != "surfref" && v.type != "u64" && v.type != "b64")
        fail(o.loc, fmt::format("'{}' is not a .texref, .samplerref or .surfref", v.name));
    row = pool_row(place(o).address);
    in_memory = true;
}

Inst Decoder::decode_texture(const ptx::Instruction& pi, Inst& in) {
    const auto& mods = pi.mods;
    const auto& ops = pi.ops;
    TexOperands t;
    in.space = MemSpace::Texture;
    auto bad = [&](const std::string& why) { fail(pi.loc, fmt::format("'{}': {}", pi.full_name(), why)); };
    // [handle, {coordinates}] or, in the independent mode, [texture, sampler, {coordinates}].
    auto access = [&](const Operand& o, bool want_coords) {
        if (o.kind != Operand::Kind::Address) fail(o.loc, "expected [handle, {coordinates}]");
        if (o.reg < 0 && o.sym.kind == SymbolRef::Kind::None) fail(o.loc, "expected a handle");
        if (o.offset != 0) fail(o.loc, "a texture or surface handle takes no offset");
        if (o.elems.size() > 2) fail(o.elems[2].loc, "expected [handle, {coordinates}] or [texture, sampler, {coordinates}]");
        texture_handle(o, t.handle, t.handle_in_memory);
        size_t k = 0;
        if (want_coords && o.elems.size() == 2) texture_handle(o.elems[k++], t.sampler, t.sampler_in_memory);
        if (!want_coords) {
            if (!o.elems.empty()) fail(o.loc, "this instruction takes only a handle in brackets");
            return;
        }
        if (k >= o.elems.size()) fail(o.loc, "expected coordinates after the handle");
        const Operand& c = o.elems[k];
        std::vector<Operand> coords = c.kind == Operand::Kind::Vector ? c.elems : std::vector<Operand>{c};
        if (coords.size() != t.ncoord) fail(c.loc, fmt::format("'{}' takes {} coordinates, found {}", pi.full_name(), t.ncoord, coords.size()));
        // A layered shape's layer index is an integer, whatever the coordinates' type.
        const bool layered = tex::Shape(t.shape) == tex::Shape::Layered1 || tex::Shape(t.shape) == tex::Shape::Layered2 ||
                             tex::Shape(t.shape) == tex::Shape::CubeLayered;
        for (size_t e = 0; e < coords.size(); ++e)
            t.coord[e] = source(coords[e], t.integer_coords || (layered && e == 0) ? "s32" : "f32");
    };
    auto results = [&](const Operand& o) {
        std::vector<Operand> v = o.kind == Operand::Kind::Vector ? o.elems : std::vector<Operand>{o};
        if (v.size() > 4) fail(o.loc, "at most four results");
        t.nvalue = uint8_t(v.size());
        for (size_t e = 0; e < v.size(); ++e) t.value[e] = dest(v[e]);
    };
    auto values = [&](const Operand& o, const std::string& type) {
        std::vector<Operand> v = o.kind == Operand::Kind::Vector ? o.elems : std::vector<Operand>{o};
        if (v.size() > 4) fail(o.loc, "at most four values");
        t.nvalue = uint8_t(v.size());
        for (size_t e = 0; e < v.size(); ++e) t.value[e] = source(v[e], type);
    };
    tex::Shape shape = tex::Shape::D1;
    const std::string& op = pi.opcode;
    if (op == "tex" || op == "tld4") {
        t.op = op == "tex" ? Op::Tex : Op::Gather;
        if (!shape_of(mods, shape, t.ncoord)) bad("needs a geometry (1d, 2d, 3d, a1d, a2d, cube, acube)");
        if (has(mods, "2dms") || has(mods, "a2dms")) bad("multisample textures are not modelled");
        t.integer_coords = mods.back() == "s32";
        if (op == "tld4") {
            static const char* comps[] = {"r", "g", "b", "a"};
            bool found = false;
            for (int k = 0; k < 4; ++k)
                if (has(mods, comps[k])) { t.component = uint8_t(k); found = true; }
            if (!found) bad("needs a component (.r, .g, .b, .a)");
            if (shape != tex::Shape::D2 && shape != tex::Shape::Layered2 && shape != tex::Shape::Cube && shape != tex::Shape::CubeLayered)
                bad("gathers 2d, a2d, cube or acube textures");
        }
        const size_t extra = has(mods, "level") ? 1 : has(mods, "grad") ? 2 : 0;
        // Offsets and depth comparison follow the coordinates; the model has neither.
        if (ops.size() > 2 + extra) bad("texel offsets and depth comparison are not modelled");
        need(pi, 2 + extra, 2 + extra);
        if (ops[0].kind == Operand::Kind::Pair) bad("the predicate result of a sparse fetch is not modelled");
        results(ops[0]);
        t.shape = uint8_t(shape);
        access(ops[1], true);
        // The level and gradients select a mipmap level; the model's arrays have one level, so
        // they are read (as operands) and do not change the result.
    } else if (op == "txq" || op == "suq") {
        t.op = op == "txq" ? Op::Query : Op::SurfQuery;
        const int q = query_of(mods);
        if (q < 0) bad("needs an attribute (width, height, depth, channel_data_type ...)");
        t.component = uint8_t(q);
        if (has(mods, "level")) bad("per-level queries are not modelled: the model's textures have one level");
        need(pi, 2, 2);
        results(ops[0]);
        if (t.nvalue != 1) bad("answers into one register");
        access(ops[1], false);
    } else if (op == "suld" || op == "sust" || op == "sured") {
        t.op = op == "suld" ? Op::SurfLoad : op == "sust" ? Op::SurfStore : Op::SurfReduce;
        if (!shape_of(mods, shape, t.ncoord) || shape == tex::Shape::Cube || shape == tex::Shape::CubeLayered)
            bad("needs a geometry (1d, 2d, 3d, a1d, a2d)");
        t.shape = uint8_t(shape);
        t.integer_coords = true;
        t.boundary = has(mods, "clamp") ? 1 : has(mods, "zero") ? 2 : 0;
        t.formatted = has(mods, "p");
        if (t.formatted) bad("formatted surface access (.p) is not modelled: use .b");
        need(pi, 2, 2);
        if (t.op == Op::SurfReduce) {
            static const char* reds[] = {"add", "min", "max", "and", "or"};
            bool found = false;
            for (int k = 0; k < 5; ++k)
                if (has(mods, reds[k])) { t.reduce = uint8_t(k); found = true; }
            if (!found) bad("needs an operation (add, min, max, and, or)");
            t.reduce_signed = has(mods, "s32") || has(mods, "s64");
            t.value_bytes = uint8_t(has(mods, "u64") || has(mods, "s64") || has(mods, "b64") ? 8 : 4);
            access(ops[0], true);
            values(ops[1], t.value_bytes == 8 ? "b64" : "b32");
            if (t.nvalue != 1) bad("reduces one value");
        } else {
            t.value_bytes = element_bytes(mods);
            if (!t.value_bytes) bad("needs an element type (b8, b16, b32, b64)");
            const std::string type = fmt::format("b{}", t.value_bytes * 8);
            if (t.op == Op::SurfLoad) {
                results(ops[0]);
                access(ops[1], true);
            } else {
                access(ops[0], true);
                values(ops[1], type);
            }
            const uint8_t want = has(mods, "v4") ? 4 : has(mods, "v2") ? 2 : 1;
            if (t.nvalue != want) bad(fmt::format("expected {} values, found {}", want, t.nvalue));
        }
    } else {   // istypep.type p, handle
        t.op = Op::TypeTest;
        t.component = uint8_t(has(mods, "texref") ? 0 : has(mods, "samplerref") ? 1 : has(mods, "surfref") ? 2 : 3);
        if (t.component == 3) bad("needs a type (.texref, .samplerref, .surfref)");
        need(pi, 2, 2);
        in.pd = pred(ops[0]);
        texture_handle(ops[1], t.handle, t.handle_in_memory);
        in.op_class = OpClass::IntAdd;
    }
    if (t.op == Op::Query || t.op == Op::SurfQuery) in.op_class = OpClass::Memory;
    in.fn = texture_fn(t.op);
    in.target = uint32_t(m_img->tex_operands.size());
    // The timing model's scoreboard sees the handle and the first results and coordinates.
    in.a = t.handle;
    in.b = t.coord[0];
    in.c = t.coord[1];
    if (t.op == Op::Tex || t.op == Op::Gather || t.op == Op::SurfLoad || t.op == Op::Query || t.op == Op::SurfQuery) {
        in.dest_flags |= kDestVec;
        in.vec_count = t.nvalue;
        for (int k = 0; k < t.nvalue; ++k) in.vec[k] = t.value[k];
    } else if (t.op == Op::SurfStore || t.op == Op::SurfReduce) {
        in.dest_flags |= t.op == Op::SurfStore ? kMemStore : kMemAtomic;
        for (int k = 0; k < t.nvalue; ++k) in.vec[k] = t.value[k];
        in.vec_count = t.nvalue;
    }
    m_img->tex_operands.push_back(t);
    return in;
}

} // namespace gpusim::loader
