#include <algorithm>
#include <cstring>
#include <map>

#include "../../tlm/memory_map.h"
#include "loader/image_builder.h"
#include "sm/call_ops.h"
#include "sm/op_select.h"
#include "sm/simt_stack.h"
#include "video/video_code.h"

namespace gpusim {
int time_register(const std::string& name);
ExecFn time_register_reader();
ExecFn pmevent_fn();
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

} // namespace

Row ImageBuilder::pool_row(uint64_t value, int width_class) {
    auto key = std::make_pair(value, width_class);
    auto it = m_pool_index.find(key);
    if (it != m_pool_index.end()) return it->second;
    size_t k = img->imm_pool.size() / kWarpSize;
    img->imm_pool.insert(img->imm_pool.end(), kWarpSize, value);
    Row r = -1 - Row(k);
    m_pool_index[key] = r;
    return r;
}

Row ImageBuilder::special_row(SpecialReg sr) {
    for (auto& [r, row] : img->special_rows)
        if (r == sr) return row;
    Row row = Row(next_row++);
    img->special_rows.emplace_back(sr, row);
    return row;
}

// A predicate register that always holds `value` (allocated once per image).
int ImageBuilder::constant_pred(bool value) {
    int& slot = value ? m_true_pred : m_false_pred;
    if (slot < 0) {
        slot = int(img->num_preds++);
        img->constant_preds.emplace_back(slot, value);
    }
    return slot;
}

uint32_t function_definition(const ptx::Module& mod, const std::string& name) {
    int first = -1;
    for (size_t k = 0; k < mod.functions.size(); ++k) {
        if (mod.functions[k].name != name) continue;
        if (mod.functions[k].has_body) return uint32_t(k);
        if (first < 0) first = int(k);
    }
    return uint32_t(first);
}

namespace {

// Where a symbol lives: its address in its own state space; `in_frame` when that address is an
// offset in the frame of a called function's activation (it needs the frame base at run time).
struct SymbolPlace {
    uint64_t address = 0;
    Space space = Space::None;
    bool in_frame = false;
};

class Decoder {
public:
    Decoder(ImageBuilder& b, uint32_t index)
        : m_b(b), m_mod(b.mod), m_fn(b.mod.functions[b.linked[index]]), m_index(index), m_is_kernel(index == 0 && m_fn.is_entry),
          m_errors(b.errors), m_img(b.img) {}

    void run() {
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
            m_img->text.push_back(pi.full_name());
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
    }

private:
    ImageBuilder& m_b;
    const ptx::Module& m_mod;
    const ptx::Function& m_fn;
    const uint32_t m_index;          // in the image's function list
    const bool m_is_kernel;
    std::vector<PtxError>* m_errors;
    std::shared_ptr<KernelImage> m_img;
    uint32_t m_base = 0;             // pc of the function's first instruction
    Row m_fp_row = kNoRow;
    std::vector<int> m_reg_row;      // RegDecl index -> row or predicate index
    std::map<int, uint64_t> m_var_offset;        // function var -> frame (or shared) offset
    std::vector<uint64_t> m_param_offset, m_ret_offset;  // .param parameters in the frame

    [[noreturn]] void fail(ptx::SourceLoc loc, const std::string& msg) const { throw PtxError(m_mod.file, loc, msg); }

