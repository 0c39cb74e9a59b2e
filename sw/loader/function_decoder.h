// One function of a kernel image being decoded (linker.cpp decides which functions an image
// holds). decoder.cpp: registers, frame layout, operands and the ordinary instructions;
// decode_control.cpp: calls, jump tables, set, pmevent and the reconvergence points.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loader/image_builder.h"

namespace gpusim::loader {

// Where a symbol lives: its address in its own state space; `in_frame` when that address is an
// offset in the frame of a called function's activation (it needs the frame base at run time).
struct SymbolPlace {
    uint64_t address = 0;
    ptx::Space space = ptx::Space::None;
    bool in_frame = false;
};

class Decoder {
public:
    Decoder(ImageBuilder& b, uint32_t index)
        : m_b(b), m_mod(b.mod), m_fn(b.mod.functions[b.linked[index]]), m_index(index), m_is_kernel(index == 0 && m_fn.is_entry),
          m_errors(b.errors), m_img(b.img) {}

    // Appends the function's code, text and call sites to the image.
    void run();

private:
    using Operand = ptx::Operand;
    using PtxError = ptx::PtxError;
    using Space = ptx::Space;
    using SymbolRef = ptx::SymbolRef;

    ImageBuilder& m_b;
    const ptx::Module& m_mod;
    const ptx::Function& m_fn;
    const uint32_t m_index;          // in the image's function list
    const bool m_is_kernel;
    std::vector<PtxError>* m_errors;
    std::shared_ptr<KernelImage> m_img;
    uint32_t m_base = 0;             // pc of the function's first instruction
    Row m_fp_row = kNoRow;
    std::vector<int> m_reg_row;      // RegDecl index -> row or predicate index
    std::map<int, uint64_t> m_var_offset;        // function var -> frame (or shared) offset
    std::vector<uint64_t> m_param_offset, m_ret_offset;  // .param parameters in the frame

    [[noreturn]] void fail(ptx::SourceLoc loc, const std::string& msg) const { throw PtxError(m_mod.file, loc, msg); }
    Row pool_row(uint64_t value, int width_class = 0) { return m_b.pool_row(value, width_class); }
    int constant_pred(bool value) { return m_b.constant_pred(value); }

    // The function's registers are a contiguous block of rows (and predicates), so a recursive
    // call can save them in one piece; a called function's frame base sits in the last row.
    void assign_registers(FunctionImage& fi);
    void layout_params();   // the kernel's parameter block

    // One activation's frame in per-thread local memory: the .param parameters and return
    // values of a called function, its .local variables, then the .param variables of its call
    // sites. Each call sequence is its own { } block and lives only until its call returns, so
    // the blocks share one area.
    void layout_frame(FunctionImage& fi);

    // Where a symbol lives. The kernel's frame is at offset 0 of local memory, so its variables
    // have fixed addresses; a called function's are relative to its activation's frame.
    SymbolPlace place(const Operand& o) const;

    // Operands: sources are register, immediate-pool or special rows; destinations registers.
    uint64_t immediate_value(const Operand& o, const std::string& type) const;
    Row special_row(const Operand& o);
    Row source(const Operand& o, const std::string& type);
    Row dest(const Operand& o) const;
    int16_t pred(const Operand& o, bool* negated = nullptr) const;
    void need(const ptx::Instruction& pi, size_t lo, size_t hi) const;
    void address(const Operand& o, Inst& in, MemSpace space, const ptx::Instruction& pi);
    void vector_rows(const Operand& o, Inst& in, bool is_dest, const std::string& type);

    // One instruction; with m_errors set, a problem is recorded and a placeholder returned.
    Inst decode(const ptx::Instruction& pi);
    Inst decode_or_throw(const ptx::Instruction& pi);

    // d{.sel}, {-}a{.sel}, {-}b{.sel} [, {-}c]: the selectors and negations complete the video
    // unit's encoding, which travels in Inst::offset.
    void video_operands(const ptx::Instruction& pi, uint64_t code, Inst& in);

