#include "loader/load_hoisting.h"

#include <string>

#include "loader/row_reads.h"

namespace gpusim::loader {

namespace {

// A weak load that may move: `ld.` of a space whose value no other instruction of the block
// writes, not strong (.volatile, .relaxed, .acquire set kOrderStrong), not ordered with other SMs.
bool movable_load(const KernelImage& img, const Inst& in) {
    if (in.op_class != OpClass::Memory || (in.dest_flags & (kMemStore | kMemAtomic | kOrdered | kMatrixRows))) return false;
    if ((in.aux & kOrderStrong) || img.text[in.text_index].compare(0, 3, "ld.") != 0) return false;
    switch (in.space) {
    case MemSpace::Global:
    case MemSpace::Shared:
    case MemSpace::Local:
    case MemSpace::Const:
    case MemSpace::Param:
    case MemSpace::Generic: return true;
    default: return false;
    }
}

// Register arithmetic a load may pass: no memory, control, barrier, fence, special-register or
// cross-lane effect.
bool passable(const Inst& in) {
    switch (in.op_class) {
    case OpClass::Memory:
    case OpClass::Branch:
    case OpClass::Barrier:
    case OpClass::Fence:
    case OpClass::Misc:
    case OpClass::Warp:
    case OpClass::Tensor: return false;
    default: return !(in.dest_flags & (kMatrixRows | kOrdered));
    }
}

bool writes_pred(const Inst& in, int p) { return p >= 0 && (in.pd == p || ((in.dest_flags & kDestPb) && in.pb == p)); }

// Whether load `l` may move above `x`: x does not write what l reads (its address, its guard),
// and does not read or write what l writes.
bool independent(const KernelImage& img, const Inst& l, const Inst& x) {
    std::vector<Row> cross;
    bool clash = writes_pred(x, l.guard);
    for_each_def(img, x, [&](Row w) { for_each_read(img, l, [&](Row r) { clash |= r == w; }, cross); });
    for_each_def(img, l, [&](Row w) {
        for_each_def(img, x, [&](Row r) { clash |= r == w; });
        for_each_read(img, x, [&](Row r) { clash |= r == w; }, cross);
    });
    return !clash && cross.empty();
}

} // namespace

void hoist_loads(KernelImage& img, std::vector<Flow>& flow) {
    if (img.functions.size() != 1 || !img.calls.empty() || flow.size() > img.code.size()) return;
    const ControlFlowGraph cfg(flow);
    for (const BasicBlock& b : cfg.blocks()) {
        for (uint32_t i = b.first + 1; i <= b.last; ++i) {
            if (!movable_load(img, img.code[i])) continue;
            uint32_t at = i;
            while (at > b.first && passable(img.code[at - 1]) && independent(img, img.code[i], img.code[at - 1])) --at;
            if (at == i) continue;
            // Rotate [at, i] right by one: the load first, the instructions it passed after it.
            for (uint32_t k = i; k > at; --k) {
                std::swap(img.code[k], img.code[k - 1]);
                std::swap(flow[k], flow[k - 1]);
            }
        }
    }
}

} // namespace gpusim::loader