    // The function's registers are a contiguous block of rows (and predicates), so a recursive
    // call can save them in one piece; a called function's frame base sits in the last row.
    void assign_registers(FunctionImage& fi) {
        m_reg_row.resize(m_fn.regs.size());
        uint32_t words = 0;
        fi.first_row = Row(m_b.next_row);
        fi.first_pred = m_img->num_preds;
        for (size_t k = 0; k < m_fn.regs.size(); ++k) {
            const auto& r = m_fn.regs[k];
            if (r.is_pred) m_reg_row[k] = int(m_img->num_preds++);
            else { m_reg_row[k] = int(m_b.next_row++); words += r.bits > 32 ? 2 : 1; }
        }
        if (!m_is_kernel) m_fp_row = Row(m_b.next_row++);
        fi.fp_row = m_fp_row;
        fi.end_row = Row(m_b.next_row);
        fi.end_pred = m_img->num_preds;
        // For the occupancy estimate: the kernel's registers and the largest function's.
        if (m_is_kernel) m_b.kernel_words = words;
        else m_b.function_words = std::max(m_b.function_words, words);
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

    // One activation's frame in per-thread local memory: the .param parameters and return
    // values of a called function, its .local variables, then the .param variables of its call
    // sites. Each call sequence is its own { } block and lives only until its call returns, so
    // the blocks share one area.
    void layout_frame(FunctionImage& fi) {
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
    SymbolPlace place(const Operand& o) const {
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

    Row pool_row(uint64_t value, int width_class = 0) { return m_b.pool_row(value, width_class); }

    uint64_t immediate_value(const Operand& o, const std::string& type) const {
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

    Row special_row(const Operand& o) {
        SpecialReg sr;
        if (!special_of(o.name, sr)) fail(o.loc, fmt::format("special register '{}' is not supported here", o.name));
        return m_b.special_row(sr);
    }

    Row source(const Operand& o, const std::string& type) {
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
        if (pi.opcode == "call") return decode_call(pi, in);
        if (pi.opcode == "brx") return decode_brx(pi, in);
        if (pi.opcode == "pmevent") return decode_pmevent(pi, in);
        if (pi.opcode == "set") return decode_set(pi, in);
        if (pi.opcode == "mov" && pi.ops.size() == 2 && pi.ops[1].kind == Operand::Kind::Symbol && place(pi.ops[1]).in_frame)
            return decode_frame_address(pi, in);
        // .param inside a called function, and a kernel's call arguments, live in the frame.
        if ((pi.opcode == "ld" || pi.opcode == "st") && pi.ops.size() == 2 && spec.has("param") &&
            in_frame_param(pi.ops[pi.opcode == "ld" ? 1 : 0]))
            std::replace(spec.mods.begin(), spec.mods.end(), std::string("param"), std::string("local"));
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
        }
        return in;
    }

    bool in_frame_param(const Operand& a) const {
        if (a.kind != Operand::Kind::Address) return false;
        switch (a.sym.kind) {
        case SymbolRef::Kind::None: return !m_is_kernel;  // a register or absolute address
        case SymbolRef::Kind::Param: return !m_is_kernel;
        case SymbolRef::Kind::FuncVar: return m_fn.vars[a.sym.index].space != Space::Shared;
        default: return false;
        }
    }

    // mov d, var: the address of a frame variable is the activation's frame base plus its offset.
    Inst decode_frame_address(const ptx::Instruction& pi, Inst& in) {
        OpChoice add = select_op(OpSpec{"add", {"u64"}});
        in.fn = add.fn;
        in.d = dest(pi.ops[0]);
        in.a = m_fp_row;
        in.b = pool_row(place(pi.ops[1]).address + uint64_t(pi.ops[1].offset));
        return in;
    }

    // call{.uni} [(results),] target [, (arguments)] [, prototype | calltargets]
    Inst decode_call(const ptx::Instruction& pi, Inst& in) {
        const auto& ops = pi.ops;
        size_t k = 0;
        const Operand* rets = nullptr;
        const Operand* args = nullptr;
        const Operand* table = nullptr;
        if (k < ops.size() && ops[k].kind == Operand::Kind::Vector) rets = &ops[k++];
        if (k >= ops.size()) fail(pi.loc, "call needs a target");
        const Operand& target = ops[k++];
        if (k < ops.size() && ops[k].kind == Operand::Kind::Vector) args = &ops[k++];
        if (k < ops.size() && ops[k].kind == Operand::Kind::Table) table = &ops[k++];
        if (k != ops.size()) fail(ops[k].loc, "unexpected operand in call");
        CallSite cs;
        cs.caller = m_index;
        in.fn = call_fn();
        in.offset = int64_t(m_img->calls.size());
        // What the arguments and results must look like: the callee's parameters, or the prototype.
        const std::vector<ptx::Variable>* want_params = nullptr;
        const std::vector<ptx::Variable>* want_rets = nullptr;
        std::string callee_name;
        if (target.kind == Operand::Kind::Symbol && target.sym.kind == SymbolRef::Kind::Function) {
            uint32_t mi = function_definition(m_mod, target.name);
            const ptx::Function& callee = m_mod.functions[mi];
            if (!callee.has_body) fail(target.loc, fmt::format("call to '{}', which has no body in this module", target.name));
            if (callee.is_entry) fail(target.loc, fmt::format("'{}' is a kernel entry and cannot be called", target.name));
            cs.callee = m_img->function_of_module.at(mi);
            want_params = &callee.params;
            want_rets = &callee.return_params;
            callee_name = "'" + callee.name + "'";
        } else if (target.kind == Operand::Kind::Reg) {
            in.a = source(target, "u64");
            if (!table) fail(target.loc, "an indirect call needs a .callprototype or .calltargets operand");
            const ptx::Table& t = m_fn.tables[size_t(table->target)];
            if (t.kind == ptx::Table::Kind::CallPrototype) {
                want_params = &t.params;
                want_rets = &t.rets;
                callee_name = "prototype '" + t.name + "'";
            } else if (t.kind == ptx::Table::Kind::CallTargets) {
                for (const Operand& e : t.entries) cs.allowed.push_back(function_definition(m_mod, e.name));
            } else {
                fail(table->loc, fmt::format("'{}' is a .branchtargets list, not a call prototype", t.name));
            }
        } else {
            fail(target.loc, "expected a function name or a register holding a function address");
        }
        if (rets) for (const Operand& o : rets->elems) cs.rets.push_back(call_slot(o, true));
        if (args) for (const Operand& o : args->elems) cs.args.push_back(call_slot(o, false));
        if (want_params) check_call(pi, callee_name, *want_params, cs.args, "argument");
        if (want_rets) check_call(pi, callee_name, *want_rets, cs.rets, "result");
        m_img->calls.push_back(std::move(cs));
        return in;
    }

    // One call argument or result: a .param variable of the caller's frame, or a register (or
    // an immediate argument).
    FrameSlot call_slot(const Operand& o, bool is_result) {
        if (o.kind == Operand::Kind::Symbol && o.sym.kind == SymbolRef::Kind::FuncVar && m_fn.vars[o.sym.index].space == Space::Param)
            return {kNoRow, uint32_t(m_var_offset.at(o.sym.index)), uint32_t(m_fn.vars[o.sym.index].size_bytes())};
        if (o.kind == Operand::Kind::Reg) {
            const auto& r = m_fn.regs[o.reg];
            if (r.is_pred) fail(o.loc, "predicates cannot be passed to or from a call");
            return {is_result ? dest(o) : source(o, r.type), 0, r.bits / 8};
        }
        if (o.kind == Operand::Kind::Imm && !is_result) return {source(o, "b64"), 0, 8};
        fail(o.loc, fmt::format("a call {} must be a .param variable declared in the calling function or a register",
                                is_result ? "result" : "argument"));
    }

    void check_call(const ptx::Instruction& pi, const std::string& callee, const std::vector<ptx::Variable>& want,
                    const std::vector<FrameSlot>& got, const char* what) const {
        if (want.size() != got.size())
            fail(pi.loc, fmt::format("call passes {} {}s but {} takes {}", got.size(), what, callee, want.size()));
        for (size_t k = 0; k < want.size(); ++k) {
            uint32_t size = want[k].space == Space::Reg ? want[k].elem_size : uint32_t(want[k].size_bytes());
            if (got[k].row == kNoRow && got[k].size != size)
                fail(pi.loc, fmt::format("{} {} of the call is {} bytes but {} expects {}", what, k, got[k].size, callee, size));
        }
    }

    // set.CmpOp{.BoolOp}.dtype.stype d, a, b{, {!}c}: the setp of the same comparison writes two
    // hidden predicates, then d gets the value for true (all ones, 1.0f, 1.0 in f16) per result.
    Inst decode_set(const ptx::Instruction& pi, Inst& in) {
        OpSpec s{pi.opcode, pi.mods};
        const std::string dt = s.type(0), st = s.type(1);
        OpSpec cmp{"setp", {}};
        bool dropped = false;
        for (const auto& m : pi.mods) {
            if (!dropped && m == dt) { dropped = true; continue; }
            cmp.mods.push_back(m);
        }
        OpChoice c = select_op(cmp);
        if (!c.fn || c.layout != Layout::PD_A_B || st.empty())
            fail(pi.loc, fmt::format("unsupported instruction '{}'", pi.full_name()));
        const bool x2 = st == "f16x2";
        uint64_t lo, hi = 0;
        if (dt == "u32" || dt == "s32") { lo = x2 ? 0xFFFF : 0xFFFFFFFF; hi = x2 ? 0xFFFF0000 : 0; }
        else if (dt == "f32" && !x2) lo = 0x3F800000;
        else if (dt == "f16" && !x2) lo = 0x3C00;
        else if (dt == "f16x2" && x2) { lo = 0x3C00; hi = 0x3C000000; }
        else fail(pi.loc, fmt::format("unsupported instruction '{}': set writes .u32, .s32, .f32, .f16 or (from .f16x2) .f16x2", pi.full_name()));
        need(pi, c.aux ? 4 : 3, c.aux ? 4 : 3);
        in.fn = set_fn();
        in.aux = c.aux;
        in.d = dest(pi.ops[0]);
        in.a = source(pi.ops[1], st);
        in.b = source(pi.ops[2], st);
        if (c.aux) in.pc = pred(pi.ops[3], &in.pc_negated);
        in.pd = int16_t(m_img->num_preds++);
        if (x2) in.pb = int16_t(m_img->num_preds++);
        in.offset = int64_t(lo | hi << 32);
        in.target = uint32_t(m_img->inner_fns.size());
        m_img->inner_fns.push_back(c.fn);
        return in;
    }

    // pmevent n, or pmevent.mask bits: counters 0-7; 8-15 are reserved for the hardware.
    Inst decode_pmevent(const ptx::Instruction& pi, Inst& in) {
        need(pi, 1, 1);
        const Operand& o = pi.ops[0];
        if (o.kind != Operand::Kind::Imm || o.imm_kind != Operand::ImmKind::Int) fail(o.loc, "pmevent takes an integer constant");
        const bool mask = OpSpec{pi.opcode, pi.mods}.has("mask");
        if (!pi.mods.empty() && !(mask && pi.mods.size() == 1)) fail(pi.loc, fmt::format("unsupported instruction '{}'", pi.full_name()));
        if (mask ? o.imm_bits > 0xFFFF : o.imm_bits > 15)
            fail(o.loc, fmt::format("pmevent{} {} is out of range ({})", mask ? ".mask" : "", o.imm_bits, mask ? "16 bits" : "0 to 15"));
        const uint64_t bits = mask ? o.imm_bits : uint64_t(1) << o.imm_bits;
        if (bits >> kPmCounters)
            fail(o.loc, fmt::format("pmevent counters 8-15 are reserved; programs may trigger 0 to 7 (operand {})", o.imm_bits));
        in.fn = pmevent_fn();
        in.aux = uint8_t(bits);
        return in;
    }

    // brx.idx{.uni} index, table: a jump through a .branchtargets list.
    Inst decode_brx(const ptx::Instruction& pi, Inst& in) {
        need(pi, 2, 2);
        if (!OpSpec{pi.opcode, pi.mods}.has("idx")) fail(pi.loc, fmt::format("unsupported instruction '{}': expected brx.idx", pi.full_name()));
        const Operand& t = pi.ops[1];
        if (t.kind != Operand::Kind::Table || m_fn.tables[size_t(t.target)].kind != ptx::Table::Kind::BranchTargets)
            fail(t.loc, "brx.idx needs a .branchtargets list");
        in.fn = brx_fn();
        in.a = source(pi.ops[0], "u32");
        in.offset = int64_t(m_img->jump_tables.size());
        std::vector<uint32_t> targets;
        for (const Operand& e : m_fn.tables[size_t(t.target)].entries) targets.push_back(m_base + uint32_t(e.target));
        m_img->jump_tables.push_back(std::move(targets));
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

    int constant_pred(bool value) { return m_b.constant_pred(value); }

    Flow flow_of(const ptx::Instruction& pi) const {
        Flow f;
        f.conditional = pi.guard >= 0;
        if (pi.opcode == "bra" && !pi.ops.empty() && pi.ops[0].target >= 0) {
            f.kind = Flow::Kind::Branch;
            f.target = uint32_t(pi.ops[0].target);
        } else if (pi.opcode == "brx" && pi.ops.size() == 2 && pi.ops[1].kind == Operand::Kind::Table) {
            f.kind = Flow::Kind::Multi;
            for (const Operand& e : m_fn.tables[size_t(pi.ops[1].target)].entries) f.targets.push_back(uint32_t(e.target));
        } else if (pi.opcode == "ret" || pi.opcode == "exit") {
            f.kind = Flow::Kind::Exit;
        }
        return f;
    }

    // Reconvergence points come from the function's own graph; its returns and exits are the exit.
    void set_reconvergence(const std::vector<Flow>& flow) {
        ControlFlowGraph cfg(flow);
        for (uint32_t i = 0; i < flow.size(); ++i) {
            if (flow[i].kind != Flow::Kind::Branch && flow[i].kind != Flow::Kind::Multi) continue;
            uint32_t r = cfg.reconvergence_pc(cfg.block_of(i), simt::kExitPc);
            m_img->code[m_base + i].reconv = r == simt::kExitPc ? r : m_base + r;
        }
    }
};

} // namespace

void decode_function(ImageBuilder& b, uint32_t index) { Decoder(b, index).run(); }

} // namespace gpusim::loader