    // mov.b64 d, {lo, hi} packs elements into one register; mov.b64 {lo, hi}, a unpacks (also
    // .b32 from two halves and .b64 from four); the first element is the least significant.
    Inst decode_vector_mov(const ptx::Instruction& pi, Inst& in);

    // "d" or "d|p": a value destination and an optional predicate destination.
    void value_and_pred(const Operand& o, Inst& in);

    // ---- decode_control.cpp ----
    // Whether a .param access reaches the activation's frame (inside functions, call arguments).
    bool in_frame_param(const Operand& a) const;

    // mov d, var: the address of a frame variable is the activation's frame base plus its offset.
    Inst decode_frame_address(const ptx::Instruction& pi, Inst& in);

    // call{.uni} [(results),] target [, (arguments)] [, prototype | calltargets]
    Inst decode_call(const ptx::Instruction& pi, Inst& in);

    // One call argument or result: a .param variable of the caller's frame, or a register (or
    // an immediate argument).
    FrameSlot call_slot(const Operand& o, bool is_result);
    static Syscall syscall_of(const ptx::Function& f);
    // The arguments or results of a call against the callee's (or prototype's) parameters.
    void check_call(const ptx::Instruction& pi, const std::string& callee, const std::vector<ptx::Variable>& want,
                    const std::vector<FrameSlot>& got, const char* what) const;

    // set.CmpOp{.BoolOp}.dtype.stype d, a, b{, {!}c}: the setp of the same comparison writes two
    // hidden predicates, then d gets the value for true (all ones, 1.0f, 1.0 in f16) per result.
    Inst decode_set(const ptx::Instruction& pi, Inst& in);

    // pmevent n, or pmevent.mask bits: counters 0-7; 8-15 are reserved for the hardware.
    Inst decode_pmevent(const ptx::Instruction& pi, Inst& in);

    // brx.idx{.uni} index, table: a jump through a .branchtargets list.
    Inst decode_brx(const ptx::Instruction& pi, Inst& in);

    // ---- decode_texture.cpp ----
    // tex, tld4, txq, suld, sust, sured, suq and istypep: their operands go to a TexOperands entry.
    static bool is_texture_opcode(const std::string& op);
    Inst decode_texture(const ptx::Instruction& pi, Inst& in);
    // The handle operand of a texture or surface instruction: a 64-bit register, or a module-scope
    // .texref/.samplerref/.surfref whose variable holds the handle.
    void texture_handle(const Operand& o, Row& row, bool& in_memory);

    // ---- decode_async.cpp ----
    // cp.async, mbarrier and elect.sync: operands of the forms each layout names (op_registry.h).
    void async_operands(const ptx::Instruction& pi, const OpSpec& spec, Inst& in);
    void bulk_operands(const ptx::Instruction& pi, const OpSpec& spec, Inst& in);
    // mma, wmma, ldmatrix, stmatrix (decode_matrix.cpp); `code` is the unit's packed MatrixForm.
    void matrix_operands(const ptx::Instruction& pi, uint64_t code, Inst& in);
    void atom_vector_operands(const ptx::Instruction& pi, Inst& in);
    // prefetch, prefetchu, discard, applypriority, createpolicy (decode_hints.cpp).
    void hint_operands(const ptx::Instruction& pi, const OpSpec& spec, Inst& in);
    // The cache-policy operand of .L2::cache_hint: read as a hint; returns the operands before it.
    size_t without_policy(const ptx::Instruction& pi, const OpSpec& spec);

    // What an instruction does to control flow, for the function's graph.
    Flow flow_of(const ptx::Instruction& pi) const;

    // Reconvergence points come from the function's own graph; its returns and exits are the exit.
    void set_reconvergence(const std::vector<Flow>& flow);
};

} // namespace gpusim::loader
