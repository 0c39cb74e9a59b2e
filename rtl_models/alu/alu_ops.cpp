#include "alu/alu_ops.h"

namespace gpusim {

OpChoice select_alu_op(const OpSpec& s) {
    // The bit operations take the carry and .sat forms of add, sub and mad before the integer
    // operations, which would take their plain forms.
    for (auto sel : {select_bit_op, select_int_op, select_cvt_op, select_half_op, select_float_op}) {
        OpChoice c = sel(s);
        if (c.fn || !c.error.empty()) return c;
    }
    return {};
}

void register_alu_ops(OpRegistry& r) { r.add("alu", select_alu_op); }

} // namespace gpusim
