// ptxas's contraction: a multiply whose product only additions read becomes part of each of them,
// one fused multiply-add (FFMA, DFMA, HFMA2) rounded once where the PTX rounds twice. It changes
// results in the last bit, so a model that runs the PTX as written differs from the GPU on real
// programs (a `v*cos - v*sin`, a `__fdividef(a, b) + c`). The rules below were found on the H200
// with regress/golden/contraction (the SASS ptxas 13.0 makes of each pattern for sm_90, and the
// results of the driver's JIT compared bit for bit); docs/ptx.md#contraction lists them:
//   - A product is a mul.f32, .f64, .f16, .f16x2, .bf16 or .bf16x2 without a rounding modifier or .sat,
//     or a div.approx.f32 or div.full.f32 (ptxas expands them into a scaled MUFU.RCP and a multiply,
//     and that multiply is fused), unguarded.
//   - It fuses into an add or sub of its type without a rounding modifier and with the same .ftz
//     (an f32 add.sat gives FFMA.SAT), guarded or not, in the same basic block (a label or a
//     branch between them keeps them apart; a barrier does not), whichever operand it is; a neg of
//     the product between them is folded into the fused multiply.
//   - Only when every read of the product is such an add (or such a neg whose every read is one):
//     a product that is stored, multiplied again, added to itself or read in another block stays a
//     multiply, and so do the adds that read it.
//   - An add of two products fuses its first operand's when that one can be fused, else its
//     second's; a product left out of any of its adds is fused into none.
// bf16 pairs (sm_90 PTX, where cuda_bf16.hpp's operators emit mul.bf16 and add.bf16) follow the
// same rules: regress/golden/contraction_bf16.
#pragma once

#include <cstdint>

#include "ptx/ast.h"

namespace gpusim::loader {

struct ContractionCounts {
    uint32_t fused = 0;     // adds and subs that became a fused multiply-add
    uint32_t removed = 0;   // multiplies, divisions and negations no longer needed
};

// Rewrites every function body of the module as ptxas contracts it: each fused add becomes
// `fma.rn[.ftz][.sat].T d, [-]a, b, [-]c` (a and c marked negated with Operand::minus, which the
// PTX syntax has no way to write) or, for a division, `div+add.{approx|full}[.ftz].f32 d, [-]a, b,
// [-]c`; a product none of whose reads is left is removed, and labels move with the code.
ContractionCounts contract(ptx::Module& mod);
ContractionCounts contract(ptx::Function& fn);

} // namespace gpusim::loader
