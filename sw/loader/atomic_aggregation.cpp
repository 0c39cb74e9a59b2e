#include "loader/atomic_aggregation.h"

#include <vector>

#include "loader/row_reads.h"

namespace gpusim::loader {

namespace {

bool lane_varying(SpecialReg r) {
    switch (r) {
    case SpecialReg::TidX:
    case SpecialReg::TidY:
    case SpecialReg::TidZ:
    case SpecialReg::LaneId:
    case SpecialReg::LanemaskEq:
    case SpecialReg::LanemaskLt:
    case SpecialReg::LanemaskLe:
    case SpecialReg::LanemaskGt:
    case SpecialReg::LanemaskGe: return true;
    default: return false;
    }
}

// Whether `in` computes the same value in every lane when its sources are the same in every lane.
bool uniform_producer(const Inst& in) {
    if (in.guard >= 0) return false;   // a guarded definition leaves other lanes' old values
    if (register_arithmetic(in)) return true;
    return in.op_class == OpClass::Memory && in.space == MemSpace::Param && !(in.dest_flags & (kMemStore | kMemAtomic));
}

// Keys (rows, then predicates) whose value is the same in every lane of a warp wherever it is read.
std::vector<bool> warp_uniform_keys(const KernelImage& img) {
    const size_t keys = size_t(img.num_regs) + img.num_preds;
    std::vector<uint32_t> defs(keys, 0);
    for (const Inst& in : img.code) for_each_key_def(img, in, [&](int64_t k) { ++defs[size_t(k)]; });
    std::vector<bool> uniform(keys, true);   // a key no instruction writes holds zero, or a special register
    for (const auto& [reg, row] : img.special_rows)
        if (row >= 0 && lane_varying(reg)) uniform[size_t(row)] = false;
    for (const Inst& in : img.code) {
        const bool ok = uniform_producer(in);
        for_each_key_def(img, in, [&](int64_t k) { if (!ok || defs[size_t(k)] != 1) uniform[size_t(k)] = false; });
    }
    // A definition from a source that is not uniform spoils its key, and what reads that key in turn.
    for (bool changed = true; changed;) {
        changed = false;
        for (const Inst& in : img.code) {
            bool sources = true;
            for_each_key_read(img, in, [&](int64_t k) { sources = sources && uniform[size_t(k)]; });
            if (sources) continue;
            for_each_key_def(img, in, [&](int64_t k) {
                if (uniform[size_t(k)]) uniform[size_t(k)] = false, changed = true;
            });
        }
    }
    return uniform;
}

// kAtomCommutes marks the integer operations; kAtomAdd the adds.
bool integer_add(const Inst& in) {
    if (in.op_class != OpClass::Memory || !(in.dest_flags & kMemAtomic)) return false;
    if ((in.aux & (kAtomCommutes | kAtomAdd)) != (kAtomCommutes | kAtomAdd)) return false;
    return in.space == MemSpace::Global || in.space == MemSpace::Generic;
}

} // namespace

void mark_aggregated_atomics(KernelImage& img) {
    if (img.functions.size() != 1 || !img.calls.empty()) return;
    bool any = false;
    for (const Inst& in : img.code) any |= integer_add(in);
    if (!any) return;
    const std::vector<bool> uniform = warp_uniform_keys(img);
    std::vector<bool> read(img.num_regs, false);
    for (const Inst& in : img.code) for_each_key_read(img, in, [&](int64_t k) { if (k < int64_t(img.num_regs)) read[size_t(k)] = true; });
    auto same = [&](Row r) { return r < 0 || (r != kNoRow && uniform[size_t(r)]); };
    for (Inst& in : img.code) {
        if (!integer_add(in) || !(in.a == kNoRow || same(in.a)) || in.b == kNoRow) continue;
        // A uniform operand: one lane adds it times the active lanes, and each lane's result is a
        // prefix of that. A varying one whose results nobody reads: one lane adds the warp's sum
        // (a REDUX). Whatever the active lanes (a guard, divergence): one of them does it.
        const bool unread = in.d == kNoRow || (in.d >= 0 && !read[size_t(in.d)]);
        if (same(in.b) || unread) in.aux |= kAtomAggregated;
    }
}

} // namespace gpusim::loader
