// The executable form of a kernel: compact pre-decoded instructions whose operands are register
// rows or immediate rows, and a function pointer that implements the whole warp instruction.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/matrix_form.h"
#include "isa/op_class.h"

namespace gpusim {

constexpr int kWarpSize = 32;
using LaneMask = uint32_t;

struct Warp;
struct ExecContext;
struct Inst;

// Executes one warp instruction for the lanes in `mask` (active lanes that pass the guard).
using ExecFn = void (*)(ExecContext& ctx, Warp& warp, const Inst& in, LaneMask mask);

enum class MemSpace : uint8_t { Generic, Global, Const, Shared, Local, Param, Texture };

const char* mem_space_name(MemSpace s);

// Operand rows: a value >= 0 is a register row of the warp; a negative value -1-k is row k of the
// kernel's immediate pool (an immediate broadcast to all 32 lanes), so every source is read as
// row[lane] without a branch per lane.
using Row = int32_t;
constexpr Row kNoRow = INT32_MIN;

struct Inst {
    ExecFn fn = nullptr;
    Row d = kNoRow, a = kNoRow, b = kNoRow, c = kNoRow;
    Row vec[4] = {kNoRow, kNoRow, kNoRow, kNoRow};  // vector ld/st registers
    int16_t guard = -1;          // predicate register index, -1 when unguarded
    bool guard_negated = false;
    int16_t pd = -1, pa = -1, pb = -1, pc = -1;  // predicate operands
    bool pa_negated = false, pb_negated = false, pc_negated = false;
    uint8_t width = 0;           // memory access bytes per element
    uint8_t vec_count = 0;       // elements of a vector access (0: scalar)
    MemSpace space = MemSpace::Generic;
    OpClass op_class = OpClass::Misc;  // timing: pipe, interval and latency (op_class.h)
    uint8_t dest_flags = 0;      // timing: which operand fields besides d and pd are written
    uint8_t aux = 0;             // instruction-specific selector (compare op, sreg id, ...)
    uint8_t round = 0;           // float rounding: 0 .rn, 1 .rz, 2 .rm, 3 .rp (see alu/rounding.h)
    int64_t offset = 0;          // memory address offset; for other units their encoding (cvt_ops.cpp,
                                 // the packed video::Code of rtl_models/video/video_code.h)
    uint32_t target = 0;         // branch target instruction
    uint32_t reconv = 0;         // reconvergence point of a branch
    uint32_t source_line = 0;    // PTX line, for fault reports
    uint32_t text_index = 0;     // index into KernelImage::text
};

// Inst::dest_flags: vec[] are destinations (vector loads, unpacking mov); pb is a second
// destination (setp p|q).
// kMemStore and kMemAtomic tell the LD/ST unit's timing a store or an atomic from a load.
constexpr uint8_t kDestVec = 1;
constexpr uint8_t kDestPb = 2;
constexpr uint8_t kMemStore = 4;
constexpr uint8_t kMemAtomic = 8;
// kAddr32: the address is formed in 32 bits ([reg+imm] with a 32-bit register, or any shared,
// local or parameter address): the sum wraps modulo 2^32, as the hardware's address adder does.
constexpr uint8_t kAddr32 = 16;
// kOrdered: the instruction orders with the other SMs (sw/loader/ordering.h): functional mode
// runs it in its SM's turn (SmCluster).
constexpr uint8_t kOrdered = 32;
// kMatrixRows: the instruction reads and writes more rows than Inst names, listed in
// KernelImage::matrix_operands[Inst::target] (mma, wmma): d is written, a, b and c are read,
// across lanes.
constexpr uint8_t kMatrixRows = 64;
// Inst::aux of ld, st, atom and red: the memory-order qualifiers the race detector needs. A strong
// access (.volatile, .relaxed, .acquire, .release, .acq_rel, and every atomic) does not race with
// another strong one; a release at gpu or system scope orders the block's earlier accesses.
constexpr uint8_t kOrderStrong = 1;
constexpr uint8_t kOrderRelease = 2;
// An atom or red whose operation leaves the same value in memory in any order: an integer add,
// min, max, and, or, xor (sw/loader/ordering.h).
constexpr uint8_t kAtomCommutes = 4;
// An acquire (ld, atom) at gpu or system scope: the relaxed memory model's view catches up after it.
constexpr uint8_t kOrderAcquire = 8;
// An integer atom or red add whose address and operand are the same in every lane, which ptxas
// turns into one lane's operation (sw/loader/atomic_aggregation.h): timed as that one lane's.
constexpr uint8_t kAtomAggregated = 16;
// A global load that its cache operator (.cg, .cv) or its strength (.volatile; .relaxed or .acquire
// at gpu or system scope) sends past the L1 to the L2 (timing under l1.cache_operators).
constexpr uint8_t kLoadBypassesL1 = 32;
// An atom or red whose operation is an add (of any type), as its decoding found it.
constexpr uint8_t kAtomAdd = 64;

// Inst::aux of a fused multiply-add that contraction made (sw/loader/contraction.h): the sign of
// the product's first factor, or of the addend, is flipped as it is read.
constexpr uint8_t kNegateProduct = 1;
constexpr uint8_t kNegateAddend = 2;

// The address of a memory instruction's lane whose address register holds `base`.
inline uint64_t effective_address(uint64_t base, const Inst& in) {
    const uint64_t a = base + uint64_t(in.offset);
    return (in.dest_flags & kAddr32) ? uint64_t(uint32_t(a)) : a;
}

// Which special register a hidden per-warp row holds.
enum class SpecialReg : uint8_t {
    TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
    LaneId, WarpId, NWarpId, SmId, NSmId, GridId, LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt,
    LanemaskGe, DynamicSmemSize, TotalSmemSize, EnvReg0, Count = EnvReg0 + 32   // EnvReg0 + k: %envreg<k>
};

// A value passed to or from a function: in a register row (or an immediate row), or at `offset`
// in a frame of per-thread local memory.
struct FrameSlot {
    Row row = kNoRow;            // kNoRow when the value lives in the frame
    uint32_t offset = 0;
    uint32_t size = 0;           // bytes
};

// A function linked into a kernel image; functions[0] is the kernel itself.
struct FunctionImage {
    std::string name;
    uint32_t module_index = 0;   // index in the PTX module: the function's address (memory_map.h)
    uint32_t entry_pc = 0;
    uint32_t frame_bytes = 0;    // per-thread local memory of one activation
    uint32_t call_area = 0;      // frame offset of the .param variables of its calls, where a callee's frame begins
    Row fp_row = kNoRow;         // holds the activation's frame base (the kernel's is always 0)
    Row first_row = 0, end_row = 0;        // the function's register rows, saved around a recursive call
    uint32_t first_pred = 0, end_pred = 0;
    std::vector<FrameSlot> params, rets;   // in the function's own frame or registers
};

// One call instruction: where its arguments come from and its results go, in the caller.
// Functions of CUDA's device runtime that PTX declares .extern and the model provides.
enum class Syscall : uint8_t { None, Vprintf, Malloc, Free, AssertFail };

struct CallSite {
    int32_t callee = -1;         // image function; -1 for an indirect call through Inst::a
    Syscall syscall = Syscall::None;
    uint32_t caller = 0;
    std::vector<FrameSlot> args, rets;
    std::vector<uint32_t> allowed;         // .calltargets of an indirect call (module indices); empty: any
};

// The operands of a texture or surface instruction (tex, tld4, txq, suld, sust, sured, suq,
// istypep), more than Inst holds; Inst::target indexes KernelImage::tex_operands.
struct TexOperands {
    enum class Op : uint8_t { Tex, Gather, Query, SurfLoad, SurfStore, SurfReduce, SurfQuery, TypeTest };
    Op op = Op::Tex;
    Row handle = kNoRow;         // the object's 64-bit handle; for a .texref/.surfref, its variable's address
    bool handle_in_memory = false;   // a module-scope reference: the handle is read from the variable
    Row sampler = kNoRow;        // independent mode: the .samplerref's handle (its sampler state wins)
    bool sampler_in_memory = false;
    uint8_t shape = 0;           // tex::Shape the instruction names
    uint8_t ncoord = 0;          // coordinate rows (a layered shape's layer first, as PTX orders them)
    Row coord[4] = {kNoRow, kNoRow, kNoRow, kNoRow};
    bool integer_coords = false; // .s32 coordinates
    uint8_t nvalue = 0;          // results (or a store's values)
    Row value[4] = {kNoRow, kNoRow, kNoRow, kNoRow};
    uint8_t value_bytes = 4;     // surfaces: bytes of each element (b8 .. b64)
    uint8_t component = 0;       // tld4: r, g, b, a; txq/suq: the attribute; istypep: the type
    uint8_t boundary = 0;        // surfaces: 0 .trap, 1 .clamp, 2 .zero
    uint8_t reduce = 0;          // sured: add, min, max, and, or
    bool reduce_signed = false;
    bool formatted = false;      // sust.p / sured.p: texels converted from the values
};

// A kernel decoded once at module load; shared read-only by every warp that runs it.
struct KernelImage {
    std::string name;
    std::string module_file;
    std::vector<Inst> code;
    std::vector<std::string> text;           // PTX text of each instruction, for reports
    std::vector<uint64_t> imm_pool;          // rows of 32 lanes
    uint32_t num_regs = 0;                   // register rows (user registers + special rows)
    uint32_t num_preds = 0;
    std::vector<std::pair<SpecialReg, Row>> special_rows;  // rows filled when a warp starts
    std::vector<std::pair<int, bool>> constant_preds;       // predicates fixed when a warp starts
    uint32_t param_bytes = 0;
    std::vector<uint32_t> param_offsets;     // byte offset of each kernel parameter
    std::vector<uint32_t> param_sizes;
    uint32_t static_shared_bytes = 0;
    uint32_t dynamic_shared_align = 16;
    uint32_t local_bytes = 0;                // per thread: the kernel's frame and the deepest call chain
    std::vector<FunctionImage> functions;    // [0] the kernel, then every function it can call
    std::vector<CallSite> calls;
    std::vector<std::vector<uint32_t>> jump_tables;  // brx.idx targets
    std::vector<ExecFn> inner_fns;           // the comparison of each set instruction (Inst::target)
    std::vector<TexOperands> tex_operands;   // texture and surface instructions (Inst::target)
    std::vector<MatrixOperands> matrix_operands;   // instructions with kMatrixRows (Inst::target)
    std::vector<int32_t> function_of_module; // module function index -> image function, -1 if not linked
    bool recursive = false;                  // call chains are unbounded: the SM adds the configured stack
    // Some global reduction runs apart, as the host's atomic, and some instruction orders with the
    // other SMs: what an ordered instruction reads may include reductions, so timing mode's rounds
    // must not overlap (rtl_models/gpu/sm_cluster.h).
    bool reductions_meet_ordered = false;
    // The rows a warp must find at zero when it starts, as the loader's must-define analysis found
    // them (sw/loader/register_init.h); every row when zero_all_rows.
    std::vector<Row> zero_rows;
    bool zero_all_rows = true;
    uint32_t regs_per_thread = 0;            // PTX virtual registers in 32-bit words (a function's included)
    uint32_t live_regs_per_thread = 0;       // the most words live at once (0: not analysed), as ptxas allocates

    const uint64_t* imm_row(Row r) const { return imm_pool.data() + size_t(-1 - r) * kWarpSize; }
};

} // namespace gpusim
