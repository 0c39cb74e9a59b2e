#include "isa/op_class.h"

#include <algorithm>
#include <initializer_list>

#include "isa/op_registry.h"

namespace gpusim {
namespace {

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

bool is64(const std::string& t) { return t == "u64" || t == "s64" || t == "b64" || t == "f64"; }
bool narrow_int(const std::string& t) { return one_of(t, {"u8", "s8", "b8", "u16", "s16", "b16"}); }

OpClass classify_float(const std::string& op, const OpSpec& s, const std::string& t) {
    bool approx = s.has("approx");
    if (t == "f64") {
        if (one_of(op, {"div", "sqrt", "rcp", "rsqrt"})) return OpClass::Fp64Ieee;
        return OpClass::Fp64;
    }
    const bool sixteen = t == "f16" || t == "f16x2" || t == "bf16" || t == "bf16x2";
    // The 16-bit tanh and ex2 run on MUFU like their fp32 forms (an x2 form is timed as one
    // operation, though the GPU issues one per half: docs/sfu.md).
    if (sixteen && approx && op == "tanh") return OpClass::Sfu;
    if (sixteen && approx && op == "ex2") return OpClass::SfuTrig;
    if (sixteen) return OpClass::Fp16;
    if (op == "div" || op == "div+add") return s.has("full") ? OpClass::Fp32DivFull : approx ? OpClass::Fp32DivApprox : OpClass::Fp32Ieee;
    if (op == "sqrt") return approx ? OpClass::SfuSqrt : OpClass::Fp32Ieee;
    if (op == "rcp") return approx ? OpClass::Sfu : OpClass::Fp32Ieee;
    if (one_of(op, {"rsqrt", "lg2", "tanh"})) return OpClass::Sfu;
    if (one_of(op, {"sin", "cos", "ex2"})) return OpClass::SfuTrig;
    return OpClass::Fp32;
}

OpClass classify_int(const std::string& op, const OpSpec& s, const std::string& t) {
    bool wide64 = is64(t);
    if (one_of(op, {"div", "rem"})) return OpClass::Int64Mul;
    if (one_of(op, {"mul", "mad", "sad", "mul64hi"})) return wide64 ? OpClass::Int64Mul : OpClass::IntMul;
    if (one_of(op, {"mul24", "mad24"})) return OpClass::IntMul24;
    if (one_of(op, {"popc", "clz", "bfind", "brev", "bfe", "bfi", "prmt", "fns", "dp4a", "dp2a", "bmsk", "szext"}))
        return OpClass::IntBit;
    if (one_of(op, {"shl", "shr", "shf"})) return wide64 ? OpClass::Int64 : OpClass::IntShift;
    if (one_of(op, {"abs", "neg"})) return wide64 ? OpClass::Int64 : OpClass::IntAbs;
    (void)s;
    return wide64 ? OpClass::Int64 : OpClass::IntAdd;
}

} // namespace

const char* pipe_name(PipeKind p) {
    static const char* const names[kPipeKinds] = {"alu", "sfu", "fp64", "ldst", "video", "ctrl"};
    return names[int(p)];
}

const char* op_class_name(OpClass c) {
    static const char* const names[kOpClasses] = {
        "int_add", "int_shift", "int_abs", "int_mul", "int_mul24", "int_bit", "int64", "int64_mul", "fp32",
        "fp32_div_full", "fp32_div_approx", "fp32_ieee", "sfu", "sfu_trig", "sfu_sqrt", "fp64", "fp64_ieee", "fp16",
        "conv", "conv_narrow", "conv64", "video", "video_absdiff", "warp", "tensor", "memory", "branch", "barrier", "fence", "misc"};
    return names[int(c)];
}

OpClass classify_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    // cp.async waits and its mbarrier arrival wait for the warp's copies, as a fence waits for its
    // accesses (timing mode's memory entry: sm/scoreboard_map.h).
    if (op == "cp" && (s.has("wait_group") || s.has("wait_all") || s.has("mbarrier"))) return OpClass::Fence;
    if (op == "cp" && s.has("commit_group")) return OpClass::Misc;
    if (op == "mbarrier") return s.has("pending_count") ? OpClass::IntAdd : OpClass::Memory;
    if (op == "elect" || op == "movmatrix") return OpClass::Warp;
    if (op == "mma" || (op == "wmma" && s.has("mma"))) return OpClass::Tensor;
    if (one_of(op, {"prefetch", "prefetchu", "discard", "applypriority"})) return OpClass::Misc;   // hints: no effect
    if (op == "createpolicy") return OpClass::IntAdd;
    if (one_of(op, {"ldmatrix", "stmatrix", "wmma"})) return OpClass::Memory;   // wmma.load, wmma.store
    if (one_of(op, {"ld", "ldu", "st", "atom", "red", "prefetch", "prefetchu", "cp"})) return OpClass::Memory;
    if (one_of(op, {"tex", "tld4", "suld", "sust", "sured"})) return OpClass::Memory;   // the texture path (MemSpace::Texture)
    if (one_of(op, {"bra", "brx", "call", "ret", "exit"})) return OpClass::Branch;
    if (one_of(op, {"bar", "barrier"})) return OpClass::Barrier;
    if (one_of(op, {"membar", "fence"})) return OpClass::Fence;
    if (one_of(op, {"vote", "shfl", "match", "activemask", "redux"})) return OpClass::Warp;
    if (one_of(op, {"pmevent", "nop", "trap", "brkpt", "nanosleep", "griddepcontrol"})) return OpClass::Misc;
    if (op == "vabsdiff2" || op == "vabsdiff4") return OpClass::VideoAbsdiff;
    if (op.size() > 1 && op[0] == 'v' && one_of(op, {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset",
                                                     "vadd2", "vadd4", "vsub2", "vsub4", "vavrg2", "vavrg4", "vmin2",
                                                     "vmin4", "vmax2", "vmax4", "vset2", "vset4"}))
        return OpClass::Video;
    if (op == "cvt") {
        std::string dt = s.type(0), st = s.type(1);
        if (is64(dt) || is64(st)) return OpClass::Conv64;
        if (narrow_int(st) && !narrow_int(dt)) return OpClass::ConvNarrow;
        return OpClass::Conv;
    }
    // The comparison type of setp/set and the operand type elsewhere decide float or integer.
    std::string t = (op == "set") ? s.type(1) : s.type(0);
    if (op == "testp" || op == "copysign") return t == "f64" ? OpClass::Fp64 : OpClass::Fp32;
    if (!t.empty() && (t[0] == 'f' || t.compare(0, 2, "bf") == 0)) return classify_float(op, s, t);
    return classify_int(op, s, t);
}

} // namespace gpusim
