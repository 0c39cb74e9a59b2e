#include <algorithm>
#include <cstring>
#include <map>

#include "loader/cfg.h"
#include "loader/loader.h"
#include "sm/op_select.h"
#include "sm/simt_stack.h"
#include "video/video_code.h"

namespace gpusim {
int time_register(const std::string& name);
ExecFn time_register_reader();
}

namespace gpusim::loader {
namespace {

using ptx::Operand;
using ptx::PtxError;
using ptx::Space;
using ptx::SymbolRef;

uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

// Constant special registers get a hidden register row filled when a warp starts.
bool special_of(const std::string& name, SpecialReg& out) {
    static const std::pair<const char*, SpecialReg> names[] = {
        {"%tid.x", SpecialReg::TidX}, {"%tid.y", SpecialReg::TidY}, {"%tid.z", SpecialReg::TidZ},
        {"%ntid.x", SpecialReg::NtidX}, {"%ntid.y", SpecialReg::NtidY}, {"%ntid.z", SpecialReg::NtidZ},
        {"%ctaid.x", SpecialReg::CtaidX}, {"%ctaid.y", SpecialReg::CtaidY}, {"%ctaid.z", SpecialReg::CtaidZ},
        {"%nctaid.x", SpecialReg::NctaidX}, {"%nctaid.y", SpecialReg::NctaidY}, {"%nctaid.z", SpecialReg::NctaidZ},
        {"%laneid", SpecialReg::LaneId}, {"%warpid", SpecialReg::WarpId}, {"%nwarpid", SpecialReg::NWarpId},
        {"%smid", SpecialReg::SmId}, {"%nsmid", SpecialReg::NSmId}, {"%gridid", SpecialReg::GridId},
        {"%lanemask_eq", SpecialReg::LanemaskEq}, {"%lanemask_lt", SpecialReg::LanemaskLt},
        {"%lanemask_le", SpecialReg::LanemaskLe}, {"%lanemask_gt", SpecialReg::LanemaskGt},
        {"%lanemask_ge", SpecialReg::LanemaskGe}, {"%dynamic_smem_size", SpecialReg::DynamicSmemSize},
        {"%total_smem_size", SpecialReg::TotalSmemSize}};
    for (auto& [n, r] : names)
        if (name == n) { out = r; return true; }
    return false;
}

class Decoder {
public:
    Decoder(const ptx::Module& mod, const ptx::Function& fn, const VariableAddresses& addr,
            std::vector<PtxError>* errors)
        : m_mod(mod), m_fn(fn), m_addr(addr), m_errors(errors) {}

    std::shared_ptr<KernelImage> run() {
        m_img = std::make_shared<KernelImage>();
        m_img->name = m_fn.name;
        m_img->module_file = m_mod.file;
        assign_registers();
        layout_params();
        layout_shared();
        layout_local();
        std::vector<Flow> flow;
        for (const auto& pi : m_fn.body) {
            m_img->code.push_back(decode(pi));
            m_img->text.push_back(pi.full_name());
            flow.push_back(flow_of(pi));
        }
        set_reconvergence(flow);
        m_img->num_regs = m_next_row;
        return m_img;
    }

private:
    const ptx::Module& m_mod;
    const ptx::Function& m_fn;
    const VariableAddresses& m_addr;
    std::vector<PtxError>* m_errors;
    std::shared_ptr<KernelImage> m_img;
    std::vector<int> m_reg_row;      // RegDecl index -> row or predicate index
    uint32_t m_next_row = 0;
    std::map<std::pair<uint64_t, int>, Row> m_pool_index;
    std::map<int, uint64_t> m_shared_offset;       // module var -> shared offset
    std::map<int, uint64_t> m_fn_var_offset;       // function var -> shared or local offset

    [[noreturn]] void fail(ptx::SourceLoc loc, const std::string& msg) const { throw PtxError(m_mod.file, loc, msg); }

    void assign_registers() {
        m_reg_row.resize(m_fn.regs.size());
        uint32_t preds = 0, words = 0;
        for (size_t k = 0; k < m_fn.regs.size(); ++k) {
            const auto& r = m_fn.regs[k];
            if (r.is_pred) m_reg_row[k] = int(preds++);
            else { m_reg_row[k] = int(m_next_row++); words += r.bits > 32 ? 2 : 1; }
        }
        m_img->num_preds = preds;
        m_img->regs_per_thread = words;
    }

