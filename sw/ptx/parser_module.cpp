// The module level of the PTX parser: directives, variable declarations and their initializers.
#include <cstring>

#include "ptx/parser_state.h"

namespace gpusim::ptx::detail {

void Parser::module_statement() {
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

Space Parser::space_of(const std::string& d) const {
    if (d == ".global") return Space::Global;
    if (d == ".const") return Space::Const;
    if (d == ".shared") return Space::Shared;
    if (d == ".local") return Space::Local;
    if (d == ".param") return Space::Param;
    if (d == ".reg") return Space::Reg;
    return Space::None;
}

// "<space> [.align N] [.ptr...] .type name[N][M] [= init]" without the trailing ';'.
Variable Parser::variable_decl(bool is_visible, bool is_extern) {
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
void Parser::attributes(Variable& v, const Token& at) {
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

void Parser::append_init_value(Variable& v, bool negative, const Token& t) {
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
void Parser::address_init(Variable& v, bool negative, const Token& t) {
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
void Parser::opaque_initializer(Variable& v) {
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

void Parser::initializer(Variable& v) {
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

} // namespace gpusim::ptx::detail
