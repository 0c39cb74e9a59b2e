#include "ptx/parser.h"

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "ptx/lexer.h"
#include "ptx/vocabulary.h"

namespace gpusim::ptx {
namespace {
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
    void module_statement() {
        const Token& t = cur();
        if (t.kind != Tok::Dot) fail_here(fmt::format("expected a directive but found {}", describe(t)));
        if (t.text == ".version") { take(); m_mod.version = take().text; return; }
        if (t.text == ".target") {
            take();
            m_mod.target = expect_ident("a target name").text;
            while (accept_punct(",")) expect_ident("a target option");
            return;
        }
        if (t.text == ".address_size") {
            take();
            Token n = cur();
            m_mod.address_size = expect_uint32("address size");
            if (m_mod.address_size != 64 && m_mod.address_size != 32)
                fail(n.loc, "address size must be 32 or 64");
            if (m_mod.address_size != 64) fail(n.loc, "only .address_size 64 is supported");
            return;
        }
        if (t.text == ".file") { skip_line(t.loc.line); return; }
        if (t.text == ".section") { take(); take(); skip_block(); return; }
        if (t.text == ".pragma") { take(); take(); expect_punct(";"); return; }

        bool is_visible = false, is_extern = false;
        while (is_dot(".visible") || is_dot(".extern") || is_dot(".weak")) {
            if (is_dot(".visible") || is_dot(".weak")) is_visible = true;
            if (is_dot(".extern")) is_extern = true;
            take();
        }
        if (is_dot(".entry") || is_dot(".func")) { function(is_visible, is_extern); return; }
        if (is_dot(".global") || is_dot(".const") || is_dot(".shared")) {
            Variable v = variable_decl(is_visible, is_extern);
            m_mod.globals.push_back(std::move(v));
            expect_punct(";");
            return;
        }
        fail_here(fmt::format("unknown or unsupported directive {}", describe(cur())));
    }

    Space space_of(const std::string& d) const {
        if (d == ".global") return Space::Global;
        if (d == ".const") return Space::Const;
        if (d == ".shared") return Space::Shared;
        if (d == ".local") return Space::Local;
        if (d == ".param") return Space::Param;
        if (d == ".reg") return Space::Reg;
        return Space::None;
    }

    // "<space> [.align N] [.ptr...] .type name[N][M] [= init]" without the trailing ';'.
    Variable variable_decl(bool is_visible, bool is_extern) {
        Variable v;
        v.loc = cur().loc;
        v.space = space_of(take().text);
        v.is_visible = is_visible;
        v.is_extern = is_extern;
        while (cur().kind == Tok::Dot) {
            Token d = take();
            if (d.text == ".align") { v.align = expect_uint32("alignment"); continue; }
            if (d.text == ".attribute") { attributes(v, d); continue; }
            if (d.text == ".ptr" || d.text == ".global" || d.text == ".const" || d.text == ".shared" ||
                d.text == ".local") continue;  // pointer attributes of kernel params
            if (d.text.rfind(".v", 0) == 0) fail(d.loc, "vector variables are not supported");
            std::string ty = d.text.substr(1);
            if (type_size(ty) == 0) fail(d.loc, fmt::format("unknown type '{}'", d.text));
            v.type = ty;
            v.elem_size = type_size(ty);
        }
        if (v.type.empty()) fail_here("expected a type in the declaration");
        v.name = expect_ident("a variable name").text;
        while (accept_punct("[")) {
            v.is_array = true;
            if (is_punct("]")) { v.count = 0; take(); continue; }
            const Token size = take();
            const uint64_t n = parse_uint(size), before = v.count == 0 ? 1 : v.count;
            if (n != 0 && before > kMaxVariableBytes / v.elem_size / n)
                fail(size.loc, fmt::format("'{}' would hold more than 2^48 bytes, more than any address space", v.name));
            v.count = before * n;
            expect_punct("]");
        }
        if (v.align == 0) v.align = v.elem_size;
        if ((v.align & (v.align - 1)) != 0) fail(v.loc, fmt::format("alignment {} is not a power of two", v.align));
        if (accept_punct("=")) {
            if (v.type == "texref" || v.type == "samplerref" || v.type == "surfref") opaque_initializer(v);
            else initializer(v);
        }
        return v;
    }

