#include "loader/ordering.h"

#include <vector>

#include "loader/row_reads.h"

namespace gpusim::loader {

namespace {

// Every row some instruction or call of the image reads (a call's arguments and results included).
std::vector<bool> rows_read(const KernelImage& img) {
    std::vector<bool> read(img.num_regs, false);
    std::vector<Row> cross_lane;
    const auto mark = [&](Row r) {
        if (r >= 0 && size_t(r) < read.size()) read[size_t(r)] = true;
    };
    for (const Inst& in : img.code) for_each_read(img, in, mark, cross_lane);
    for (Row r : cross_lane) mark(r);
    for (const CallSite& c : img.calls) {
        for (const FrameSlot& s : c.args) mark(s.row);
        for (const FrameSlot& s : c.rets) mark(s.row);
    }
    for (const FunctionImage& f : img.functions)
        for (const FrameSlot& s : f.rets) mark(s.row);
    return read;
}

bool global(const Inst& in) { return in.space == MemSpace::Global || in.space == MemSpace::Generic; }

} // namespace

void mark_ordered(KernelImage& img) {
    const std::vector<bool> read = rows_read(img);
    for (Inst& in : img.code) {
        bool ordered = false;
        if (in.op_class == OpClass::Memory && global(in)) {
            if (in.dest_flags & kMemAtomic) {
                const bool result_read = in.d >= 0 && read[size_t(in.d)];
                ordered = !(in.aux & kAtomCommutes) || result_read;
            } else {
                ordered = in.aux & kOrderStrong;
            }
        } else if (in.space == MemSpace::Texture && in.target < img.tex_operands.size()) {
            ordered = img.tex_operands[in.target].op == TexOperands::Op::SurfReduce;
        }
        if (ordered) in.dest_flags |= kOrdered;
    }
    bool apart_reduction = false, any_ordered = false;
    for (const Inst& in : img.code) {
        any_ordered |= (in.dest_flags & kOrdered) != 0;
        apart_reduction |= in.op_class == OpClass::Memory && global(in) && (in.dest_flags & kMemAtomic) && !(in.dest_flags & kOrdered);
    }
    img.reductions_meet_ordered = apart_reduction && any_ordered;
}

} // namespace gpusim::loader
