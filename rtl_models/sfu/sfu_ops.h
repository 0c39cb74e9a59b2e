// The SFU's instructions: rcp, rsqrt, sqrt, lg2, ex2, sin, cos and tanh, .approx and the
// correctly rounded sequences built on them, as the hardware computes them (docs/sfu.md).
#pragma once

#include "isa/op_registry.h"

namespace gpusim {

template <class T>
class ConfigSection;

struct SfuConfig {
    bool ideal = false;   // sfu.approx == "ideal": correctly rounded, not the GPU's bits
};

// The key sfu.approx (sfu_keys.cpp).
void declare_keys(ConfigSection<SfuConfig>& s);

void register_sfu_ops(OpRegistry& r);
OpChoice select_sfu_op(const OpSpec& s);

} // namespace gpusim
