// Decoding of calls (arguments and results as frame slots or registers, direct and indirect
// targets), brx.idx jump tables, set, pmevent, and each instruction's control flow for the
// reconvergence points. The rest of Decoder is in decoder.cpp.

#include "loader/function_decoder.h"
#include "sm/call_ops.h"
#include "alu/alu_ops.h"
#include "sm/operations.h"
#include "sm/simt_stack.h"

namespace gpusim {
ExecFn pmevent_fn();
}

namespace gpusim::loader {

bool Decoder::in_frame_param(const Operand& a) const {
    if (a.kind != Operand::Kind::Address) return false;
    switch (a.sym.kind) {
    case SymbolRef::Kind::None: return !m_is_kernel;  // a register or absolute address
    case SymbolRef::Kind::Param: return !m_is_kernel;
    case SymbolRef::Kind::FuncVar: return m_fn.vars[a.sym.index].space != Space::Shared;
    default: return false;
    }
}

// mov d, var: the address of a frame variable is the activation's frame base plus its offset.
Inst Decoder::decode_frame_address(const ptx::Instruction& pi, Inst& in) {
    OpChoice add = sm_operations().select(OpSpec{"add", {"u64"}});
    in.fn = add.fn;
    in.d = dest(pi.ops[0]);
    in.a = m_fp_row;
    in.b = pool_row(place(pi.ops[1]).address + uint64_t(pi.ops[1].offset));
    return in;
}

// The device runtime function an .extern declaration names, when its signature is CUDA's.
Syscall Decoder::syscall_of(const ptx::Function& f) {
    const size_t np = f.params.size(), nr = f.return_params.size();
    if (f.name == "vprintf" && np == 2 && nr == 1) return Syscall::Vprintf;
    if (f.name == "malloc" && np == 1 && nr == 1) return Syscall::Malloc;
    if (f.name == "free" && np == 1 && nr == 0) return Syscall::Free;
    if (f.name == "__assertfail" && np == 5 && nr == 0) return Syscall::AssertFail;
    return Syscall::None;
}

// call{.uni} [(results),] target [, (arguments)] [, prototype | calltargets]
Inst Decoder::decode_call(const ptx::Instruction& pi, Inst& in) {
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
        if (!callee.has_body) {
            cs.syscall = syscall_of(callee);
            if (cs.syscall == Syscall::None) fail(target.loc, fmt::format("call to '{}', which has no body in this module", target.name));
            in.fn = syscall_fn();
            in.dest_flags |= kOrdered;   // the device heap and printf output are the chip's
        } else {
            cs.callee = m_img->function_of_module.at(mi);
        }
        if (callee.is_entry) fail(target.loc, fmt::format("'{}' is a kernel entry and cannot be called", target.name));
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
FrameSlot Decoder::call_slot(const Operand& o, bool is_result) {
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

// set.CmpOp{.BoolOp}.dtype.stype d, a, b{, {!}c}: the setp of the same comparison writes two
// hidden predicates, then d gets the value for true (all ones, 1.0f, 1.0 in f16) per result.
Inst Decoder::decode_set(const ptx::Instruction& pi, Inst& in) {
    OpSpec s{pi.opcode, pi.mods};
    const std::string dt = s.type(0), st = s.type(1);
    OpSpec cmp{"setp", {}};
    bool dropped = false;
    for (const auto& m : pi.mods) {
        if (!dropped && m == dt) { dropped = true; continue; }
        cmp.mods.push_back(m);
    }
    OpChoice c = sm_operations().select(cmp);
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
Inst Decoder::decode_pmevent(const ptx::Instruction& pi, Inst& in) {
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
Inst Decoder::decode_brx(const ptx::Instruction& pi, Inst& in) {
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

Flow Decoder::flow_of(const ptx::Instruction& pi) const {
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
void Decoder::set_reconvergence(const std::vector<Flow>& flow) {
    ControlFlowGraph cfg(flow);
    for (uint32_t i = 0; i < flow.size(); ++i) {
        if (flow[i].kind != Flow::Kind::Branch && flow[i].kind != Flow::Kind::Multi) continue;
        uint32_t r = cfg.reconvergence_pc(cfg.block_of(i), simt::kExitPc);
        m_img->code[m_base + i].reconv = r == simt::kExitPc ? r : m_base + r;
    }
}

void Decoder::check_call(const ptx::Instruction& pi, const std::string& callee, const std::vector<ptx::Variable>& want, const std::vector<FrameSlot>& got, const char* what) const {
    if (want.size() != got.size())
        fail(pi.loc, fmt::format("call passes {} {}s but {} takes {}", got.size(), what, callee, want.size()));
    for (size_t k = 0; k < want.size(); ++k) {
        uint32_t size = want[k].space == Space::Reg ? want[k].elem_size : uint32_t(want[k].size_bytes());
        if (got[k].row == kNoRow && got[k].size != size)
            fail(pi.loc, fmt::format("{} {} of the call is {} bytes but {} expects {}", what, k, got[k].size, callee, size));
    }
}

} // namespace gpusim::loader
