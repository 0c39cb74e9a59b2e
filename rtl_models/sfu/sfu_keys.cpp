#include "config/config_schema.h"
#include "sfu/sfu_ops.h"

namespace gpusim {

void declare_keys(ConfigSection<SfuConfig>& s) {
    s.converted<std::string>("approx", [](SfuConfig& c, const std::string& v) { c.ideal = v == "ideal"; }, "name",
                             "What the approximate instructions (`rcp`, `sqrt`, `rsqrt`, `ex2`, `lg2`, `sin`, `cos`, `tanh` "
                             "`.approx`, `div.approx`, `div.full`) return. `\"hardware\"`: a Hopper GPU's results bit for bit, "
                             "from captured tables and fitted interpolators. `\"ideal\"`: the function in double precision, "
                             "rounded once. The f64 forms (`rcp.approx.ftz.f64`, `rsqrt.approx{.ftz}.f64`) do not depend on it.")
        .one_of({"hardware", "ideal"}).or_default("hardware");
}

} // namespace gpusim