    void layout_params() {
        uint64_t off = 0;
        for (const auto& p : m_fn.params) {
            off = align_up(off, std::max<uint32_t>(p.align, 1));
            m_img->param_offsets.push_back(uint32_t(off));
            m_img->param_sizes.push_back(uint32_t(p.size_bytes()));
            off += p.size_bytes();
        }
        m_img->param_bytes = uint32_t(off);
    }

    // Static shared memory: the module's shared variables this kernel names, then its own.
    void layout_shared() {
        std::vector<int> used;
        for (const auto& pi : m_fn.body)
            for (const auto& o : pi.ops) {
                const SymbolRef& s = o.sym;
                if (s.kind == SymbolRef::Kind::ModuleVar && m_mod.globals[s.index].space == Space::Shared &&
                    std::find(used.begin(), used.end(), s.index) == used.end())
                    used.push_back(s.index);
            }
        std::sort(used.begin(), used.end());
        uint64_t off = 0;
        uint32_t dyn_align = 16;
        for (int k : used) {
            const auto& v = m_mod.globals[k];
            if (v.is_extern && v.count == 0) { dyn_align = std::max(dyn_align, v.align); continue; }
            off = align_up(off, v.align);
            m_shared_offset[k] = off;
            off += v.size_bytes();
        }
        for (size_t k = 0; k < m_fn.vars.size(); ++k) {
            const auto& v = m_fn.vars[k];
            if (v.space != Space::Shared) continue;
            off = align_up(off, v.align);
            m_fn_var_offset[int(k)] = off;
            off += v.size_bytes();
        }
        m_img->static_shared_bytes = uint32_t(off);
        m_img->dynamic_shared_align = dyn_align;
        for (int k : used) {
            const auto& v = m_mod.globals[k];
            if (v.is_extern && v.count == 0) m_shared_offset[k] = align_up(off, dyn_align);
        }
    }

    void layout_local() {
        uint64_t off = 0;
        for (size_t k = 0; k < m_fn.vars.size(); ++k) {
            const auto& v = m_fn.vars[k];
            if (v.space == Space::Shared) continue;
            if (v.space != Space::Local) fail(v.loc, fmt::format("'.{}' variables inside a function are not supported yet", ptx::space_name(v.space)));
            off = align_up(off, v.align);
            m_fn_var_offset[int(k)] = off;
            off += v.size_bytes();
        }
        m_img->local_bytes = uint32_t(align_up(off, 8));
    }

    // The address a symbol stands for in its own state space.
    uint64_t symbol_address(const Operand& o, Space& space) const {
        switch (o.sym.kind) {
        case SymbolRef::Kind::ModuleVar: {
            const auto& v = m_mod.globals[o.sym.index];
            space = v.space;
            if (v.space == Space::Shared) return m_shared_offset.at(o.sym.index);
            return m_addr.at(o.sym.index);
        }
        case SymbolRef::Kind::Param:
            space = Space::Param;
            if (o.sym.index < 0) fail(o.loc, "return parameters are only valid inside functions");
            return m_img->param_offsets.at(o.sym.index);
        case SymbolRef::Kind::FuncVar:
            space = m_fn.vars[o.sym.index].space;
            return m_fn_var_offset.at(o.sym.index);
        case SymbolRef::Kind::Function:
            fail(o.loc, fmt::format("function '{}' used as a value", o.name));
        case SymbolRef::Kind::None: break;
        }
        fail(o.loc, fmt::format("unknown symbol '{}'", o.name));
    }

    Row pool_row(uint64_t value, int width_class = 0) {
        auto key = std::make_pair(value, width_class);
        auto it = m_pool_index.find(key);
        if (it != m_pool_index.end()) return it->second;
        size_t k = m_img->imm_pool.size() / kWarpSize;
        m_img->imm_pool.insert(m_img->imm_pool.end(), kWarpSize, value);
        Row r = -1 - Row(k);
        m_pool_index[key] = r;
        return r;
    }

