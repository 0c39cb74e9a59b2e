// Decoding of one function into a kernel image: registers, the frame layout, symbols and
// operands, and the ordinary instructions (calls, jump tables, set and pmevent are in
// decode_control.cpp).
#include <algorithm>
#include <cstring>
#include <map>

#include "protocol/memory_map.h"
#include "loader/function_decoder.h"
#include "sm/call_ops.h"
#include "alu/alu_ops.h"
#include "sm/operations.h"
#include "video/video_code.h"

namespace gpusim {
int time_register(const std::string& name);
ExecFn time_register_reader();
}

namespace gpusim::loader {
namespace {

// ld, st, atom and red with .L2::cache_hint name a cache policy last.
size_t policy_operands(const OpSpec& spec) { return spec.has("L2::cache_hint") ? 1 : 0; }

using ptx::Operand;
using ptx::PtxError;
using ptx::Space;
using ptx::SymbolRef;

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
    if (name.rfind("%envreg", 0) == 0) {   // the vocabulary checked the number: 0..31
        out = SpecialReg(uint8_t(SpecialReg::EnvReg0) + std::stoi(name.substr(7)));
        return true;
    }
    return false;
}

} // namespace

void Decoder::run() {
    FunctionImage& fi = m_img->functions[m_index];
    fi.name = m_fn.name;
    fi.module_index = m_b.linked[m_index];
    m_base = uint32_t(m_img->code.size());
    fi.entry_pc = m_base;
    assign_registers(fi);
    if (m_is_kernel) layout_params();
    layout_frame(fi);
    std::vector<Flow> flow;
    for (const auto& pi : m_fn.body) {
        m_img->code.push_back(decode(pi));
        m_img->text.push_back(pi.contracted_from.empty() ? pi.full_name() : pi.full_name() + " (" + pi.contracted_from + ")");
        flow.push_back(flow_of(pi));
    }
    // A body that runs off its end returns (exits, in the kernel).
    Inst end;
    end.fn = ret_fn();
    end.source_line = uint32_t(m_fn.body.empty() ? m_fn.loc.line : m_fn.body.back().loc.line);
    end.text_index = uint32_t(m_img->text.size());
    m_img->code.push_back(end);
    m_img->text.push_back("ret (end of function body)");
    Flow f;
    f.kind = Flow::Kind::Exit;
    flow.push_back(f);
    set_reconvergence(flow);
    if (m_is_kernel) m_b.kernel_flow = std::move(flow);
}

// The function's registers are a contiguous block of rows (and predicates), so a recursive
// call can save them in one piece; a called function's frame base sits in the last row.
void Decoder::assign_registers(FunctionImage& fi) {
    m_reg_row.resize(m_fn.regs.size());
    uint32_t words = 0;
    fi.first_row = Row(m_b.next_row);
    fi.first_pred = m_img->num_preds;
    for (size_t k = 0; k < m_fn.regs.size(); ++k) {
        const auto& r = m_fn.regs[k];
        if (r.is_pred) m_reg_row[k] = int(m_img->num_preds++);
        else {
            m_reg_row[k] = int(m_b.next_row++);
            m_b.row_words.resize(m_b.next_row, 1);
            m_b.row_words.back() = r.bits > 32 ? 2 : 1;
            words += m_b.row_words.back();
        }
    }
    if (!m_is_kernel) m_fp_row = Row(m_b.next_row++);
    fi.fp_row = m_fp_row;
    fi.end_row = Row(m_b.next_row);
    fi.end_pred = m_img->num_preds;
    // For the occupancy estimate: the kernel's registers and the largest function's.
    if (m_is_kernel) m_b.kernel_words = words;
    else m_b.function_words = std::max(m_b.function_words, words);
}

void Decoder::layout_params() {
    uint64_t off = 0;
    for (const auto& p : m_fn.params) {
        off = align_up(off, std::max<uint32_t>(p.align, 1));
        m_img->param_offsets.push_back(uint32_t(off));
        m_img->param_sizes.push_back(uint32_t(p.size_bytes()));
        off += p.size_bytes();
    }
    m_img->param_bytes = uint32_t(off);
}

