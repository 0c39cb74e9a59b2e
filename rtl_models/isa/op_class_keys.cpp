#include "config/config_schema.h"
#include "isa/op_class.h"

namespace gpusim {

void declare_keys(ConfigSection<OpTiming>& s) {
    std::vector<std::string> pipes;
    for (int p = 0; p < kPipeKinds; ++p) pipes.push_back(pipe_name(PipeKind(p)));
    s.converted<std::string>("pipe", [](OpTiming& o, const std::string& v) {
        for (int p = 0; p < kPipeKinds; ++p)
            if (v == pipe_name(PipeKind(p))) o.pipe = PipeKind(p);
    }, "pipe", "The pipe the class issues to.").one_of(pipes);
    s.converted<double>("interval", [](OpTiming& o, const double& v) { o.interval_milli = uint32_t(v * 1000 + 0.5); }, "cycles",
                        "Initiation interval per lane: a warp instruction occupies its pipe 32 × interval / lanes cycles "
                        "(fractions allowed).").above(0).at_most(1000);
    s.key("latency", &OpTiming::latency, "cycles", "Cycles from issue until a dependent instruction may issue.");
}

} // namespace gpusim
