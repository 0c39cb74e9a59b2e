#include "loader/contraction.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace gpusim::loader {

namespace {

using ptx::Function;
using ptx::Instruction;
using ptx::Operand;

bool rounded(const Instruction& pi) {
    for (const char* r : {"rn", "rz", "rm", "rp"})
        if (pi.has_mod(r)) return true;
    return false;
}

std::string float_type(const Instruction& pi) {
    for (const char* t : {"f32", "f64", "f16", "f16x2", "bf16", "bf16x2"})
        if (pi.has_mod(t)) return t;
    return "";
}

bool reg_operand(const Operand& o) { return o.kind == Operand::Kind::Reg && o.reg >= 0; }
bool value_operand(const Operand& o) { return reg_operand(o) || o.kind == Operand::Kind::Imm; }
bool reads_reg(const Operand& o, int r) { return reg_operand(o) && o.reg == r; }

// A product contraction may fuse: its kind, type and .ftz.
struct Form {
    enum class Kind { None, Mul, DivApprox, DivFull } kind = Kind::None;
    std::string type;
    bool ftz = false;
};

Form product_form(const Instruction& pi) {
    // A product may overwrite one of its factors (mul %f1, %f1, 0f3F317218): once it is removed, the
    // register keeps the factor for the fused instructions.
    if (pi.guard >= 0 || pi.ops.size() != 3 || !reg_operand(pi.ops[0]) || !value_operand(pi.ops[1]) || !value_operand(pi.ops[2]))
        return {};
    Form f;
    f.type = float_type(pi);
    f.ftz = pi.has_mod("ftz");
    if (f.type.empty() || rounded(pi)) return {};
    size_t mods = 1 + f.ftz;
    if (pi.opcode == "mul") f.kind = Form::Kind::Mul;
    else if (pi.opcode == "div" && f.type == "f32" && pi.has_mod("approx")) f.kind = Form::Kind::DivApprox, ++mods;
    else if (pi.opcode == "div" && f.type == "f32" && pi.has_mod("full")) f.kind = Form::Kind::DivFull, ++mods;
    if (f.kind == Form::Kind::None || pi.mods.size() != mods) return {};   // .sat, among others, keeps it apart
    return f;
}

// Whether an add or sub can take a product of form `p` (which operand it is is checked apart).
bool takes(const Instruction& pi, const Form& p) {
    if ((pi.opcode != "add" && pi.opcode != "sub") || pi.ops.size() != 3 || !reg_operand(pi.ops[0]) ||
        !value_operand(pi.ops[1]) || !value_operand(pi.ops[2]))
        return false;
    if (!pi.has_mod(p.type) || rounded(pi) || pi.has_mod("ftz") != p.ftz) return false;
    const bool sat = pi.has_mod("sat");
    if (sat && (p.kind != Form::Kind::Mul || p.type != "f32")) return false;   // FFMA.SAT: measured on f32 products only
    return pi.mods.size() == size_t(1 + p.ftz + sat);
}

// A negation of a multiply's product that ptxas folds into the fused multiply.
bool folds_neg(const Instruction& pi, const Form& p) {
    return p.kind == Form::Kind::Mul && pi.opcode == "neg" && pi.guard < 0 && pi.ops.size() == 2 && reg_operand(pi.ops[0]) &&
           reg_operand(pi.ops[1]) && pi.has_mod(p.type) && pi.has_mod("ftz") == p.ftz && pi.mods.size() == size_t(1 + p.ftz);
}

// Opcodes whose first operand is only written. Any other instruction's first operand counts as
// read as well (brx.idx, barrier ids, nanosleep ...), which can only keep a product apart.
bool writes_first_only(const std::string& op) {
    static const char* const names[] = {
        "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max", "sqrt", "rsqrt", "rcp", "sin", "cos",
        "lg2", "ex2", "tanh", "copysign", "testp", "setp", "selp", "set", "slct", "mov", "ld", "ldu", "cvt", "cvta",
        "and", "or", "xor", "not", "cnot", "shl", "shr", "shf", "lop3", "prmt", "bfe", "bfi", "brev", "bfind", "clz",
        "popc", "mul24", "mad24", "sad", "dp4a", "dp2a", "atom", "shfl", "vote"};
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return op == n; });
}

void regs_of(const Operand& o, std::vector<int>& out) {
    if ((o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Address) && o.reg >= 0) out.push_back(o.reg);
    for (const Operand& e : o.elems) regs_of(e, out);
}

struct Access {
    std::vector<int> reads, writes;
};

Access access_of(const Instruction& pi) {
    Access a;
    if (pi.guard >= 0) a.reads.push_back(pi.guard);
    for (size_t k = 1; k < pi.ops.size(); ++k) regs_of(pi.ops[k], a.reads);
    if (pi.ops.empty()) return a;
    const Operand& first = pi.ops[0];
    if (first.kind == Operand::Kind::Address) {   // a store's or a reduction's address
        regs_of(first, a.reads);
        return a;
    }
    regs_of(first, a.writes);
    if (!writes_first_only(pi.opcode)) regs_of(first, a.reads);
    return a;
}

