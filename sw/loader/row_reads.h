// Which register rows an instruction reads and writes, for the loader's analyses over a kernel's code
// (register_init.cpp, ordering.cpp, register_pressure.cpp, load_hoisting.cpp).
#pragma once

#include <vector>

#include "isa/isa.h"

namespace gpusim::loader {

// Every row an instruction reads. Warp instructions (shfl, match, redux, vote) read other lanes'
// registers, whatever this thread wrote: their sources go to `cross_lane`. A video instruction
// with a destination selector merges into d, so it reads d too.
template <class F>
void for_each_read(const KernelImage& img, const Inst& in, F&& read, std::vector<Row>& cross_lane) {
    auto source = [&](Row r) {
        if (r < 0) return;
        if (in.op_class == OpClass::Warp) cross_lane.push_back(r);
        else read(r);
    };
    for (Row r : {in.a, in.b, in.c}) source(r);
    if (!(in.dest_flags & kDestVec))
        for (Row r : in.vec) source(r);
    if (in.op_class == OpClass::Video || in.op_class == OpClass::VideoAbsdiff) source(in.d);
    // mma and wmma read other lanes' registers; wmma.store and stmatrix store them.
    if (in.dest_flags & kMatrixRows) {
        const MatrixOperands& o = img.matrix_operands[in.target];
        for (const auto* list : {&o.a, &o.b, &o.c})
            for (Row r : *list) cross_lane.push_back(r);
    }
    if (in.space == MemSpace::Texture && in.target < img.tex_operands.size()) {
        const TexOperands& o = img.tex_operands[in.target];
        for (Row r : o.coord) source(r);
        for (Row r : o.value) source(r);
        source(o.handle);
        source(o.sampler);
    }
}

// Every row an instruction writes when it executes: d, a vector's destinations, an mma's D.
template <class F>
void for_each_def(const KernelImage& img, const Inst& in, F&& def) {
    if (in.d >= 0) def(in.d);
    if (in.dest_flags & kDestVec)
        for (Row r : in.vec)
            if (r >= 0) def(r);
    if (in.dest_flags & kMatrixRows)
        for (Row r : img.matrix_operands[in.target].d) def(r);
}

// Register arithmetic: no memory, control, barrier, fence, time-register or cross-lane effect
// (an instruction the loader may move, or reason about from its operands alone).
inline bool register_arithmetic(const Inst& in) {
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

// The operands of an instruction without cross-lane reads as keys: register rows (immediates left
// out), then predicates after the rows (key num_regs + p). `set` writes scratch predicates of its
// own in pd and pb; pb counts as read, which no other instruction touches.
template <class F>
void for_each_key_read(const KernelImage& img, const Inst& in, F&& f) {
    std::vector<Row> cross;
    for_each_read(img, in, [&](Row r) { if (r >= 0) f(int64_t(r)); }, cross);
    for (Row r : cross) f(int64_t(r));
    const int64_t preds = int64_t(img.num_regs);
    for (int16_t p : {in.guard, in.pa, in.pc})
        if (p >= 0) f(preds + p);
    if (in.pb >= 0 && !(in.dest_flags & kDestPb)) f(preds + in.pb);
}

template <class F>
void for_each_key_def(const KernelImage& img, const Inst& in, F&& f) {
    for_each_def(img, in, [&](Row r) { if (r >= 0) f(int64_t(r)); });
    const int64_t preds = int64_t(img.num_regs);
    if (in.pd >= 0) f(preds + in.pd);
    if (in.pb >= 0 && (in.dest_flags & kDestPb)) f(preds + in.pb);
}

} // namespace gpusim::loader