    // ".attribute(.managed)" (and .unified(...), which the model treats as plain global memory).
    void attributes(Variable& v, const Token& at) {
        if (v.space != Space::Global) fail(at.loc, ".attribute applies to .global variables only");
        expect_punct("(");
        do {
            Token a = take();
            if (a.text == ".managed") v.is_managed = true;
            else if (a.text == ".unified") {
                if (accept_punct("(")) { while (!is_punct(")") && cur().kind != Tok::End) take(); expect_punct(")"); }
            } else fail(a.loc, fmt::format("unknown variable attribute '{}'", a.text));
        } while (accept_punct(","));
        expect_punct(")");
    }

    void append_init_value(Variable& v, bool negative, const Token& t) {
        uint64_t bits = 0;
        if (t.kind == Tok::Integer) {
            bits = parse_uint(t);
            if (negative) bits = ~bits + 1;
            if (v.type[0] == 'f') {
                if (v.elem_size == 4) { float f = negative ? -float(parse_uint(t)) : float(parse_uint(t)); std::memcpy(&bits, &f, 4); }
                else { double f = negative ? -double(parse_uint(t)) : double(parse_uint(t)); std::memcpy(&bits, &f, 8); }
            }
        } else if (t.kind == Tok::Float) {
            bits = float_literal_bits(t, v.elem_size == 4);
            if (negative) bits ^= (v.elem_size == 4 ? 0x80000000ull : 0x8000000000000000ull);
        } else if (t.kind == Tok::Ident) {
            address_init(v, negative, t);
            return;
        } else {
            fail(t.loc, fmt::format("expected an initializer value but found {}", describe(t)));
        }
        for (uint32_t b = 0; b < v.elem_size; ++b) v.init.push_back(static_cast<uint8_t>(bits >> (8 * b)));
    }

    // "sym", "sym+N", "generic(sym)" or "generic(sym)+N": the generic and global addresses of a
    // module variable are the same in this model, so both forms hold the variable's address.
    void address_init(Variable& v, bool negative, const Token& t) {
        if (negative) fail(t.loc, "an address initializer cannot be negated");
        if (v.elem_size != 8) fail(t.loc, fmt::format("address initializer '{}' needs a 64-bit element", t.text));
        Variable::AddressInit a;
        a.loc = t.loc;
        a.offset = v.init.size();
        a.symbol = t.text;
        if (t.text == "generic") {
            expect_punct("(");
            a.symbol = expect_ident("a symbol").text;
            expect_punct(")");
        }
        if (accept_punct("+")) a.addend = int64_t(parse_uint(take()));
        v.address_inits.push_back(a);
        v.init.resize(v.init.size() + 8, 0);
    }

    // "{ name = value, ... }": fields of a texture or sampler reference.
    void opaque_initializer(Variable& v) {
        expect_punct("{");
        if (!accept_punct("}")) {
            do {
                Token name = expect_ident("a field name");
                expect_punct("=");
                Token value = take();
                if (value.kind != Tok::Ident && value.kind != Tok::Integer)
                    fail(value.loc, fmt::format("expected a value for '{}' but found {}", name.text, describe(value)));
                v.opaque_init.push_back({name.text, value.text, name.loc});
            } while (accept_punct(","));
            expect_punct("}");
        }
    }

    void initializer(Variable& v) {
        SourceLoc loc = cur().loc;
        int depth = 0;
        do {
            while (accept_punct("{")) ++depth;
            bool neg = accept_punct("-");
            append_init_value(v, neg, take());
            while (depth > 0 && is_punct("}")) { take(); --depth; if (depth > 0 && !is_punct(",")) break; }
        } while (depth > 0 && accept_punct(","));
        if (depth != 0) fail(loc, "unbalanced braces in initializer");
        uint64_t elems = v.init.size() / v.elem_size;
        if (v.count == 0) v.count = elems;
        if (elems > v.count) fail(loc, fmt::format("initializer has {} elements but '{}' holds {}", elems, v.name, v.count));
        v.init.resize(v.size_bytes(), 0);
    }