// A read of a product by an add or sub: which operand it is, and whether a neg came between.
struct Use {
    size_t add = 0;
    int operand = 0;
    bool negated = false;
};

// A product and everything that reads it: fused together or not at all.
struct Unit {
    size_t product = 0;
    Form form;
    std::vector<size_t> negs;
    std::vector<Use> uses;
    bool alive = true;
};

class Contraction {
public:
    explicit Contraction(Function& fn) : m_fn(fn), m_body(fn.body) {}
    ContractionCounts run();

private:
    Function& m_fn;
    std::vector<Instruction>& m_body;
    std::vector<size_t> m_block_start, m_block_end;   // per instruction: its block's first index, and the first past it
    std::vector<std::vector<size_t>> m_reads, m_writes;   // per register: the instructions, ascending
    std::vector<Unit> m_units;

    void find_blocks();
    void find_accesses();
    bool local_reads(size_t at, int r, std::vector<size_t>& out) const;
    bool written_between(int r, size_t from, size_t to) const;
    bool stable(const Instruction& product, size_t from, size_t to) const;
    bool gather(Unit& u, size_t at, int r, bool negated) const;
    void settle();
    void rewrite(const Unit& u);
    void remove(const std::vector<bool>& removed);
};

// Blocks start at each label's instruction and after each transfer of control.
void Contraction::find_blocks() {
    const size_t n = m_body.size();
    std::vector<bool> leader(n + 1, false);
    auto mark = [&](const Operand& o) {
        if (o.kind == Operand::Kind::Label && o.target >= 0 && size_t(o.target) <= n) leader[size_t(o.target)] = true;
    };
    for (size_t i = 0; i < n; ++i) {
        for (const Operand& o : m_body[i].ops) {
            mark(o);
            for (const Operand& e : o.elems) mark(e);
        }
        const std::string& op = m_body[i].opcode;
        if (op == "bra" || op == "brx" || op == "ret" || op == "exit" || op == "call" || op == "trap") leader[i + 1] = true;
    }
    for (const auto& t : m_fn.tables)
        for (const Operand& e : t.entries) mark(e);
    m_block_end.assign(n, n);
    for (size_t i = n; i-- > 0;) m_block_end[i] = leader[i + 1] || i + 1 == n ? i + 1 : m_block_end[i + 1];
    m_block_start.assign(n, 0);
    for (size_t i = 1; i < n; ++i) m_block_start[i] = leader[i] ? i : m_block_start[i - 1];
}

void Contraction::find_accesses() {
    for (size_t i = 0; i < m_body.size(); ++i) {
        const Access a = access_of(m_body[i]);
        auto note = [&](std::vector<std::vector<size_t>>& lists, int r) {
            if (size_t(r) >= lists.size()) lists.resize(size_t(r) + 1);
            if (lists[size_t(r)].empty() || lists[size_t(r)].back() != i) lists[size_t(r)].push_back(i);
        };
        for (int r : a.reads) note(m_reads, r);
        for (int r : a.writes) note(m_writes, r);
    }
    const size_t regs = std::max(m_reads.size(), m_writes.size());
    m_reads.resize(regs);
    m_writes.resize(regs);
}

// The reads of the value that instruction `at` writes into register `r`: those up to the next
// write of `r` in the block. False when the value may be read elsewhere too (it may outlive the
// block, or a guarded write may leave it in place).
bool Contraction::local_reads(size_t at, int r, std::vector<size_t>& out) const {
    const size_t start = m_block_start[at], end = m_block_end[at];
    size_t kill = end;
    for (size_t w : m_writes[size_t(r)]) {
        if (w <= at || w >= end) continue;
        if (m_body[w].guard >= 0) return false;
        kill = w;
        break;
    }
    for (size_t rd : m_reads[size_t(r)]) {
        if (rd > at && rd <= kill && rd < end) out.push_back(rd);
        else if (kill < end || rd == at) continue;   // reads of other values of the register
        else if (!written_between(r, start, rd)) return false;   // the value may reach it around a loop, or out of the block
    }
    return true;
}

// Whether register `r` is written in [from, to): a read at `to` in the same block sees that value.
bool Contraction::written_between(int r, size_t from, size_t to) const {
    if (from > to || m_block_start[to] != from) return false;
    const auto& w = m_writes[size_t(r)];
    return std::any_of(w.begin(), w.end(), [&](size_t k) { return k >= from && k < to; });
}

// Whether the product's registers keep their values from `from` up to the add at `to`, where the
// fused instruction reads them.
bool Contraction::stable(const Instruction& product, size_t from, size_t to) const {
    for (size_t k = 1; k <= 2; ++k) {
        if (!reg_operand(product.ops[k])) continue;
        for (size_t w : m_writes[size_t(product.ops[k].reg)])
            if (w > from && w < to) return false;
    }
    return true;
}

