// The parsed form of a PTX module: declarations with resolved scopes and instructions whose
// operands already point at their registers and symbols. The loader turns this into executable code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptx/diagnostics.h"

namespace gpusim::ptx {

enum class Space { None, Reg, Global, Const, Shared, Local, Param };

const char* space_name(Space s);

// A variable in a state space: module-scope .global/.const/.shared, a function's .local/.shared,
// or a kernel / function parameter.
struct Variable {
    std::string name;
    Space space = Space::None;
    std::string type;            // element type, e.g. "u32", "b8", "f32"
    uint32_t elem_size = 0;      // bytes per element
    uint32_t align = 0;          // bytes; defaults to elem_size
    uint64_t count = 1;          // elements; 0 for an unsized (extern) array
    bool is_array = false;
    bool is_extern = false;
    bool is_visible = false;
    bool is_managed = false;     // .attribute(.managed): one address for host and device (__managed__)
    std::vector<uint8_t> init;   // initializer bytes; empty means zero-filled
    // Initializer elements that hold the address of a symbol ("p = table+8", "generic(x)"), patched
    // into `init` once addresses are known.
    struct AddressInit {
        uint64_t offset = 0;     // byte offset in init
        std::string symbol;
        int64_t addend = 0;
        SourceLoc loc;
    };
    std::vector<AddressInit> address_inits;
    // A .texref or .samplerref initializer, "{ filter_mode = linear, addr_mode_0 = wrap }": the
    // sampler state its handle starts with.
    struct OpaqueField {
        std::string name, value;
        SourceLoc loc;
    };
    std::vector<OpaqueField> opaque_init;
    uint32_t scope = 0;          // function-scope variables: id of the { } block that declares them
    int reg = -1;                // a .reg parameter of a .func: its register (RegDecl index)
    SourceLoc loc;

    uint64_t size_bytes() const { return uint64_t(elem_size) * count; }
};

struct RegDecl {
    std::string name;
    std::string type;            // "pred", "b32", "f64" ...
    uint32_t bits = 0;
    bool is_pred = false;
    SourceLoc loc;
};

// Where a name in an operand points.
struct SymbolRef {
    enum class Kind { None, ModuleVar, Param, FuncVar, Function } kind = Kind::None;
    int index = -1;
};

struct Operand {
    enum class Kind { Reg, Imm, Sreg, Symbol, Label, Address, Vector, Pair, Sink, Table };
    enum class ImmKind { Int, F32Bits, F64Bits, Double };

    Kind kind = Kind::Imm;
    SourceLoc loc;
    int reg = -1;                // Reg, or the base register of an Address
    bool negate = false;         // "!%p"
    bool minus = false;          // "-%r1": a negated register (vmad sources)
    std::string selector;        // video selector after a register, without the dot: "b0", "h10", "b3210"
    ImmKind imm_kind = ImmKind::Int;
    uint64_t imm_bits = 0;       // Int (two's complement), F32Bits, F64Bits
    double imm_double = 0;       // Double
    std::string name;            // Sreg ("%tid.x"), Label, Symbol
    SymbolRef sym;               // Symbol, or the base symbol of an Address
    int64_t offset = 0;          // Symbol+offset, Address offset
    int target = -1;             // Label: instruction index in the function body; Table: table index
    std::vector<Operand> elems;  // Vector ("{a, b}"), parenthesized call lists, Pair ("d|p")
};

struct Instruction {
    std::string opcode;              // "ld"
    std::vector<std::string> mods;   // {"global", "f32"} without dots
    int guard = -1;                  // predicate register, -1 when unguarded
    bool guard_negated = false;
    std::vector<Operand> ops;
    SourceLoc loc;
    std::string contracted_from;     // "mul.f32 + sub.f32" where loader/contraction.h fused the pair

    bool has_mod(const std::string& m) const;
    std::string full_name() const;   // "ld.global.f32"
};

// A named list declared in a function body: `.branchtargets` (labels for brx.idx), `.calltargets`
// (functions an indirect call may reach) or `.callprototype` (the signature of an indirect call).
struct Table {
    enum class Kind { BranchTargets, CallTargets, CallPrototype } kind = Kind::BranchTargets;
    std::string name;
    std::vector<Operand> entries;        // labels or function symbols
    std::vector<Variable> rets, params;  // a prototype's return and argument parameters
    SourceLoc loc;
};

struct Function {
    std::string name;
    bool is_entry = false;
    bool is_visible = false;
    bool is_extern = false;
    bool has_body = false;
    std::vector<Variable> params;
    std::vector<Variable> return_params;
    std::vector<Variable> vars;          // function-scope .local/.shared/.const
    std::vector<RegDecl> regs;           // every register of every scope, uniquely numbered
    std::vector<Instruction> body;
    std::vector<Table> tables;
    uint32_t reqntid[3] = {0, 0, 0};
    uint32_t maxntid[3] = {0, 0, 0};
    SourceLoc loc;
};

struct Module {
    std::string file;
    std::string version;
    std::string target;
    uint32_t address_size = 64;
    std::vector<Variable> globals;       // module-scope .global/.const/.shared
    std::vector<Function> functions;

    const Function* find_function(const std::string& name) const;
};

// Bytes of a PTX fundamental type name without the dot ("u32" -> 4, "pred" -> 0); 0 if unknown.
uint32_t type_size(const std::string& type);

} // namespace gpusim::ptx
