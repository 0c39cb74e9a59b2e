#include "ptx/parser.h"

#include <fstream>
#include <sstream>

#include "ptx/parser_state.h"

namespace gpusim::ptx {
namespace detail {

// Function bodies: scopes, registers, labels, instructions and their operands.
// "(.param .b32 a, .reg .u32 %b)": .param parameters, or registers (the PTX 2 convention).
std::vector<Variable> Parser::param_list() {
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

void Parser::function(bool is_visible, bool is_extern) {
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

void Parser::performance_directive(Function& fn) {
    Token d = take();
    auto dims = [&](uint32_t* out) {
        int k = 0;
        do { if (k == 3) fail(d.loc, "at most 3 dimensions"); out[k++] = expect_uint32("dimension"); } while (accept_punct(","));
        for (; k < 3; ++k) out[k] = 1;
    };
    if (d.text == ".reqntid") { dims(fn.reqntid); return; }
    if (d.text == ".maxntid") { dims(fn.maxntid); return; }
    if (d.text == ".minnctapersm" || d.text == ".maxnctapersm" || d.text == ".maxnreg") { expect_uint32("count"); return; }
    if (d.text == ".noreturn" || d.text == ".explicitcluster") return;
    if (d.text == ".maxclusterrank") { expect_uint32("count"); return; }
    // The model runs every kernel as clusters of one block: a kernel that needs more is refused.
    if (d.text == ".reqnctapercluster") {
        uint32_t n[3];
        dims(n);
        if (uint64_t(n[0]) * n[1] * n[2] != 1)
            fail(d.loc, fmt::format("a cluster of {}x{}x{} blocks: clusters of more than one block are out of scope", n[0], n[1], n[2]));
        return;
    }
    if (d.text == ".pragma") { take(); expect_punct(";"); return; }
    fail(d.loc, fmt::format("unknown function directive '{}'", d.text));
}

// A { } block of statements with its own scope.
void Parser::block() {
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
void Parser::declare_params(std::vector<Variable>& params, const char* prefix, bool is_return) {
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
void Parser::close_scope() {
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
Operand& Parser::label_operand(int inst, int op) {
    Instruction& in = m_fn->body[inst];
    if (op < 1000) return in.ops[op];
    return in.ops[op / 1000 - 1].elems[op % 1000];
}

void Parser::body_statement() {
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
void Parser::table_decl(const Token& name) {
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

int Parser::lookup_table(const std::string& name) const {
    for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
        auto f = it->tables.find(name);
        if (f != it->tables.end()) return f->second;
    }
    return -1;
}

void Parser::declare_var(Variable v) {
    auto& vars = m_scopes.back().vars;
    if (vars.count(v.name)) fail(v.loc, fmt::format("'{}' is declared twice in this scope", v.name));
    v.scope = m_scopes.back().id;
    vars[v.name] = static_cast<int>(m_fn->vars.size());
    m_fn->vars.push_back(std::move(v));
}

void Parser::reg_decl() {
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

void Parser::add_reg(const std::string& name, const std::string& type, SourceLoc loc) {
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

int Parser::lookup_reg(const std::string& name) const {
    for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
        auto f = it->regs.find(name);
        if (f != it->regs.end()) return f->second;
    }
    return -1;
}

SymbolRef Parser::lookup_symbol(const std::string& name) const {
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

void Parser::instruction() {
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
Operand Parser::paired_operand() {
    Operand first = operand();
    if (!accept_punct("|")) return first;
    Operand pair;
    pair.kind = Operand::Kind::Pair;
    pair.loc = first.loc;
    pair.elems.push_back(std::move(first));
    pair.elems.push_back(operand());
    return pair;
}

Operand Parser::operand() {
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
        else { o.imm_kind = Operand::ImmKind::Double; o.imm_double = neg ? -decimal_literal(f.text) : decimal_literal(f.text); }
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
void Parser::video_selector(Operand& o) {
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
void Parser::check_operand_suffixes(const Instruction& in) const {
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

int64_t Parser::signed_offset() {
    bool neg = accept_punct("-");
    uint64_t v = parse_uint(take());
    return neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

void Parser::address(Operand& o) {
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

} // namespace detail

Module parse(const std::string& file, std::string_view source) {
    return detail::Parser(file, tokenize(file, source)).run();
}

Module parse_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open PTX file", path));
    std::stringstream ss;
    ss << in.rdbuf();
    return parse(path, ss.str());
}

} // namespace gpusim::ptx