    uint64_t immediate_value(const Operand& o, const std::string& type) const {
        bool is_float = !type.empty() && type[0] == 'f';
        if (!is_float) {
            if (o.imm_kind != Operand::ImmKind::Int)
                fail(o.loc, fmt::format("floating-point literal used with integer type .{}", type));
            return o.imm_bits;
        }
        double d = 0;
        switch (o.imm_kind) {
        case Operand::ImmKind::F32Bits: {
            if (type == "f32") return o.imm_bits;
            float f; uint32_t b = uint32_t(o.imm_bits); std::memcpy(&f, &b, 4); d = f; break;
        }
        case Operand::ImmKind::F64Bits:
            if (type == "f64") return o.imm_bits;
            std::memcpy(&d, &o.imm_bits, 8); break;
        case Operand::ImmKind::Double: d = o.imm_double; break;
        case Operand::ImmKind::Int: d = double(int64_t(o.imm_bits)); break;
        }
        if (type == "f32") { float f = float(d); uint32_t b; std::memcpy(&b, &f, 4); return b; }
        uint64_t b; std::memcpy(&b, &d, 8); return b;
    }

    Row special_row(const Operand& o) {
        SpecialReg sr;
        if (!special_of(o.name, sr)) fail(o.loc, fmt::format("special register '{}' is not supported here", o.name));
        for (auto& [r, row] : m_img->special_rows)
            if (r == sr) return row;
        Row row = Row(m_next_row++);
        m_img->special_rows.emplace_back(sr, row);
        return row;
    }

    Row source(const Operand& o, const std::string& type) {
        switch (o.kind) {
        case Operand::Kind::Reg:
            if (m_fn.regs[o.reg].is_pred) fail(o.loc, fmt::format("predicate '{}' used as a value", m_fn.regs[o.reg].name));
            return Row(m_reg_row[o.reg]);
        case Operand::Kind::Imm: return pool_row(immediate_value(o, type));
        case Operand::Kind::Sreg: return special_row(o);
        case Operand::Kind::Symbol: {
            Space sp;
            return pool_row(symbol_address(o, sp) + uint64_t(o.offset));
        }
        default: fail(o.loc, "expected a register, immediate or symbol operand");
        }
    }

    Row dest(const Operand& o) const {
        if (o.kind == Operand::Kind::Sink) return kNoRow;
        if (o.kind != Operand::Kind::Reg) fail(o.loc, "expected a destination register");
        if (m_fn.regs[o.reg].is_pred) fail(o.loc, fmt::format("predicate '{}' used as a value", m_fn.regs[o.reg].name));
        return Row(m_reg_row[o.reg]);
    }

    int16_t pred(const Operand& o, bool* negated = nullptr) const {
        if (o.kind != Operand::Kind::Reg || !m_fn.regs[o.reg].is_pred) fail(o.loc, "expected a predicate register");
        if (negated) *negated = o.negate;
        else if (o.negate) fail(o.loc, "'!' is not allowed here");
        return int16_t(m_reg_row[o.reg]);
    }

    void need(const ptx::Instruction& pi, size_t lo, size_t hi) const {
        if (pi.ops.size() < lo || pi.ops.size() > hi)
            fail(pi.loc, fmt::format("'{}' takes {} operands, found {}", pi.full_name(),
                                     lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi), pi.ops.size()));
    }

    void address(const Operand& o, Inst& in, MemSpace space, const ptx::Instruction& pi) {
        if (o.kind != Operand::Kind::Address) fail(o.loc, "expected an address in brackets");
        in.offset = o.offset;
        if (o.reg >= 0) {
            in.a = Row(m_reg_row[o.reg]);
            return;
        }
        if (o.sym.kind == SymbolRef::Kind::None) return;  // absolute address
        Space sp;
        uint64_t base = symbol_address(o, sp);
        MemSpace want = sp == Space::Shared ? MemSpace::Shared : sp == Space::Local ? MemSpace::Local
                        : sp == Space::Param ? MemSpace::Param : sp == Space::Const ? MemSpace::Const : MemSpace::Global;
        if (space == MemSpace::Generic && (want == MemSpace::Shared || want == MemSpace::Local || want == MemSpace::Param))
            fail(o.loc, fmt::format("'{}' is a .{} variable; a generic access needs cvta first", o.name, ptx::space_name(sp)));
        if (space != MemSpace::Generic && space != want && !(space == MemSpace::Global && want == MemSpace::Const))
            fail(pi.loc, fmt::format("'{}' accesses .{} variable '{}'", pi.full_name(), ptx::space_name(sp), o.name));
        in.offset += int64_t(base);
    }

