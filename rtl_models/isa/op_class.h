// The timing class of an instruction: which pipe executes it and which row of the config's
// operation table gives its initiation interval and latency. Assigned once at decode time.
#pragma once

#include <cstdint>
#include <string>

namespace gpusim {

struct OpSpec;
template <class T>
class ConfigSection;

enum class OpClass : uint8_t {
    IntAdd,        // add, sub, min, max, compare, select, logic, mov (32-bit)
    IntShift,      // shl, shr, shf
    IntAbs,        // abs, neg (integer)
    IntMul,        // 32-bit mul, mad, mul.hi, mul.wide, sad
    IntMul24,      // mul24, mad24
    IntBit,        // popc, clz, bfind, brev, bfe, bfi, prmt, fns, bmsk, szext
    Int64,         // 64-bit add, logic, shift, compare (two 32-bit operations)
    Int64Mul,      // 64-bit mul, mad, div, rem, and 32-bit div/rem (multi-instruction sequences)
    Fp32,          // add, sub, mul, fma, min, max, setp ... on f32
    Fp32DivFull,   // div.full.f32
    Fp32DivApprox, // div.approx.f32 (__fdividef)
    Fp32Ieee,      // div.rn, sqrt.rn, rcp.rn on f32: a software sequence on real chips
    Sfu,           // rcp, rsqrt, lg2 .approx
    SfuTrig,       // sin, cos, ex2 .approx (range reduction, then the SFU)
    SfuSqrt,       // sqrt.approx (rsqrt, then rcp)
    Fp64,          // add, mul, fma, min, max, setp ... on f64
    Fp64Ieee,      // div, sqrt, rcp on f64
    Fp16,          // f16 and f16x2 arithmetic
    Conv,          // cvt between 32-bit (and narrower float) types
    ConvNarrow,    // cvt from an 8- or 16-bit integer to a 32-bit type
    Conv64,        // cvt from or to a 64-bit type
    Video,         // scalar and SIMD video instructions
    VideoAbsdiff,  // vabsdiff2, vabsdiff4
    Warp,          // vote, shfl, match, activemask
    Tensor,        // mma, wmma.mma: the tensor cores (before cc 7.0, a sequence on the FP32 lanes)
    Memory,        // ld, st, atom, red, and the like: the space decides the unit at issue time
    Branch,        // bra, brx, call, ret, exit
    Barrier,       // bar, barrier
    Fence,         // membar, fence
    Misc,          // special registers, pmevent, nop, trap
    Count
};

constexpr int kOpClasses = int(OpClass::Count);

// The SM's execution pipes (alu/pipe.h): each class of operation issues to one of them.
enum class PipeKind : uint8_t { Alu, Sfu, Fp64, Ldst, Video, Ctrl, Count };
constexpr int kPipeKinds = int(PipeKind::Count);
// The config key of a pipe ("alu", "sfu" ...).
const char* pipe_name(PipeKind p);

// A row of the config's operation table: the pipe a class issues to, its initiation interval and
// its latency.
struct OpTiming {
    PipeKind pipe = PipeKind::Alu;
    uint32_t interval_milli = 1000; // initiation interval per lane, in thousandths of a cycle
    uint32_t latency = 1;           // cycles from issue until a dependent instruction may issue
};

// The keys ops.<class>.pipe, .interval and .latency of one class (op_class_keys.cpp).
void declare_keys(ConfigSection<OpTiming>& s);

// The config key of a class ("int_add", "sfu_trig" ...).
const char* op_class_name(OpClass c);
OpClass classify_op(const OpSpec& s);

} // namespace gpusim
