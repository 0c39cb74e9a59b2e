// The PTX parser's state and its methods, shared by the two files that define them: parser_module.cpp
// (module level: directives, variable declarations and initializers) and parser.cpp (function
// bodies: scopes, registers, instructions and operands). Internal to the front end.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ptx/ast.h"
#include "ptx/diagnostics.h"
#include "ptx/lexer.h"
#include "ptx/vocabulary.h"

namespace gpusim::ptx::detail {

constexpr uint64_t kWarpSizeIdentifier = 32;   // the value of WARP_SZ
constexpr uint64_t kMaxVirtualRegisters = 1u << 20;  // per function, all .reg declarations together
constexpr uint64_t kMaxVariableBytes = uint64_t(1) << 48;  // the GPU's virtual address space

// Names visible in one { } scope of a function body.
struct Scope {
    std::map<std::string, int> regs;
    std::map<std::string, int> vars;
    std::map<std::string, int> labels;                 // label -> instruction index
    std::map<std::string, int> tables;                 // .branchtargets/.calltargets/.callprototype
    std::vector<std::pair<int, int>> pending;          // (instruction, operand) label uses to resolve
    std::vector<std::pair<int, int>> pending_tables;   // (table, entry) label uses to resolve
    uint32_t id = 0;
};

class Parser {
public:
    Parser(const std::string& file, std::vector<Token> toks) : m_file(file), m_toks(std::move(toks)) {
        m_mod.file = file;
    }

    Module run() {
        while (!at_end()) module_statement();
        return std::move(m_mod);
    }

private:
    std::string m_file;
    std::vector<Token> m_toks;
    size_t m_i = 0;
    Module m_mod;
    Function* m_fn = nullptr;
    std::vector<Scope> m_scopes;
    uint32_t m_scope_serial = 0;

    // ---- token helpers ----
    const Token& cur() const { return m_toks[m_i]; }
    const Token& peek(size_t n = 1) const { return m_toks[std::min(m_i + n, m_toks.size() - 1)]; }
    bool at_end() const { return cur().kind == Tok::End; }
    Token take() { Token t = cur(); if (!at_end()) ++m_i; return t; }
    bool is_punct(const char* p) const { return cur().kind == Tok::Punct && cur().text == p; }
    bool is_dot(const char* d) const { return cur().kind == Tok::Dot && cur().text == d; }

    [[noreturn]] void fail(SourceLoc loc, const std::string& msg) const { throw PtxError(m_file, loc, msg); }
    [[noreturn]] void fail_here(const std::string& msg) const { fail(cur().loc, msg); }

    std::string describe(const Token& t) const {
        return t.kind == Tok::End ? std::string("end of file") : "'" + t.text + "'";
    }

    void expect_punct(const char* p) {
        if (!is_punct(p)) fail_here(fmt::format("expected '{}' but found {}", p, describe(cur())));
        take();
    }
    bool accept_punct(const char* p) { if (is_punct(p)) { take(); return true; } return false; }

    Token expect_ident(const char* what) {
        if (cur().kind != Tok::Ident) fail_here(fmt::format("expected {} but found {}", what, describe(cur())));
        return take();
    }

    uint64_t parse_uint(const Token& t) const { return integer_literal(m_file, t); }

    uint32_t expect_uint32(const char* what) {
        Token t = cur();
        uint64_t v = parse_uint(take());
        if (v > UINT32_MAX) fail(t.loc, fmt::format("{} {} is too large", what, v));
        return static_cast<uint32_t>(v);
    }

    // Skips a debug directive that ends at the end of its line (".loc 1 2 3" has no semicolon).
    void skip_line(int line) { while (!at_end() && cur().loc.line == line && !is_punct(";")) take(); accept_punct(";"); }

    // Skips a balanced { } block (.section bodies).
    void skip_block() {
        expect_punct("{");
        int depth = 1;
        while (depth > 0) {
            if (at_end()) fail_here("unterminated block");
            if (is_punct("{")) ++depth;
            if (is_punct("}")) --depth;
            take();
        }
    }

    // ---- module level ----
    void module_statement();
    Space space_of(const std::string& d) const;
    Variable variable_decl(bool is_visible, bool is_extern);
    void attributes(Variable& v, const Token& at);
    void append_init_value(Variable& v, bool negative, const Token& t);
    void address_init(Variable& v, bool negative, const Token& t);
    void opaque_initializer(Variable& v);
    void initializer(Variable& v);

    // ---- functions ----
    std::vector<Variable> param_list();
    void function(bool is_visible, bool is_extern);
    void performance_directive(Function& fn);
    void block();
    void declare_params(std::vector<Variable>& params, const char* prefix, bool is_return);
    void close_scope();
    Operand& label_operand(int inst, int op);
    void body_statement();
    void table_decl(const Token& name);
    int lookup_table(const std::string& name) const;
    void declare_var(Variable v);
    void reg_decl();
    void add_reg(const std::string& name, const std::string& type, SourceLoc loc);
    int lookup_reg(const std::string& name) const;
    SymbolRef lookup_symbol(const std::string& name) const;
    void instruction();
    Operand paired_operand();
    Operand operand();
    void video_selector(Operand& o);
    void check_operand_suffixes(const Instruction& in) const;
    int64_t signed_offset();
    void address(Operand& o);
};

} // namespace gpusim::ptx::detail