    void vector_rows(const Operand& o, Inst& in, bool is_dest, const std::string& type) {
        if (o.kind != Operand::Kind::Vector) fail(o.loc, "expected a vector operand { ... }");
        if (o.elems.size() != in.vec_count) fail(o.loc, fmt::format("vector has {} elements, expected {}", o.elems.size(), in.vec_count));
        for (size_t e = 0; e < o.elems.size(); ++e) in.vec[e] = is_dest ? dest(o.elems[e]) : source(o.elems[e], type);
    }

    Inst decode(const ptx::Instruction& pi) {
        try {
            return decode_or_throw(pi);
        } catch (const PtxError& e) {
            if (!m_errors) throw;
            m_errors->push_back(e);
            Inst bad;
            bad.source_line = uint32_t(pi.loc.line);
            return bad;
        }
    }

    Inst decode_or_throw(const ptx::Instruction& pi) {
        OpSpec spec{pi.opcode, pi.mods};
        Inst in;
        in.source_line = uint32_t(pi.loc.line);
        in.text_index = uint32_t(m_img->text.size());
        if (pi.guard >= 0) { in.guard = int16_t(m_reg_row[pi.guard]); in.guard_negated = pi.guard_negated; }

        // Time-varying special registers are read by their own operation.
        if ((pi.opcode == "mov" || pi.opcode == "cvt") && pi.ops.size() == 2 && pi.ops[1].kind == Operand::Kind::Sreg) {
            int tr = time_register(pi.ops[1].name);
            if (tr >= 0) {
                in.fn = time_register_reader();
                in.aux = uint8_t(tr);
                in.d = dest(pi.ops[0]);
                return in;
            }
        }
        if (pi.opcode == "mov" && pi.ops.size() == 2 &&
            (pi.ops[0].kind == Operand::Kind::Vector || pi.ops[1].kind == Operand::Kind::Vector))
            return decode_vector_mov(pi, in);
        OpChoice c = select_op(spec);
        if (!c.fn) fail(pi.loc, c.error.empty() ? "unsupported instruction '" + pi.full_name() + "'" : c.error);
        in.fn = c.fn;
        in.aux = c.aux;
        in.round = c.round;
        in.offset = int64_t(c.code);  // a unit's own encoding (cvt, video); memory addresses replace it
        in.width = c.width;
        in.vec_count = c.vec_count;
        in.space = c.space;
        const std::string type = spec.type();
        const std::string src_type = pi.opcode == "cvt" ? spec.type(1) : type;
        const auto& ops = pi.ops;
        switch (c.layout) {
        case Layout::None: need(pi, 0, 0); break;
        case Layout::D_A:
            need(pi, 2, 2);
            in.d = dest(ops[0]);
            in.a = source(ops[1], src_type);
            // cvt sign-extends a narrow signed result to the width of its destination register.
            if (pi.opcode == "cvt" && ops[0].kind == Operand::Kind::Reg) in.width = uint8_t(m_fn.regs[ops[0].reg].bits / 8);
            break;
        case Layout::D_A_B:
            need(pi, 3, 3);
            in.d = dest(ops[0]);
            in.a = source(ops[1], type);
            in.b = source(ops[2], (pi.opcode == "shl" || pi.opcode == "shr") ? "u32" : type);
            break;
        case Layout::D_A_B_C: {
            need(pi, 4, 4);
            in.d = dest(ops[0]);
            in.a = source(ops[1], type);
            in.b = source(ops[2], type);
            bool wide = spec.has("wide");
            std::string ct = wide ? (type[0] == 's' ? "s64" : "u64") : pi.opcode == "bfe" ? "u32" : type;
            in.c = source(ops[3], ct);
            if (pi.opcode == "bfe") in.b = source(ops[2], "u32");
            break;
        }
        case Layout::D_A_B_C_E: {
            need(pi, 5, 5);
            std::string pos_type = pi.opcode == "bfi" ? "u32" : type;
            in.d = dest(ops[0]);
            in.a = source(ops[1], type);
            in.b = source(ops[2], type);
            in.c = source(ops[3], pos_type);
            in.vec[0] = source(ops[4], pos_type);
            break;
        }
        case Layout::D_A_B_PC:
            need(pi, 4, 4);
            in.d = dest(ops[0]); in.a = source(ops[1], type); in.b = source(ops[2], type);
            in.pc = pred(ops[3], &in.pc_negated);
            break;
        case Layout::PD_A_B:
            need(pi, c.aux ? 4 : 3, c.aux ? 4 : 3);
            if (ops[0].kind == Operand::Kind::Pair) {  // setp p|q: q receives the complement
                in.pd = pred(ops[0].elems[0]);
                in.pb = pred(ops[0].elems[1]);
            } else {
                in.pd = pred(ops[0]);
            }
            in.a = source(ops[1], type); in.b = source(ops[2], type);
            if (c.aux) in.pc = pred(ops[3], &in.pc_negated);
            break;
        case Layout::PD_A:
            need(pi, 2, 2);
            in.pd = pred(ops[0]);
            in.a = source(ops[1], type);
            break;
        case Layout::PD_PA_PB:
            need(pi, 3, 3);
            in.pd = pred(ops[0]); in.pa = pred(ops[1], &in.pa_negated); in.pb = pred(ops[2], &in.pb_negated);
            break;
        case Layout::PD_PA:
            need(pi, 2, 2);
            in.pd = pred(ops[0]);
            if (ops[1].kind == Operand::Kind::Imm) {  // mov.pred p, 0/1: read a constant predicate
                in.pa = int16_t(constant_pred(ops[1].imm_bits != 0));
            } else {
                in.pa = pred(ops[1], &in.pa_negated);
            }
            break;
        case Layout::Load:
            need(pi, 2, 2);
            if (in.vec_count) vector_rows(ops[0], in, true, type); else in.d = dest(ops[0]);
            address(ops[1], in, in.space, pi);
            break;
        case Layout::Store:
            need(pi, 2, 2);
            address(ops[0], in, in.space, pi);
            if (in.vec_count) vector_rows(ops[1], in, false, type); else in.b = source(ops[1], type);
            break;
        case Layout::Atomic: {
            bool red = pi.opcode == "red";
            size_t base = red ? 0 : 1;
            bool cas = spec.has("cas");
            need(pi, base + (cas ? 3 : 2), base + (cas ? 3 : 2));
            if (!red) in.d = dest(ops[0]);
            address(ops[base], in, in.space, pi);
            in.b = source(ops[base + 1], type);
            if (cas) in.c = source(ops[base + 2], type);
            break;
        }
        case Layout::Branch: {
            need(pi, 1, 1);
            if (ops[0].kind != Operand::Kind::Label || ops[0].target < 0) fail(ops[0].loc, "expected a branch label");
            in.target = uint32_t(ops[0].target);
            break;
        }
        case Layout::Barrier:
            need(pi, spec.has("arrive") ? 2 : 1, 2);
            in.a = source(ops[0], "u32");
            if (ops.size() == 2) in.b = source(ops[1], "u32");
            break;
        case Layout::BarrierRed:
            need(pi, 3, 4);
            if (type == "pred") in.pd = pred(ops[0]); else in.d = dest(ops[0]);
            in.a = source(ops[1], "u32");
            if (ops.size() == 4) in.b = source(ops[2], "u32");
            in.pc = pred(ops.back(), &in.pc_negated);
            break;
        case Layout::D: need(pi, 1, 1); in.d = dest(ops[0]); break;
        case Layout::Vote:
            need(pi, 2, 3);
            if (type == "pred") in.pd = pred(ops[0]); else in.d = dest(ops[0]);
            in.pa = pred(ops[1], &in.pa_negated);
            if (ops.size() == 3) in.b = source(ops[2], "b32");
            break;
        case Layout::Shfl:
            need(pi, 4, 5);
            value_and_pred(ops[0], in);
            in.a = source(ops[1], "b32");
            in.b = source(ops[2], "b32");
            in.c = source(ops[3], "b32");
            if (ops.size() == 5) in.vec[0] = source(ops[4], "b32");  // member mask: see warp_ops.cpp
            break;
        case Layout::Match:
            need(pi, 3, 3);
            value_and_pred(ops[0], in);
            in.a = source(ops[1], type);
            in.b = source(ops[2], "b32");
            break;
        case Layout::Video: video_operands(pi, c.code, in); break;
        }
        return in;
    }