// One activation's frame in per-thread local memory: the .param parameters and return
// values of a called function, its .local variables, then the .param variables of its call
// sites. Each call sequence is its own { } block and lives only until its call returns, so
// the blocks share one area.
void Decoder::layout_frame(FunctionImage& fi) {
    uint64_t off = 0;
    auto place = [&](const ptx::Variable& v) { off = align_up(off, std::max<uint32_t>(v.align, 1)); uint64_t at = off; off += v.size_bytes(); return at; };
    auto formal = [&](const std::vector<ptx::Variable>& list, std::vector<uint64_t>& offsets, std::vector<FrameSlot>& slots) {
        for (const auto& p : list) {
            if (p.space == Space::Reg) {
                if (m_fn.regs[p.reg].is_pred) fail(p.loc, fmt::format("predicate parameter '{}' is not supported", p.name));
                offsets.push_back(0);
                slots.push_back({Row(m_reg_row[p.reg]), 0, m_fn.regs[p.reg].bits / 8});
            } else {
                offsets.push_back(place(p));
                slots.push_back({kNoRow, uint32_t(offsets.back()), uint32_t(p.size_bytes())});
            }
        }
    };
    if (!m_is_kernel) {
        formal(m_fn.params, m_param_offset, fi.params);
        formal(m_fn.return_params, m_ret_offset, fi.rets);
    }
    std::map<uint32_t, std::vector<int>> call_blocks;
    for (size_t k = 0; k < m_fn.vars.size(); ++k) {
        const auto& v = m_fn.vars[k];
        if (v.space == Space::Shared) {
            m_var_offset[int(k)] = m_b.fn_shared_offset.at({m_b.linked[m_index], int(k)});
            continue;
        }
        if (v.space == Space::Param) { call_blocks[v.scope].push_back(int(k)); continue; }
        if (v.space != Space::Local) fail(v.loc, fmt::format("'.{}' variables inside a function are not supported yet", ptx::space_name(v.space)));
        m_var_offset[int(k)] = place(v);
    }
    // A callee's frame starts at the call area (calls copy arguments and results through a
    // staging buffer), so the area does not cost stack space twice.
    const uint64_t area = align_up(off, 16);
    uint64_t end = area;
    for (auto& [scope, vars] : call_blocks) {
        off = area;
        for (int k : vars) m_var_offset[k] = place(m_fn.vars[size_t(k)]);
        end = std::max(end, off);
    }
    if (end > UINT32_MAX / 2) fail(m_fn.loc, fmt::format("the frame of '{}' needs {} bytes per thread", m_fn.name, end));
    fi.frame_bytes = uint32_t(align_up(end, 16));
    fi.call_area = uint32_t(area);
}

// Where a symbol lives. The kernel's frame is at offset 0 of local memory, so its variables
// have fixed addresses; a called function's are relative to its activation's frame.
SymbolPlace Decoder::place(const Operand& o) const {
    SymbolPlace p;
    switch (o.sym.kind) {
    case SymbolRef::Kind::ModuleVar: {
        const auto& v = m_mod.globals[o.sym.index];
        p.space = v.space;
        p.address = v.space == Space::Shared ? m_b.shared_offset.at(o.sym.index) : m_b.addr.at(o.sym.index);
        return p;
    }
    case SymbolRef::Kind::Param:
        if (m_is_kernel) {
            if (o.sym.index < 0) fail(o.loc, "return parameters are only valid inside functions");
            p.space = Space::Param;
            p.address = m_img->param_offsets.at(o.sym.index);
            return p;
        }
        p.space = Space::Local;
        p.in_frame = true;
        p.address = o.sym.index < 0 ? m_ret_offset.at(size_t(-1 - o.sym.index)) : m_param_offset.at(size_t(o.sym.index));
        return p;
    case SymbolRef::Kind::FuncVar: {
        Space sp = m_fn.vars[o.sym.index].space;
        p.space = sp == Space::Shared ? Space::Shared : Space::Local;
        p.in_frame = !m_is_kernel && sp != Space::Shared;
        p.address = m_var_offset.at(o.sym.index);
        return p;
    }
    case SymbolRef::Kind::Function:
        p.space = Space::Global;
        p.address = memory_map::function_address(function_definition(m_mod, o.name));
        return p;
    case SymbolRef::Kind::None: break;
    }
    fail(o.loc, fmt::format("unknown symbol '{}'", o.name));
}