    // ---- functions ----
    // "(.param .b32 a, .reg .u32 %b)": .param parameters, or registers (the PTX 2 convention).
    std::vector<Variable> param_list() {
        std::vector<Variable> out;
        expect_punct("(");
        if (accept_punct(")")) return out;
        do {
            if (!is_dot(".param") && !is_dot(".reg"))
                fail_here(fmt::format("expected '.param' or '.reg' but found {}", describe(cur())));
            out.push_back(variable_decl(false, false));
        } while (accept_punct(","));
        expect_punct(")");
        return out;
    }

    void function(bool is_visible, bool is_extern) {
        Function fn;
        fn.loc = cur().loc;
        fn.is_entry = take().text == ".entry";
        fn.is_visible = is_visible;
        fn.is_extern = is_extern;
        if (!fn.is_entry && is_punct("(")) fn.return_params = param_list();
        fn.name = expect_ident("a function name").text;
        if (is_punct("(")) fn.params = param_list();
        for (const auto& p : fn.params)
            if (fn.is_entry && p.space == Space::Reg) fail(p.loc, "kernel parameters must be .param, not .reg");
        for (const auto& f : m_mod.functions)
            if (f.name == fn.name && f.has_body)
                fail(fn.loc, fmt::format("function '{}' is defined twice", fn.name));
        while (cur().kind == Tok::Dot) performance_directive(fn);
        m_mod.functions.push_back(std::move(fn));
        if (accept_punct(";")) return;  // prototype
        m_fn = &m_mod.functions.back();
        m_fn->has_body = true;
        block();
        m_fn = nullptr;
    }

    void performance_directive(Function& fn) {
        Token d = take();
        auto dims = [&](uint32_t* out) {
            int k = 0;
            do { if (k == 3) fail(d.loc, "at most 3 dimensions"); out[k++] = expect_uint32("dimension"); } while (accept_punct(","));
            for (; k < 3; ++k) out[k] = 1;
        };
        if (d.text == ".reqntid") { dims(fn.reqntid); return; }
        if (d.text == ".maxntid") { dims(fn.maxntid); return; }
        if (d.text == ".minnctapersm" || d.text == ".maxnctapersm" || d.text == ".maxnreg") { expect_uint32("count"); return; }
        if (d.text == ".noreturn") return;
        if (d.text == ".pragma") { take(); expect_punct(";"); return; }
        fail(d.loc, fmt::format("unknown function directive '{}'", d.text));
    }

    // A { } block of statements with its own scope.
    void block() {
        expect_punct("{");
        m_scopes.emplace_back();
        m_scopes.back().id = ++m_scope_serial;
        if (m_scopes.size() == 1) {
            declare_params(m_fn->params, "\x01p", false);
            declare_params(m_fn->return_params, "\x01r", true);
        }
        while (!is_punct("}")) {
            if (at_end()) fail_here("missing '}' at end of function body");
            body_statement();
        }
        take();
        close_scope();
    }

    // Parameters are names in the outermost scope of the body: .param ones refer to their list
    // (return parameters as -1-k), .reg ones are registers of the function.
    void declare_params(std::vector<Variable>& params, const char* prefix, bool is_return) {
        for (size_t k = 0; k < params.size(); ++k) {
            Variable& p = params[k];
            if (p.space == Space::Reg) {
                if (p.is_array) fail(p.loc, fmt::format("register parameter '{}' cannot be an array", p.name));
                add_reg(p.name, p.type, p.loc);
                p.reg = m_scopes.back().regs.at(p.name);
            } else {
                m_scopes.back().vars[prefix + p.name] = is_return ? -1 - int(k) : int(k);
            }
        }
    }