    // d{.sel}, {-}a{.sel}, {-}b{.sel} [, {-}c]: the selectors and negations complete the video
    // unit's encoding, which travels in Inst::offset.
    void video_operands(const ptx::Instruction& pi, uint64_t code, Inst& in) {
        const auto& ops = pi.ops;
        need(pi, 3, 4);
        for (size_t k = 0; k < ops.size(); ++k) {
            std::string error = video::add_operand(code, int(k), ops[k].selector, ops[k].minus);
            if (!error.empty()) fail(ops[k].loc, error);
        }
        const int count = video::operand_count(code);
        need(pi, size_t(count), size_t(count));
        if (ops[0].kind != Operand::Kind::Reg) fail(ops[0].loc, "expected a destination register");
        in.d = dest(ops[0]);
        in.a = source(ops[1], "u32");
        in.b = source(ops[2], "u32");
        if (count == 4) in.c = source(ops[3], "u32");
        in.offset = int64_t(code);
    }

    // mov.b64 d, {lo, hi} packs elements into one register; mov.b64 {lo, hi}, a unpacks (also
    // .b32 from two halves and .b64 from four); the first element is the least significant.
    Inst decode_vector_mov(const ptx::Instruction& pi, Inst& in) {
        std::string type = OpSpec{pi.opcode, pi.mods}.type();
        unsigned bits = type == "b64" || type == "u64" || type == "s64" ? 64 : type == "b32" || type == "u32" || type == "s32" ? 32 : 0;
        bool pack = pi.ops[1].kind == Operand::Kind::Vector;
        const Operand& v = pack ? pi.ops[1] : pi.ops[0];
        size_t n = v.elems.size();
        if (!bits || (n != 2 && n != 4) || bits / n < 16) fail(pi.loc, fmt::format("'{}' cannot split into {} elements", pi.full_name(), n));
        in.vec_count = uint8_t(n);
        in.width = uint8_t(bits / n);
        std::string elem_type = "b" + std::to_string(in.width);
        for (size_t e = 0; e < n; ++e) in.vec[e] = pack ? source(v.elems[e], elem_type) : dest(v.elems[e]);
        if (pack) in.d = dest(pi.ops[0]); else in.a = source(pi.ops[1], type);
        in.fn = vector_mov_fn(pack);
        return in;
    }

