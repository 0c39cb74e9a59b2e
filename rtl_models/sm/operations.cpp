#include "sm/operations.h"

#include "alu/alu_ops.h"
#include "ldst/ldst_ops.h"
#include "sfu/sfu_ops.h"
#include "tensor/matrix_ops.h"
#include "video/video_code.h"

namespace gpusim {

const OpRegistry& sm_operations() {
    static const OpRegistry registry = [] {
        OpRegistry r;
        r.add("sm.control", select_control_op);
        r.add("sm.warp", select_warp_op);
        register_alu_ops(r);
        register_sfu_ops(r);
        register_ldst_ops(r);
        register_video_ops(r);
        tensor::register_tensor_ops(r);
        return r;
    }();
    return registry;
}

} // namespace gpusim
