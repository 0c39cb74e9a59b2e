// Operands of the cache hints (PTX ISA):
//   prefetch{.space}.level [a]      prefetchu.L1 [a]
//   discard.global.L2 [a], 128      applypriority.global.L2::evict_normal [a], 128
//   createpolicy.fractional... d{, fraction}   createpolicy.range... d, [a], primary-size, total-size
//   createpolicy.cvt.L2.b64 d, a
#include <fmt/format.h>

#include "isa/op_registry.h"
#include "loader/function_decoder.h"

namespace gpusim::loader {

void Decoder::hint_operands(const ptx::Instruction& pi, const OpSpec& spec, Inst& in) {
    const auto& ops = pi.ops;
    if (pi.opcode == "createpolicy") {
        const bool range = spec.has("range"), cvt = spec.has("cvt");
        need(pi, range ? 4 : 2 - (cvt ? 0 : 1), range ? 4 : 2);
        in.d = dest(ops[0]);
        if (range) {
            address(ops[1], in, MemSpace::Generic, pi);
            in.b = source(ops[2], "u32");
            in.c = source(ops[3], "u32");
        } else if (ops.size() == 2) {
            in.a = source(ops[1], cvt ? "b64" : "f32");
        }
        return;
    }
    const bool sized = pi.opcode == "discard" || pi.opcode == "applypriority";
    need(pi, sized ? 2 : 1, sized ? 2 : 1);
    address(ops[0], in, in.space, pi);
    if (sized && (ops[1].kind != Operand::Kind::Imm || ops[1].imm_bits != 128))
        fail(ops[1].loc, fmt::format("the size of {} is 128", pi.opcode));
}

} // namespace gpusim::loader
