// Operands of the asynchronous copies (bulk ones too), the transaction barriers and elect.sync
// (PTX ISA):
//   cp.async.{ca,cg}.shared.global [dst], [src], cp-size {, src-size | {!}ignore-src} {, policy}
//   mbarrier.op {d | _ | p ,} [addr] {, b {, c}}      cp.async.mbarrier.arrive{.noinc} [addr]
//   elect.sync d|p, membermask
#include <fmt/format.h>

#include "isa/op_registry.h"
#include "loader/function_decoder.h"

namespace gpusim::loader {

void Decoder::async_operands(const ptx::Instruction& pi, const OpSpec& spec, Inst& in) {
    const auto& ops = pi.ops;
    if (pi.opcode == "elect") {
        need(pi, 2, 2);
        value_and_pred(ops[0], in);
        in.a = source(ops[1], "b32");
        return;
    }
    if (pi.opcode == "cp" && spec.has("bulk")) {
        bulk_operands(pi, spec, in);
        return;
    }
    if (pi.opcode == "cp" && !spec.has("mbarrier")) {  // cp.async: the source is the access timing mode prices
        const bool policy = spec.has("L2::cache_hint");
        need(pi, 3, policy ? 5 : 4);
        Inst dst;
        address(ops[0], dst, MemSpace::Shared, pi);
        in.b = dst.a;
        in.vec[0] = pool_row(uint64_t(uint32_t(dst.offset)));
        address(ops[1], in, MemSpace::Global, pi);
        if (ops[2].kind != Operand::Kind::Imm || ops[2].imm_kind != Operand::ImmKind::Int ||
            (ops[2].imm_bits != 4 && ops[2].imm_bits != 8 && ops[2].imm_bits != 16))
            fail(ops[2].loc, "the copy size of cp.async is 4, 8 or 16");
        in.width = uint8_t(ops[2].imm_bits);
        if (spec.has("cg") && in.width != 16) fail(ops[2].loc, "cp.async.cg copies 16 bytes");
        const size_t extra = ops.size() - 3 - (policy ? 1 : 0);
        if (extra == 1) {
            const Operand& o = ops[3];
            if (o.kind == Operand::Kind::Reg && m_fn.regs[o.reg].is_pred) in.pc = pred(o, &in.pc_negated);
            else in.c = source(o, "u32");
        }
        if (policy) in.vec[1] = source(ops.back(), "b64");   // an L2 eviction policy: a hint
        return;
    }
    // mbarrier: a destination first unless the address is; then the address and up to two values.
    size_t k = 0;
    if (!ops.empty() && ops[0].kind != Operand::Kind::Address) {
        const Operand& d = ops[0];
        if (d.kind == Operand::Kind::Reg && m_fn.regs[d.reg].is_pred) in.pd = pred(d);
        else in.d = dest(d);
        k = 1;
    }
    const bool waits = spec.has("test_wait") || spec.has("try_wait");
    if (waits && in.pd < 0) fail(pi.loc, fmt::format("'{}' writes a predicate", pi.full_name()));
    if (ops.size() <= k) fail(pi.loc, fmt::format("'{}' needs an address", pi.full_name()));
    // Every other operation changes the word, lane after lane; a wait reads it, one broadcast
    // read for the warp in timing mode.
    if (!waits) in.dest_flags |= kMemAtomic;
    address(ops[k], in, in.space, pi);
    const size_t values = ops.size() - k - 1;
    const size_t most = waits ? 2 : (spec.has("init") || spec.has("expect_tx") || spec.has("complete_tx")) ? 1
                      : (spec.has("arrive") || spec.has("arrive_drop")) && pi.opcode == "mbarrier" ? 1 : 0;
    const size_t least = (spec.has("init") || spec.has("expect_tx") || spec.has("complete_tx") || waits) ? 1 : 0;
    if (values < least || values > most)
        fail(pi.loc, fmt::format("'{}' takes {} operands, found {}", pi.full_name(),
                                 least == most ? std::to_string(k + 1 + least) : fmt::format("{} to {}", k + 1 + least, k + 1 + most),
                                 ops.size()));
    const char* value_type = waits && !spec.has("parity") ? "b64" : "b32";
    if (values >= 1) in.b = source(ops[k + 1], value_type);
    if (values == 2) in.c = source(ops[k + 2], "u32");   // try_wait's suspend-time hint
}

// cp{.reduce}.async.bulk.dst.src... [dst], [src], size {, [mbar]} {, policy};
// cp.async.bulk.prefetch.L2.global [src], size {, policy}.
void Decoder::bulk_operands(const ptx::Instruction& pi, const OpSpec& spec, Inst& in) {
    const auto& ops = pi.ops;
    const size_t policy = spec.has("L2::cache_hint") ? 1 : 0;
    if (spec.has("prefetch")) {
        need(pi, 2 + policy, 2 + policy);
        address(ops[0], in, MemSpace::Global, pi);
        in.c = source(ops[1], "u32");
    } else {
        const bool mbar = spec.has("mbarrier::complete_tx::bytes");
        const size_t n = (mbar ? 4 : 3) + policy;
        need(pi, n, n);
        Inst dst;
        address(ops[0], dst, MemSpace::Generic, pi);
        in.b = dst.a;
        in.vec[0] = pool_row(uint64_t(dst.offset));
        address(ops[1], in, in.space, pi);
        in.c = source(ops[2], "u32");
        if (mbar) {
            Inst bar;
            address(ops[3], bar, MemSpace::Shared, pi);
            in.vec[1] = bar.a;
            in.vec[2] = pool_row(uint64_t(uint32_t(bar.offset)));
        }
    }
    if (policy) source(ops.back(), "b64");   // an L2 eviction policy: a hint
}

} // namespace gpusim::loader