uint64_t Decoder::immediate_value(const Operand& o, const std::string& type) const {
    bool is_float = !type.empty() && type[0] == 'f';
    if (!is_float) {
        if (o.imm_kind != Operand::ImmKind::Int)
            fail(o.loc, fmt::format("floating-point literal used with integer type .{}", type));
        return o.imm_bits;
    }
    // Half-precision operands take their bit pattern as an integer (0x3C00 is 1.0).
    if (type == "f16" || type == "f16x2") {
        if (o.imm_kind != Operand::ImmKind::Int)
            fail(o.loc, fmt::format("a .{} operand takes its bits as an integer constant, e.g. 0x3C00 for 1.0", type));
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

// Why the model cannot answer a special register PTX defines.
static std::string unanswerable(const std::string& name) {
    if (name.find("cluster") != std::string::npos || name == "%aggr_smem_size" || name.rfind("%reserved_smem", 0) == 0)
        return "it belongs to thread-block clusters of compute capability 9.0, which the modelled GPUs do not have";
    if (name == "%current_graph_exec") return "device-side graph launches are not modelled";
    return "it cannot be read here";
}

Row Decoder::special_row(const Operand& o) {
    SpecialReg sr;
    if (!special_of(o.name, sr))
        fail(o.loc, fmt::format("special register '{}' is not supported: {}", o.name, unanswerable(o.name)));
    return m_b.special_row(sr);
}

Row Decoder::source(const Operand& o, const std::string& type) {
    switch (o.kind) {
    case Operand::Kind::Reg:
        if (m_fn.regs[o.reg].is_pred) fail(o.loc, fmt::format("predicate '{}' used as a value", m_fn.regs[o.reg].name));
        return Row(m_reg_row[o.reg]);
    case Operand::Kind::Imm: return pool_row(immediate_value(o, type));
    case Operand::Kind::Sreg: return special_row(o);
    case Operand::Kind::Symbol: {
        SymbolPlace p = place(o);
        if (p.in_frame) fail(o.loc, fmt::format("the address of '{}' (in the frame of a called function) can only be taken with mov", o.name));
        return pool_row(p.address + uint64_t(o.offset));
    }
    default: fail(o.loc, "expected a register, immediate or symbol operand");
    }
}

Row Decoder::dest(const Operand& o) const {
    if (o.kind == Operand::Kind::Sink) return kNoRow;
    if (o.kind != Operand::Kind::Reg) fail(o.loc, "expected a destination register");
    if (m_fn.regs[o.reg].is_pred) fail(o.loc, fmt::format("predicate '{}' used as a value", m_fn.regs[o.reg].name));
    return Row(m_reg_row[o.reg]);
}

int16_t Decoder::pred(const Operand& o, bool* negated) const {
    if (o.kind != Operand::Kind::Reg || !m_fn.regs[o.reg].is_pred) fail(o.loc, "expected a predicate register");
    if (negated) *negated = o.negate;
    else if (o.negate) fail(o.loc, "'!' is not allowed here");
    return int16_t(m_reg_row[o.reg]);
}

void Decoder::need(const ptx::Instruction& pi, size_t lo, size_t hi) const {
    if (pi.ops.size() < lo || pi.ops.size() > hi)
        fail(pi.loc, fmt::format("'{}' takes {} operands, found {}", pi.full_name(),
                                 lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi), pi.ops.size()));
}

void Decoder::address(const Operand& o, Inst& in, MemSpace space, const ptx::Instruction& pi) {
    if (o.kind != Operand::Kind::Address) fail(o.loc, "expected an address in brackets");
    if (!o.elems.empty()) fail(o.elems[0].loc, "only texture and surface instructions take operands after the address");
    in.offset = o.offset;
    if (space == MemSpace::Shared || space == MemSpace::Local || space == MemSpace::Param) in.dest_flags |= kAddr32;
    if (o.reg >= 0) {
        in.a = Row(m_reg_row[o.reg]);
        if (m_fn.regs[o.reg].bits == 32) in.dest_flags |= kAddr32;
        return;
    }
    if (o.sym.kind == SymbolRef::Kind::None) return;  // absolute address
    SymbolPlace p = place(o);
    const Space sp = p.space;
    if (p.in_frame) in.a = m_fp_row;
    uint64_t base = p.address;
    MemSpace want = sp == Space::Shared ? MemSpace::Shared : sp == Space::Local ? MemSpace::Local
                    : sp == Space::Param ? MemSpace::Param : sp == Space::Const ? MemSpace::Const : MemSpace::Global;
    if (space == MemSpace::Generic && (want == MemSpace::Shared || want == MemSpace::Local || want == MemSpace::Param))
        fail(o.loc, fmt::format("'{}' is a .{} variable; a generic access needs cvta first", o.name, ptx::space_name(sp)));
    if (space != MemSpace::Generic && space != want && !(space == MemSpace::Global && want == MemSpace::Const))
        fail(pi.loc, fmt::format("'{}' accesses .{} variable '{}'", pi.full_name(), ptx::space_name(sp), o.name));
    in.offset += int64_t(base);
}

void Decoder::vector_rows(const Operand& o, Inst& in, bool is_dest, const std::string& type) {
    if (o.kind != Operand::Kind::Vector) fail(o.loc, "expected a vector operand { ... }");
    if (o.elems.size() != in.vec_count) fail(o.loc, fmt::format("vector has {} elements, expected {}", o.elems.size(), in.vec_count));
    for (size_t e = 0; e < o.elems.size(); ++e) in.vec[e] = is_dest ? dest(o.elems[e]) : source(o.elems[e], type);
}

Inst Decoder::decode(const ptx::Instruction& pi) {
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

Inst Decoder::decode_or_throw(const ptx::Instruction& pi) {
    OpSpec spec{pi.opcode, pi.mods};
    Inst in;
    in.source_line = uint32_t(pi.loc.line);
    in.text_index = uint32_t(m_img->text.size());
    in.op_class = classify_op(spec);
    if (pi.guard >= 0) { in.guard = int16_t(m_reg_row[pi.guard]); in.guard_negated = pi.guard_negated; }

    // Time-varying special registers are read by their own operation.
    if ((pi.opcode == "mov" || pi.opcode == "cvt") && pi.ops.size() == 2 && pi.ops[1].kind == Operand::Kind::Sreg) {
        int tr = time_register(pi.ops[1].name);
        if (tr >= 0) {
            in.fn = time_register_reader();
            in.op_class = OpClass::Misc;
            in.aux = uint8_t(tr);
            in.d = dest(pi.ops[0]);
            return in;
        }
    }
    if (pi.opcode == "mov" && pi.ops.size() == 2 &&
        (pi.ops[0].kind == Operand::Kind::Vector || pi.ops[1].kind == Operand::Kind::Vector))
        return decode_vector_mov(pi, in);
    if (pi.opcode == "call") return decode_call(pi, in);
    if (pi.opcode == "brx") return decode_brx(pi, in);
    if (is_texture_opcode(pi.opcode)) return decode_texture(pi, in);
    if (pi.opcode == "pmevent") return decode_pmevent(pi, in);
    if (pi.opcode == "set") return decode_set(pi, in);
    if (pi.opcode == "mov" && pi.ops.size() == 2 && pi.ops[1].kind == Operand::Kind::Symbol && place(pi.ops[1]).in_frame)
        return decode_frame_address(pi, in);
    // .param inside a called function, and a kernel's call arguments, live in the frame.
    if ((pi.opcode == "ld" || pi.opcode == "st") && pi.ops.size() == 2 && spec.has("param") &&
        in_frame_param(pi.ops[pi.opcode == "ld" ? 1 : 0]))
        std::replace(spec.mods.begin(), spec.mods.end(), std::string("param"), std::string("local"));
    OpChoice c = sm_operations().select(spec);
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
        // Only contraction marks operands negated here (the parser takes '-' on vmad's alone).
        if (ops[1].minus) in.aux |= kNegateProduct;
        if (ops[3].minus) in.aux |= kNegateAddend;
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
            in.dest_flags |= kDestPb;
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
        need(pi, 2 + policy_operands(spec), 2 + policy_operands(spec));
        without_policy(pi, spec);
        if (in.vec_count) { vector_rows(ops[0], in, true, type); in.dest_flags |= kDestVec; } else in.d = dest(ops[0]);
        address(ops[1], in, in.space, pi);
        break;
    case Layout::Store:
        need(pi, 2 + policy_operands(spec), 2 + policy_operands(spec));
        without_policy(pi, spec);
        in.dest_flags |= kMemStore;
        address(ops[0], in, in.space, pi);
        if (in.vec_count) vector_rows(ops[1], in, false, type); else in.b = source(ops[1], type);
        break;
    case Layout::Atomic: {
        bool red = pi.opcode == "red";
        size_t base = red ? 0 : 1;
        bool cas = spec.has("cas");
        const size_t n = base + (cas ? 3 : 2);
        need(pi, n + policy_operands(spec), n + policy_operands(spec));
        without_policy(pi, spec);
        in.dest_flags |= kMemAtomic;
        if (!red) in.d = dest(ops[0]);
        address(ops[base], in, in.space, pi);
        in.b = source(ops[base + 1], type);
        if (cas) in.c = source(ops[base + 2], type);
        break;
    }
    case Layout::AtomicVector: atom_vector_operands(pi, in); break;
    case Layout::Branch: {
        need(pi, 1, 1);
        if (ops[0].kind != Operand::Kind::Label || ops[0].target < 0) fail(ops[0].loc, "expected a branch label");
        in.target = m_base + uint32_t(ops[0].target);
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
    case Layout::AsyncCopy:
    case Layout::Mbarrier:
    case Layout::Elect:
    case Layout::BulkCopy: async_operands(pi, spec, in); break;
    case Layout::Matrix: matrix_operands(pi, c.code, in); break;
    case Layout::Hint: hint_operands(pi, spec, in); break;
    }
    return in;
}

// d{.sel}, {-}a{.sel}, {-}b{.sel} [, {-}c]: the selectors and negations complete the video
// unit's encoding, which travels in Inst::offset.
void Decoder::video_operands(const ptx::Instruction& pi, uint64_t code, Inst& in) {
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
Inst Decoder::decode_vector_mov(const ptx::Instruction& pi, Inst& in) {
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
    if (!pack) in.dest_flags |= kDestVec;
    in.fn = vector_mov_fn(pack);
    return in;
}

// ld, st, atom and red with .L2::cache_hint take a 64-bit cache policy last (createpolicy's): a
// hint, read and not kept. Returns the count of the other operands.
size_t Decoder::without_policy(const ptx::Instruction& pi, const OpSpec& spec) {
    if (!spec.has("L2::cache_hint") || pi.ops.empty()) return pi.ops.size();
    const Operand& policy = pi.ops.back();
    if (policy.kind != Operand::Kind::Reg && policy.kind != Operand::Kind::Imm)
        fail(policy.loc, fmt::format("'{}' takes a cache policy (a 64-bit register) last", pi.full_name()));
    source(policy, "b64");
    return pi.ops.size() - 1;
}

// "d" or "d|p": a value destination and an optional predicate destination.
void Decoder::value_and_pred(const Operand& o, Inst& in) {
    if (o.kind != Operand::Kind::Pair) { in.d = dest(o); return; }
    in.d = dest(o.elems[0]);
    in.pd = pred(o.elems[1]);
}

void decode_function(ImageBuilder& b, uint32_t index) { Decoder(b, index).run(); }

} // namespace gpusim::loader
