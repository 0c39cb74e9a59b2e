// Operands of the warp-level matrix instructions (PTX ISA):
//   mma.sync... {d...}, {a...}, {b...}, {c...}      wmma.mma.sync... {d...}, {a...}, {b...}, {c...}
//   wmma.load.{a,b,c}... {d...}, [addr]{, stride}   wmma.store.d... [addr], {r...}{, stride}
//   ldmatrix... {d...}, [addr]                      stmatrix... [addr], {r...}
// mma and wmma keep their register lists, and where each element lives, in a MatrixOperands; so do
// the vector forms of atom and red, their element and result registers.
#include <fmt/format.h>

#include "loader/function_decoder.h"
#include "tensor/fragment.h"
#include "tensor/matrix_ops.h"

namespace gpusim::loader {

void Decoder::matrix_operands(const ptx::Instruction& pi, uint64_t code, Inst& in) {
    const auto& ops = pi.ops;
    auto vector_of = [&](const Operand& o) -> const std::vector<Operand>& {
        if (o.kind != Operand::Kind::Vector) fail(o.loc, fmt::format("'{}' expects a vector of registers {{...}} here", pi.full_name()));
        return o.elems;
    };
    if (pi.opcode == "ldmatrix" || pi.opcode == "stmatrix") {
        need(pi, 2, 2);
        const bool load = pi.opcode == "ldmatrix";
        const auto& regs = vector_of(ops[load ? 0 : 1]);
        if (regs.size() != in.vec_count)
            fail(ops[load ? 0 : 1].loc, fmt::format("'{}' moves {} registers, found {}", pi.full_name(), in.vec_count, regs.size()));
        for (size_t j = 0; j < regs.size(); ++j) in.vec[j] = load ? dest(regs[j]) : source(regs[j], "b32");
        if (load) in.dest_flags |= kDestVec; else in.dest_flags |= kMemStore;
        address(ops[load ? 1 : 0], in, in.space, pi);
        return;
    }
    MatrixOperands o;
    o.form = tensor::decode_form(code, o.use);
    for (int u = 0; u < 3; ++u) o.slots[u] = tensor::fragment_slots(o.form, MatrixUse(u));
    // A list of registers for fragment `u` (of element format e): the tiles' registers, or (wmma)
    // a whole repetition of them.
    auto rows = [&](const Operand& op, MatrixUse u, bool write) {
        const auto& regs = vector_of(op);
        const size_t unique = size_t(tensor::fragment_registers(o.form, u));
        if (regs.size() != unique && !(o.form.wmma && unique && regs.size() % unique == 0))
            fail(op.loc, fmt::format("'{}' takes {} registers here, found {}", pi.full_name(), unique, regs.size()));
        const MatrixElem e = u == MatrixUse::A ? o.form.a : u == MatrixUse::B ? o.form.b : o.form.c;
        const char* type = tensor::elem_bits(e) == 64 ? "b64" : "b32";
        std::vector<int32_t> out;
        for (const Operand& r : regs) out.push_back(write ? dest(r) : source(r, type));
        return out;
    };
    const bool is_mma = pi.opcode == "mma" || OpSpec{pi.opcode, pi.mods}.has("mma");
    if (is_mma) {
        need(pi, 4, 4);
        o.d = rows(ops[0], MatrixUse::C, true);
        o.a = rows(ops[1], MatrixUse::A, false);
        o.b = rows(ops[2], MatrixUse::B, false);
        o.c = rows(ops[3], MatrixUse::C, false);
    } else {
        const bool load = OpSpec{pi.opcode, pi.mods}.has("load");
        need(pi, 2, 3);
        if (load) o.d = rows(ops[0], o.use, true);
        else o.c = rows(ops[1], MatrixUse::C, false);
        address(ops[load ? 1 : 0], in, in.space, pi);
        if (ops.size() == 3) in.b = source(ops[2], "u32");
        if (!load) in.dest_flags |= kMemStore;
    }
    in.dest_flags |= kMatrixRows;
    in.target = uint32_t(m_img->matrix_operands.size());
    m_img->matrix_operands.push_back(std::move(o));
}

} // namespace gpusim::loader

namespace gpusim::loader {

// atom.v2/.v4/.v8 {d...}, [addr], {b...} and red [addr], {b...}: one register per element, of the
// element's width, in a MatrixOperands (d written, b read).
void Decoder::atom_vector_operands(const ptx::Instruction& pi, Inst& in) {
    const auto& ops = pi.ops;
    const bool red = pi.opcode == "red";
    need(pi, red ? 2 : 3, red ? 2 : 3);
    const char* type = in.width == 2 ? "b16" : "b32";
    auto list = [&](const Operand& o, bool write) {
        if (o.kind != Operand::Kind::Vector || o.elems.size() != in.vec_count)
            fail(o.loc, fmt::format("'{}' takes a vector of {} registers {{...}} here", pi.full_name(), in.vec_count));
        std::vector<int32_t> rows;
        for (const Operand& r : o.elems) rows.push_back(write ? dest(r) : source(r, type));
        return rows;
    };
    MatrixOperands o;
    if (!red) o.d = list(ops[0], true);
    address(ops[red ? 0 : 1], in, in.space, pi);
    o.b = list(ops[red ? 1 : 2], false);
    in.dest_flags |= kMemAtomic | kMatrixRows;
    in.target = uint32_t(m_img->matrix_operands.size());
    m_img->matrix_operands.push_back(std::move(o));
}

} // namespace gpusim::loader