    // "d" or "d|p": a value destination and an optional predicate destination.
    void value_and_pred(const Operand& o, Inst& in) {
        if (o.kind != Operand::Kind::Pair) { in.d = dest(o); return; }
        in.d = dest(o.elems[0]);
        in.pd = pred(o.elems[1]);
    }

    // A predicate register that always holds `value` (allocated once per kernel).
    int constant_pred(bool value) {
        int& slot = value ? m_true_pred : m_false_pred;
        if (slot < 0) {
            slot = int(m_img->num_preds++);
            m_img->constant_preds.emplace_back(slot, value);
        }
        return slot;
    }
    int m_true_pred = -1, m_false_pred = -1;

    static Flow flow_of(const ptx::Instruction& pi) {
        Flow f;
        bool guarded = pi.guard >= 0;
        if (pi.opcode == "bra" && !pi.ops.empty() && pi.ops[0].target >= 0) {
            f.kind = Flow::Kind::Branch;
            f.conditional = guarded;
            f.target = uint32_t(pi.ops[0].target);
        } else if (pi.opcode == "ret" || pi.opcode == "exit") {
            f.kind = Flow::Kind::Exit;
            f.conditional = guarded;
        }
        return f;
    }

    void set_reconvergence(const std::vector<Flow>& flow) {
        ControlFlowGraph cfg(flow);
        for (uint32_t i = 0; i < flow.size(); ++i)
            if (flow[i].kind == Flow::Kind::Branch)
                m_img->code[i].reconv = cfg.reconvergence_pc(cfg.block_of(i), simt::kExitPc);
    }
};

} // namespace

std::shared_ptr<KernelImage> decode_kernel(const ptx::Module& mod, const ptx::Function& fn,
                                           const VariableAddresses& addresses, std::vector<PtxError>* errors) {
    if (!fn.is_entry) throw PtxError(mod.file, fn.loc, fmt::format("'{}' is not a kernel entry", fn.name));
    return Decoder(mod, fn, addresses, errors).run();
}

std::vector<PtxError> check_module(const ptx::Module& mod) {
    std::vector<PtxError> errors;
    VariableAddresses fake(mod.globals.size(), 0);
    for (const auto& fn : mod.functions) {
        if (!fn.has_body) continue;
        if (!fn.is_entry) {
            errors.emplace_back(mod.file, fn.loc, fmt::format("device function '{}': calls are not supported yet", fn.name));
            continue;
        }
        try {
            decode_kernel(mod, fn, fake, &errors);
        } catch (const PtxError& e) {
            errors.push_back(e);
        }
    }
    return errors;
}

} // namespace gpusim::loader
