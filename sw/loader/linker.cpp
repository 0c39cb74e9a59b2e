// Builds a kernel image: the kernel and every function it can call (directly, or through a
// function address), laid out one after another in one code array, with the static shared memory
// of all of them and the per-thread local memory their deepest call chain needs.
#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "loader/image_builder.h"
#include "loader/ordering.h"
#include "loader/register_init.h"
#include "loader/atomic_aggregation.h"
#include "loader/load_hoisting.h"
#include "loader/register_pressure.h"

namespace gpusim::loader {

Row ImageBuilder::pool_row(uint64_t value, int width_class) {
    auto key = std::make_pair(value, width_class);
    auto it = m_pool_index.find(key);
    if (it != m_pool_index.end()) return it->second;
    size_t k = img->imm_pool.size() / kWarpSize;
    img->imm_pool.insert(img->imm_pool.end(), kWarpSize, value);
    Row r = -1 - Row(k);
    m_pool_index[key] = r;
    return r;
}

Row ImageBuilder::special_row(SpecialReg sr) {
    for (auto& [r, row] : img->special_rows)
        if (r == sr) return row;
    Row row = Row(next_row++);
    img->special_rows.emplace_back(sr, row);
    return row;
}

// A predicate register that always holds `value` (allocated once per image).
int ImageBuilder::constant_pred(bool value) {
    int& slot = value ? m_true_pred : m_false_pred;
    if (slot < 0) {
        slot = int(img->num_preds++);
        img->constant_preds.emplace_back(slot, value);
    }
    return slot;
}

uint32_t function_definition(const ptx::Module& mod, const std::string& name) {
    int first = -1;
    for (size_t k = 0; k < mod.functions.size(); ++k) {
        if (mod.functions[k].name != name) continue;
        if (mod.functions[k].has_body) return uint32_t(k);
        if (first < 0) first = int(k);
    }
    return uint32_t(first);
}

namespace {

using ptx::Operand;
using ptx::Space;
using ptx::SymbolRef;

// What a body refers to: functions it calls by name, functions whose address it takes, and
// whether it makes an indirect call.
struct References {
    std::vector<std::string> called, taken;
    bool indirect = false;
};

References references_of(const ptx::Function& fn) {
    References r;
    std::function<void(const Operand&)> visit = [&](const Operand& o) {
        if (o.kind == Operand::Kind::Symbol && o.sym.kind == SymbolRef::Kind::Function) r.taken.push_back(o.name);
        for (const Operand& e : o.elems) visit(e);
    };
    for (const auto& pi : fn.body) {
        if (pi.opcode != "call") {
            for (const Operand& o : pi.ops) visit(o);
            continue;
        }
        for (const Operand& o : pi.ops) {
            if (o.kind == Operand::Kind::Symbol && o.sym.kind == SymbolRef::Kind::Function) r.called.push_back(o.name);
            else if (o.kind == Operand::Kind::Reg) r.indirect = true;
            else if (o.kind == Operand::Kind::Vector) for (const Operand& e : o.elems) visit(e);
        }
    }
    for (const auto& t : fn.tables)
        if (t.kind == ptx::Table::Kind::CallTargets)
            for (const Operand& e : t.entries) r.taken.push_back(e.name);
    return r;
}

// Every function whose address the module takes: in any body or in a variable's initializer.
std::vector<std::string> address_taken(const ptx::Module& mod) {
    std::vector<std::string> out;
    for (const auto& fn : mod.functions) {
        References r = references_of(fn);
        out.insert(out.end(), r.taken.begin(), r.taken.end());
    }
    for (const auto& v : mod.globals)
        for (const auto& ai : v.address_inits)
            if (mod.find_function(ai.symbol)) out.push_back(ai.symbol);
    return out;
}

// The root and every function with a body it may reach. An indirect call may reach any function
// whose address the module takes.
std::vector<uint32_t> reachable(const ptx::Module& mod, uint32_t root) {
    std::vector<uint32_t> order{root};
    std::set<uint32_t> seen{root};
    bool indirect_added = false;
    auto add = [&](const std::string& name) {
        uint32_t k = function_definition(mod, name);
        if (k < mod.functions.size() && mod.functions[k].has_body && !mod.functions[k].is_entry && seen.insert(k).second) order.push_back(k);
    };
    for (size_t i = 0; i < order.size(); ++i) {
        References r = references_of(mod.functions[order[i]]);
        for (const auto& n : r.called) add(n);
        for (const auto& n : r.taken) add(n);
        if (r.indirect && !indirect_added) {
            indirect_added = true;
            for (const auto& n : address_taken(mod)) add(n);
        }
    }
    return order;
}

// Static shared memory: the module's shared variables the image names, then the functions' own.
void layout_shared(ImageBuilder& b) {
    std::vector<int> used;
    for (uint32_t f : b.linked)
        for (const auto& pi : b.mod.functions[f].body)
            for (const auto& o : pi.ops) {
                const SymbolRef& s = o.sym;
                if (s.kind == SymbolRef::Kind::ModuleVar && b.mod.globals[s.index].space == Space::Shared &&
                    std::find(used.begin(), used.end(), s.index) == used.end())
                    used.push_back(s.index);
            }
    std::sort(used.begin(), used.end());
    uint64_t off = 0;
    uint32_t dyn_align = 16;
    for (int k : used) {
        const auto& v = b.mod.globals[k];
        if (v.is_extern && v.count == 0) { dyn_align = std::max(dyn_align, v.align); continue; }
        off = align_up(off, v.align);
        b.shared_offset[k] = off;
        off += v.size_bytes();
    }
    for (uint32_t f : b.linked) {
        const auto& vars = b.mod.functions[f].vars;
        for (size_t k = 0; k < vars.size(); ++k) {
            if (vars[k].space != Space::Shared) continue;
            off = align_up(off, vars[k].align);
            b.fn_shared_offset[{f, int(k)}] = off;
            off += vars[k].size_bytes();
        }
    }
    b.img->static_shared_bytes = uint32_t(off);
    b.img->dynamic_shared_align = dyn_align;
    for (int k : used) {
        const auto& v = b.mod.globals[k];
        if (v.is_extern && v.count == 0) b.shared_offset[k] = align_up(off, dyn_align);
    }
}

// Local memory per thread: the root's frame and the deepest chain of frames above it (each callee's
// frame begins at its caller's call area), unless the calls can recurse: then the SM adds its
// configured stack and a call checks for overflow.
void size_stack(KernelImage& img) {
    const size_t n = img.functions.size();
    std::vector<std::vector<uint32_t>> callees(n);
    for (const CallSite& cs : img.calls) {
        if (cs.callee >= 0) { callees[cs.caller].push_back(uint32_t(cs.callee)); continue; }
        for (uint32_t f = 1; f < n; ++f)
            if (cs.allowed.empty() || std::count(cs.allowed.begin(), cs.allowed.end(), img.functions[f].module_index))
                callees[cs.caller].push_back(f);
    }
    enum : uint8_t { kNew, kOpen, kDone };
    std::vector<uint8_t> state(n, kNew);
    std::vector<uint64_t> depth(n, 0);
    std::function<void(uint32_t)> visit = [&](uint32_t f) {
        state[f] = kOpen;
        uint64_t deepest = 0;
        for (uint32_t g : callees[f]) {
            if (state[g] == kOpen) img.recursive = true;
            if (state[g] == kNew) visit(g);
            deepest = std::max(deepest, depth[g]);
        }
        depth[f] = std::max<uint64_t>(img.functions[f].frame_bytes, img.functions[f].call_area + deepest);
        state[f] = kDone;
    };
    visit(0);
    uint64_t bytes = img.recursive ? img.functions[0].frame_bytes : depth[0];
    if (bytes > UINT32_MAX / 2) throw ptx::PtxError(img.module_file, {}, fmt::format("kernel '{}' needs {} bytes of local memory per thread", img.name, bytes));
    img.local_bytes = uint32_t(bytes);
}

std::shared_ptr<KernelImage> build_image(const ptx::Module& mod, uint32_t root, const VariableAddresses& addresses,
                                         std::vector<ptx::PtxError>* errors, const DecodeOptions& options = {}) {
    ImageBuilder b(mod, addresses, errors);
    KernelImage& img = *b.img;
    img.name = mod.functions[root].name;
    img.module_file = mod.file;
    b.linked = reachable(mod, root);
    img.function_of_module.assign(mod.functions.size(), -1);
    for (size_t k = 0; k < b.linked.size(); ++k) img.function_of_module[b.linked[k]] = int32_t(k);
    img.functions.resize(b.linked.size());
    layout_shared(b);
    for (uint32_t k = 0; k < b.linked.size(); ++k) {
        try {
            decode_function(b, k);
        } catch (const ptx::PtxError& e) {
            if (!errors) throw;
            errors->push_back(e);
        }
    }
    img.num_regs = b.next_row;
    img.regs_per_thread = b.kernel_words + b.function_words;
    size_stack(img);
    find_rows_to_zero(img, b.kernel_flow);
    img.live_regs_per_thread = most_live_words(img, b.kernel_flow, b.row_words);   // in the PTX's order, as ptxas balances
    mark_ordered(img);
    if (options.aggregate_atomics) mark_aggregated_atomics(img);
    if (options.hoist_loads) hoist_loads(img, b.kernel_flow, options.latencies);
    return b.img;
}

} // namespace

std::shared_ptr<KernelImage> decode_kernel(const ptx::Module& mod, const ptx::Function& fn,
                                           const VariableAddresses& addresses, std::vector<ptx::PtxError>* errors,
                                           const DecodeOptions& options) {
    if (!fn.is_entry) throw ptx::PtxError(mod.file, fn.loc, fmt::format("'{}' is not a kernel entry", fn.name));
    return build_image(mod, uint32_t(&fn - mod.functions.data()), addresses, errors, options);
}

std::vector<ptx::PtxError> check_module(const ptx::Module& mod) {
    std::vector<ptx::PtxError> all;
    VariableAddresses fake(mod.globals.size(), 0);
    std::set<uint32_t> covered;
    auto check = [&](uint32_t root) {
        try {
            auto img = build_image(mod, root, fake, &all);
            for (const auto& f : img->functions) covered.insert(f.module_index);
        } catch (const ptx::PtxError& e) {
            all.push_back(e);
        }
    };
    for (uint32_t k = 0; k < mod.functions.size(); ++k)
        if (mod.functions[k].has_body && mod.functions[k].is_entry) check(k);
    // Functions no kernel reaches are checked on their own.
    for (uint32_t k = 0; k < mod.functions.size(); ++k)
        if (mod.functions[k].has_body && !covered.count(k)) check(k);
    // A function linked into several kernels reports each problem once.
    std::vector<ptx::PtxError> out;
    std::set<std::string> seen;
    for (auto& e : all)
        if (seen.insert(e.what()).second) out.push_back(e);
    return out;
}

} // namespace gpusim::loader