    // Resolves the scope's label uses; unknown ones move to the enclosing scope.
    void close_scope() {
        Scope s = std::move(m_scopes.back());
        m_scopes.pop_back();
        for (auto [inst, op] : s.pending) {
            Operand& o = label_operand(inst, op);
            auto it = s.labels.find(o.name);
            if (it != s.labels.end()) { o.target = it->second; continue; }
            if (m_scopes.empty()) fail(o.loc, fmt::format("undefined label '{}'", o.name));
            m_scopes.back().pending.emplace_back(inst, op);
        }
        for (auto [table, entry] : s.pending_tables) {
            Operand& o = m_fn->tables[table].entries[entry];
            auto it = s.labels.find(o.name);
            if (it != s.labels.end()) { o.target = it->second; continue; }
            if (m_scopes.empty()) fail(o.loc, fmt::format("undefined label '{}' in .branchtargets", o.name));
            m_scopes.back().pending_tables.emplace_back(table, entry);
        }
    }

    // Operand `op` of instruction `inst`; indices >= 1000 address an element of a vector operand.
    Operand& label_operand(int inst, int op) {
        Instruction& in = m_fn->body[inst];
        if (op < 1000) return in.ops[op];
        return in.ops[op / 1000 - 1].elems[op % 1000];
    }

    void body_statement() {
        const Token& t = cur();
        if (is_punct("{")) { block(); return; }
        if (t.kind == Tok::Dot) {
            if (t.text == ".reg") { reg_decl(); return; }
            if (t.text == ".local" || t.text == ".shared" || t.text == ".const" || t.text == ".param") {
                Variable v = variable_decl(false, false);
                expect_punct(";");
                declare_var(std::move(v));
                return;
            }
            if (t.text == ".loc" || t.text == ".file") { skip_line(t.loc.line); return; }
            if (t.text == ".pragma") { take(); take(); expect_punct(";"); return; }
            fail_here(fmt::format("unknown or unsupported directive {}", describe(t)));
        }
        if (t.kind == Tok::Ident && peek().kind == Tok::Punct && peek().text == ":") {
            Token name = take();
            take();
            if (cur().kind == Tok::Dot && (is_dot(".branchtargets") || is_dot(".calltargets") || is_dot(".callprototype"))) {
                table_decl(name);
                return;
            }
            auto& labels = m_scopes.back().labels;
            if (labels.count(name.text)) fail(name.loc, fmt::format("label '{}' is defined twice", name.text));
            labels[name.text] = static_cast<int>(m_fn->body.size());
            return;
        }
        instruction();
    }

    // "name: .branchtargets L1, L2;", "name: .calltargets f1, f2;" or
    // "name: .callprototype (.param .b32 _) _ (.param .b32 _, ...);".
    void table_decl(const Token& name) {
        Table t;
        t.name = name.text;
        t.loc = name.loc;
        std::string kind = take().text;
        int index = int(m_fn->tables.size());
        if (kind == ".callprototype") {
            t.kind = Table::Kind::CallPrototype;
            if (is_punct("(")) t.rets = param_list();
            Token u = expect_ident("'_' in the prototype");
            if (u.text != "_") fail(u.loc, fmt::format("expected '_' in place of the function name but found '{}'", u.text));
            if (is_punct("(")) t.params = param_list();
            while (is_dot(".noreturn")) take();
        } else {
            t.kind = kind == ".branchtargets" ? Table::Kind::BranchTargets : Table::Kind::CallTargets;
            do {
                Operand o;
                o.loc = cur().loc;
                o.name = expect_ident(t.kind == Table::Kind::BranchTargets ? "a label" : "a function name").text;
                if (t.kind == Table::Kind::CallTargets) {
                    o.kind = Operand::Kind::Symbol;
                    o.sym = lookup_symbol(o.name);
                    if (o.sym.kind != SymbolRef::Kind::Function) fail(o.loc, fmt::format("'{}' is not a function", o.name));
                } else {
                    o.kind = Operand::Kind::Label;
                    m_scopes.back().pending_tables.emplace_back(index, int(t.entries.size()));
                }
                t.entries.push_back(std::move(o));
            } while (accept_punct(","));
        }
        expect_punct(";");
        auto& tables = m_scopes.back().tables;
        if (tables.count(t.name)) fail(t.loc, fmt::format("'{}' is declared twice in this scope", t.name));
        tables[t.name] = index;
        m_fn->tables.push_back(std::move(t));
    }

