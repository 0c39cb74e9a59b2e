// The LD/ST unit's cache hints: prefetch, prefetchu, discard, applypriority and createpolicy.
// The model keeps no eviction priorities, so a hint changes no result: prefetches and priorities
// do nothing (PTX lets a prefetch of any address, even an invalid one, do nothing); discard leaves
// the bytes as they are, which is one of the values PTX allows (they become undefined); and
// createpolicy writes an encoding of its own, which the loads and stores that take a cache policy
// read as a hint (PTX makes the policy opaque).
#include <algorithm>

#include "isa/exec_context.h"
#include "ldst/ldst_ops.h"

namespace gpusim {
namespace {

void hint_no_effect(ExecContext&, Warp&, const Inst&, LaneMask) {}

// The model's cache-policy word: bits 0-1 the primary priority, 2-3 the secondary, bit 4 a range
// policy, bits 8-23 the fraction (fractional policies) in units of 2^-16.
enum Priority : uint8_t { kEvictNormal, kEvictFirst, kEvictLast, kEvictUnchanged };

void createpolicy_fractional(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = in.a == kNoRow ? nullptr : c.src(w, in.a);
    for_lanes(m, [&](int l) {
        const float f = a ? get<float>(a[l]) : 1.0f;
        const uint64_t fraction = uint64_t(std::clamp(f, 0.0f, 1.0f) * 65535.0f + 0.5f);
        d[l] = uint64_t(in.aux) | fraction << 8;
    });
}

void createpolicy_range(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    for_lanes(m, [&](int l) { d[l] = uint64_t(in.aux) | 0x10u; });
}

void createpolicy_cvt(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) { d[l] = a[l]; });
}

int priority_of(const std::string& mod) {
    if (mod == "L2::evict_normal") return kEvictNormal;
    if (mod == "L2::evict_first") return kEvictFirst;
    if (mod == "L2::evict_last") return kEvictLast;
    if (mod == "L2::evict_unchanged") return kEvictUnchanged;
    return -1;
}

OpChoice select_createpolicy(const OpSpec& s) {
    OpChoice c;
    c.layout = Layout::Hint;
    if (s.has("cvt")) {
        c.fn = createpolicy_cvt;
        return c;
    }
    std::vector<int> priorities;
    for (const std::string& mod : s.mods)
        if (priority_of(mod) >= 0) priorities.push_back(priority_of(mod));
    if (priorities.empty() || priorities.size() > 2 || s.type() != "b64")
        return refuse_form(s, "expected createpolicy.{fractional,range}.L2::primary{.L2::secondary}.b64");
    c.aux = uint8_t(priorities[0] | (priorities.size() > 1 ? priorities[1] : kEvictUnchanged) << 2);
    if (s.has("fractional")) c.fn = createpolicy_fractional;
    else if (s.has("range")) c.fn = createpolicy_range;
    else return refuse_form(s, "expected createpolicy.fractional, .range or .cvt");
    return c;
}

} // namespace

OpChoice select_hint_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    if (op == "createpolicy") return select_createpolicy(s);
    if (op != "prefetch" && op != "prefetchu" && op != "discard" && op != "applypriority") return {};
    if (s.has("tensormap")) return refuse_form(s, "tensor-map TMA is out of scope");
    OpChoice c;
    c.fn = hint_no_effect;
    c.layout = Layout::Hint;
    c.space = s.has("global") ? MemSpace::Global : s.has("local") ? MemSpace::Local : MemSpace::Generic;
    return c;
}

} // namespace gpusim