// Collects the adds that read the value `at` writes into `r` (through at most one neg); false
// when anything else reads it.
bool Contraction::gather(Unit& u, size_t at, int r, bool negated) const {
    std::vector<size_t> reads;
    if (!local_reads(at, r, reads)) return false;
    for (size_t rd : reads) {
        const Instruction& user = m_body[rd];
        if (!negated && folds_neg(user, u.form) && user.ops[1].reg == r) {
            if (!gather(u, rd, user.ops[0].reg, true)) return false;
            u.negs.push_back(rd);
            continue;
        }
        if (!takes(user, u.form)) return false;
        const bool first = reads_reg(user.ops[1], r), second = reads_reg(user.ops[2], r);
        if (first == second || !stable(m_body[u.product], u.product, rd)) return false;
        u.uses.push_back({rd, first ? 1 : 2, negated});
    }
    return true;
}

// Each add fuses its first operand's product where that one is still a candidate, else its
// second's; a product some add passes over is fused into none. Repeated until nothing changes.
void Contraction::settle() {
    std::vector<std::array<int, 3>> unit_of(m_body.size(), std::array<int, 3>{-1, -1, -1});
    for (size_t k = 0; k < m_units.size(); ++k)
        for (const Use& use : m_units[k].uses) unit_of[use.add][size_t(use.operand)] = int(k);
    auto chosen = [&](size_t add) {
        for (int k = 1; k <= 2; ++k) {
            const int id = unit_of[add][size_t(k)];
            if (id >= 0 && m_units[size_t(id)].alive) return k;
        }
        return 0;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (Unit& u : m_units) {
            if (!u.alive) continue;
            for (const Use& use : u.uses)
                if (chosen(use.add) != use.operand) {
                    u.alive = false;
                    changed = true;
                    break;
                }
        }
    }
}

// Each add of the unit becomes d = [-]a * b + [-]other.
void Contraction::rewrite(const Unit& u) {
    const Instruction& product = m_body[u.product];
    for (const Use& use : u.uses) {
        Instruction& add = m_body[use.add];
        const bool sub = add.opcode == "sub";
        Instruction f;
        f.contracted_from = product.full_name() + (use.negated ? " + neg" : "") + " + " + add.full_name();
        if (u.form.kind == Form::Kind::Mul) {
            f.opcode = "fma";
            f.mods = {"rn"};
        } else {
            f.opcode = "div+add";
            f.mods = {u.form.kind == Form::Kind::DivApprox ? "approx" : "full"};
        }
        if (u.form.ftz) f.mods.push_back("ftz");
        if (add.has_mod("sat")) f.mods.push_back("sat");
        f.mods.push_back(u.form.type);
        f.guard = add.guard;
        f.guard_negated = add.guard_negated;
        f.loc = add.loc;
        Operand a = product.ops[1], b = product.ops[2], c = add.ops[size_t(3 - use.operand)];
        a.minus = use.negated != (sub && use.operand == 2);   // x - a*b = -a*b + x
        c.minus = sub && use.operand == 1;                    // a*b - x = a*b + -x
        f.ops = {add.ops[0], a, b, c};
        add = std::move(f);
    }
}

// Drops the removed instructions; a label on one moves to the next that stays.
void Contraction::remove(const std::vector<bool>& removed) {
    const size_t n = m_body.size();
    std::vector<int> index(n + 1);
    int next = 0;
    for (size_t i = 0; i <= n; ++i) {
        index[i] = next;
        if (i < n && !removed[i]) ++next;
    }
    auto relabel = [&](Operand& o, auto& self) -> void {
        if (o.kind == Operand::Kind::Label && o.target >= 0 && size_t(o.target) <= n) o.target = index[size_t(o.target)];
        for (Operand& e : o.elems) self(e, self);
    };
    for (Instruction& pi : m_body)
        for (Operand& o : pi.ops) relabel(o, relabel);
    for (auto& t : m_fn.tables)
        for (Operand& e : t.entries) relabel(e, relabel);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        if (removed[i]) continue;
        if (k != i) m_body[k] = std::move(m_body[i]);
        ++k;
    }
    m_body.resize(k);
}

ContractionCounts Contraction::run() {
    if (m_body.empty()) return {};
    find_blocks();
    find_accesses();
    for (size_t p = 0; p < m_body.size(); ++p) {
        Unit u;
        u.product = p;
        u.form = product_form(m_body[p]);
        if (u.form.kind == Form::Kind::None) continue;
        if (gather(u, p, m_body[p].ops[0].reg, false) && !u.uses.empty()) m_units.push_back(std::move(u));
    }
    settle();
    ContractionCounts counts;
    std::vector<bool> removed(m_body.size(), false);
    for (const Unit& u : m_units) {
        if (!u.alive) continue;
        rewrite(u);
        removed[u.product] = true;
        for (size_t k : u.negs) removed[k] = true;
        counts.fused += uint32_t(u.uses.size());
        counts.removed += uint32_t(1 + u.negs.size());
    }
    if (counts.removed) remove(removed);
    return counts;
}

} // namespace

ContractionCounts contract(Function& fn) { return Contraction(fn).run(); }

ContractionCounts contract(ptx::Module& mod) {
    ContractionCounts all;
    for (Function& fn : mod.functions) {
        if (!fn.has_body) continue;
        const ContractionCounts c = contract(fn);
        all.fused += c.fused;
        all.removed += c.removed;
    }
    return all;
}

} // namespace gpusim::loader