    int lookup_table(const std::string& name) const {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            auto f = it->tables.find(name);
            if (f != it->tables.end()) return f->second;
        }
        return -1;
    }

    void declare_var(Variable v) {
        auto& vars = m_scopes.back().vars;
        if (vars.count(v.name)) fail(v.loc, fmt::format("'{}' is declared twice in this scope", v.name));
        v.scope = m_scopes.back().id;
        vars[v.name] = static_cast<int>(m_fn->vars.size());
        m_fn->vars.push_back(std::move(v));
    }

    void reg_decl() {
        SourceLoc loc = take().loc;
        std::string type;
        while (cur().kind == Tok::Dot) {
            Token d = take();
            if (d.text.rfind(".v", 0) == 0) fail(d.loc, "vector registers are not supported");
            type = d.text.substr(1);
        }
        if (type != "pred" && type_size(type) == 0) fail(loc, fmt::format("unknown register type '.{}'", type));
        do {
            Token name = expect_ident("a register name");
            if (accept_punct("<")) {
                const Token count = cur();
                uint32_t n = expect_uint32("register count");
                expect_punct(">");
                // Virtual registers cost the loader memory and time; real modules declare thousands.
                if (uint64_t(m_fn->regs.size()) + n > kMaxVirtualRegisters)
                    fail(count.loc, fmt::format("'{}<{}>' would give '{}' {} registers; a function may declare at most {}",
                                                name.text, n, m_fn->name, uint64_t(m_fn->regs.size()) + n, kMaxVirtualRegisters));
                for (uint32_t k = 0; k < n; ++k) add_reg(name.text + std::to_string(k), type, name.loc);
            } else {
                add_reg(name.text, type, name.loc);
            }
        } while (accept_punct(","));
        expect_punct(";");
    }

    void add_reg(const std::string& name, const std::string& type, SourceLoc loc) {
        auto& regs = m_scopes.back().regs;
        if (regs.count(name)) fail(loc, fmt::format("register '{}' is declared twice in this scope", name));
        RegDecl r;
        r.name = name;
        r.type = type;
        r.is_pred = type == "pred";
        r.bits = r.is_pred ? 1 : type_size(type) * 8;
        r.loc = loc;
        regs[name] = static_cast<int>(m_fn->regs.size());
        m_fn->regs.push_back(r);
    }

    int lookup_reg(const std::string& name) const {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            auto f = it->regs.find(name);
            if (f != it->regs.end()) return f->second;
        }
        return -1;
    }

    SymbolRef lookup_symbol(const std::string& name) const {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            auto f = it->vars.find(name);
            if (f != it->vars.end()) return {SymbolRef::Kind::FuncVar, f->second};
        }
        if (!m_scopes.empty()) {
            auto& outer = m_scopes.front().vars;
            if (auto f = outer.find("\x01p" + name); f != outer.end()) return {SymbolRef::Kind::Param, f->second};
            if (auto f = outer.find("\x01r" + name); f != outer.end()) return {SymbolRef::Kind::Param, f->second};
        }
        for (size_t k = 0; k < m_mod.globals.size(); ++k)
            if (m_mod.globals[k].name == name) return {SymbolRef::Kind::ModuleVar, static_cast<int>(k)};
        for (size_t k = 0; k < m_mod.functions.size(); ++k)
            if (m_mod.functions[k].name == name) return {SymbolRef::Kind::Function, static_cast<int>(k)};
        return {};
    }

    void instruction() {
        Instruction in;
        in.loc = cur().loc;
        if (accept_punct("@")) {
            in.guard_negated = accept_punct("!");
            Token p = expect_ident("a predicate register");
            in.guard = lookup_reg(p.text);
            if (in.guard < 0) fail(p.loc, fmt::format("undeclared register '{}'", p.text));
            if (!m_fn->regs[in.guard].is_pred) fail(p.loc, fmt::format("guard '{}' is not a predicate", p.text));
        }
        Token op = expect_ident("an instruction");
        in.loc = op.loc;
        in.opcode = op.text;
        while (cur().kind == Tok::Dot) {
            std::string m = take().text.substr(1);
            while (is_punct(":") && peek().kind == Tok::Punct && peek().text == ":") {  // ".shared::cta"
                take(); take();
                m += "::" + expect_ident("a qualifier").text;
            }
            in.mods.push_back(m);
        }
        int inst_index = static_cast<int>(m_fn->body.size());
        if (!is_punct(";")) {
            do in.ops.push_back(paired_operand()); while (accept_punct(","));
        }
        expect_punct(";");
        check_operand_suffixes(in);
        for (size_t k = 0; k < in.ops.size(); ++k) {
            if (in.ops[k].kind == Operand::Kind::Label) m_scopes.back().pending.emplace_back(inst_index, int(k));
            for (size_t e = 0; e < in.ops[k].elems.size(); ++e)
                if (in.ops[k].elems[e].kind == Operand::Kind::Label)
                    m_scopes.back().pending.emplace_back(inst_index, int((k + 1) * 1000 + e));
        }
        m_fn->body.push_back(std::move(in));
    }

    // "d|p": a value destination with its predicate companion (setp, shfl, match.all).
    Operand paired_operand() {
        Operand first = operand();
        if (!accept_punct("|")) return first;
        Operand pair;
        pair.kind = Operand::Kind::Pair;
        pair.loc = first.loc;
        pair.elems.push_back(std::move(first));
        pair.elems.push_back(operand());
        return pair;
    }

    Operand operand() {
        Operand o;
        o.loc = cur().loc;
        if (accept_punct("[")) { address(o); return o; }
        if (is_punct("{") || is_punct("(")) {
            const char* close = is_punct("{") ? "}" : ")";
            take();
            o.kind = Operand::Kind::Vector;
            if (!is_punct(close)) { do o.elems.push_back(operand()); while (accept_punct(",")); }
            expect_punct(close);
            return o;
        }
        if (accept_punct("!")) {
            o = operand();
            if (o.kind != Operand::Kind::Reg || !m_fn->regs[o.reg].is_pred) fail(o.loc, "'!' applies only to predicate registers");
            o.negate = true;
            return o;
        }
        bool neg = accept_punct("-");
        const Token& t = cur();
        if (t.kind == Tok::Integer || (t.kind == Tok::Ident && t.text == "WARP_SZ")) {
            // WARP_SZ is PTX's predefined identifier for the warp size, 32 on every GPU modelled.
            o.kind = Operand::Kind::Imm;
            o.imm_bits = t.kind == Tok::Integer ? parse_uint(take()) : (take(), kWarpSizeIdentifier);
            if (neg) o.imm_bits = ~o.imm_bits + 1;
            return o;
        }
        if (t.kind == Tok::Float) {
            o.kind = Operand::Kind::Imm;
            Token f = take();
            char c1 = f.text.size() > 1 ? f.text[1] : '\0';
            if (c1 == 'f' || c1 == 'F') { o.imm_kind = Operand::ImmKind::F32Bits; o.imm_bits = float_literal_bits(f, true) ^ (neg ? 0x80000000u : 0); }
            else if (c1 == 'd' || c1 == 'D') { o.imm_kind = Operand::ImmKind::F64Bits; o.imm_bits = float_literal_bits(f, false) ^ (neg ? 0x8000000000000000ull : 0); }
            else { o.imm_kind = Operand::ImmKind::Double; o.imm_double = neg ? -std::stod(f.text) : std::stod(f.text); }
            return o;
        }
        if (neg && !(t.kind == Tok::Ident && lookup_reg(t.text) >= 0)) fail(t.loc, "'-' must be followed by a number or a register");
        Token name = expect_ident("an operand");
        if (name.text == "_") { o.kind = Operand::Kind::Sink; return o; }
        int reg = lookup_reg(name.text);
        if (reg >= 0) {
            o.kind = Operand::Kind::Reg;
            o.reg = reg;
            o.minus = neg;
            if (cur().kind == Tok::Dot) video_selector(o);
            return o;
        }
        if (name.text[0] == '%') {
            if (!is_special_register(name.text)) fail(name.loc, fmt::format("undeclared register '{}'", name.text));
            o.kind = Operand::Kind::Sreg;
            o.name = name.text;
            if (cur().kind == Tok::Dot && cur().loc.col == name.loc.col + int(name.text.size())) o.name += take().text;
            return o;
        }
        o.sym = lookup_symbol(name.text);
        o.name = name.text;
        if (o.sym.kind == SymbolRef::Kind::None) {
            o.target = lookup_table(name.text);
            o.kind = o.target >= 0 ? Operand::Kind::Table : Operand::Kind::Label;
            return o;
        }
        o.kind = Operand::Kind::Symbol;
        if (is_punct("+")) { take(); o.offset = signed_offset(); }
        return o;
    }

    // A video selector after a register: .b and up to 4 byte digits 0-7 (a SIMD source picks 4 of
    // the 8 bytes of a and b), or .h and up to 2 half-word digits 0-3, e.g. ".b0", ".h1", ".h10",
    // ".b3210". Which forms an instruction accepts is the loader's check.
    void video_selector(Operand& o) {
        Token s = take();
        const std::string text = s.text.substr(1);
        const char letter = text.empty() ? '\0' : text[0];
        const size_t max_digits = letter == 'b' ? 4 : 2;
        const char max_digit = letter == 'b' ? '7' : '3';
        bool ok = (letter == 'b' || letter == 'h') && text.size() >= 2 && text.size() <= max_digits + 1;
        for (size_t k = 1; ok && k < text.size(); ++k) ok = text[k] >= '0' && text[k] <= max_digit;
        if (!ok) fail(s.loc, fmt::format("'{}' is not an operand selector", s.text));
        o.selector = text;
    }

    // Selectors ("%r1.b0") belong to the d, a and b operands of video instructions, and negated
    // registers ("-%r1") to the sources of vmad.
    void check_operand_suffixes(const Instruction& in) const {
        for (size_t k = 0; k < in.ops.size(); ++k) {
            const Operand& o = in.ops[k];
            for (const Operand& e : o.elems)
                if (!e.selector.empty() || e.minus) fail(e.loc, "a selector or '-' is only allowed on a plain register operand");
            if (!o.selector.empty() && !is_video_opcode(in.opcode))
                fail(o.loc, fmt::format("operand selector '.{}' is only allowed on video instructions", o.selector));
            if (!o.selector.empty() && k > 2)
                fail(o.loc, fmt::format("operand selector '.{}' is only allowed on d, a and b", o.selector));
            if (o.minus && (in.opcode != "vmad" || k == 0))
                fail(o.loc, "'-' before a register is only allowed on the sources of vmad");
        }
    }

    int64_t signed_offset() {
        bool neg = accept_punct("-");
        uint64_t v = parse_uint(take());
        return neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    }

    void address(Operand& o) {
        o.kind = Operand::Kind::Address;
        if (cur().kind == Tok::Integer) {
            o.offset = static_cast<int64_t>(parse_uint(take()));
        } else {
            Token name = expect_ident("an address");
            o.reg = lookup_reg(name.text);
            if (o.reg < 0) {
                o.sym = lookup_symbol(name.text);
                o.name = name.text;
                if (o.sym.kind == SymbolRef::Kind::None) fail(name.loc, fmt::format("undeclared name '{}' in address", name.text));
            } else if (m_fn->regs[o.reg].is_pred) {
                fail(name.loc, "a predicate cannot be an address");
            }
            if (accept_punct("+")) o.offset = signed_offset();
            else if (accept_punct("-")) o.offset = -static_cast<int64_t>(parse_uint(take()));
            // Texture and surface instructions: [handle, {coordinates}] and [texture, sampler, {coordinates}].
            while (accept_punct(",")) o.elems.push_back(operand());
        }
        expect_punct("]");
    }
};

} // namespace

Module parse(const std::string& file, std::string_view source) {
    return Parser(file, tokenize(file, source)).run();
}

Module parse_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open PTX file", path));
    std::stringstream ss;
    ss << in.rdbuf();
    return parse(path, ss.str());
}

} // namespace gpusim::ptx
