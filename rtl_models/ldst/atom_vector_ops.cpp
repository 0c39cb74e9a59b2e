// The vector forms of atom and red (sm_90, PTX ISA "atom"): add on .v2/.v4 of f32 (CUDA's
// atomicAdd on float2 and float4), and add, min and max (.noftz) on .v2/.v4/.v8 of f16 and bf16
// and on .v2/.v4 of f16x2 and bf16x2, in global memory (a generic address must reach it). Each
// element is its own read-modify-write, in element order, lane by lane: the rules each follows
// were measured on the H200 with the golden family atom_vector.
//   - f32 add: as the scalar atom.add.f32 in global memory, subnormal inputs and results flushed,
//     a NaN result the canonical NaN.
//   - f16 and bf16 add: rounded once to nearest, subnormals kept (.noftz), as the scalar forms.
//   - min and max: minNum/maxNum with -0 below +0; a NaN operand gives the other one as it is,
//     two NaNs the canonical 0x7FFF.
// The element and result registers are listed in a MatrixOperands (d and b), which the loader's
// analyses and the scoreboard already read.
#include <cmath>

#include "isa/exec_context.h"
#include "isa/matrix_form.h"
#include "isa/op_registry.h"
#include "ldst/atomic_rules.h"
#include "ldst/lane_access.h"
#include "ldst/ldst_ops.h"

namespace gpusim {

using lane_access::address;
using lane_access::load_elem;
using lane_access::store_elem;

namespace {

enum VecOp : uint8_t { kAddF32, kAddF16, kAddBf16, kMinF16, kMaxF16, kMinBf16, kMaxBf16 };

constexpr bool is_bf16(int op) { return op == kAddBf16 || op == kMinBf16 || op == kMaxBf16; }

template <int Op>
uint16_t half_op(uint16_t old, uint16_t b) {
    if constexpr (Op == kAddF16 || Op == kAddBf16) return atomic_rules::half_add(old, b, is_bf16(Op));
    else if constexpr (Op == kMinF16 || Op == kMinBf16) return atomic_rules::half_min_max<false>(old, b, is_bf16(Op));
    else return atomic_rules::half_min_max<true>(old, b, is_bf16(Op));
}

// One element's new value: T is uint32_t for f32 and packed pairs, uint16_t for single halves.
template <class T, int Op, bool Pairs>
T apply(T old, T b) {
    if constexpr (Op == kAddF32) {
        const float r = atomic_rules::flushed_add(get<float>(old), get<float>(b));
        return std::isnan(r) ? T(0x7FFFFFFFu) : T(put<float>(r));
    } else if constexpr (Pairs) {
        return T(half_op<Op>(uint16_t(old), uint16_t(b)) | uint32_t(half_op<Op>(uint16_t(old >> 16), uint16_t(b >> 16))) << 16);
    } else {
        return half_op<Op>(old, b);
    }
}

template <class T, int Op, bool Pairs, MemSpace S>
void atom_vector(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const MatrixOperands& o = c.kernel->matrix_operands[in.target];
    const size_t n = o.b.size();
    atomic_rules::before_atomic<S>(c, w, in, m, uint32_t(n * sizeof(T)));
    for_lanes(m, [&](int l) {
        const uint64_t base = address(c, w, in, l);
        // The vector is aligned to its whole size.
        if (base % (n * sizeof(T))) lane_access::fault(base, uint32_t(n * sizeof(T)), true, l, "global", kMisalignedAddress);
        for (size_t k = 0; k < n; ++k) {
            const uint64_t at = base + k * sizeof(T);
            const T old = load_elem<T, S, true>(c, w, l, at);
            store_elem<T, S, true>(c, w, l, at, apply<T, Op, Pairs>(old, T(c.src(w, o.b[k])[l])));
            if (!o.d.empty()) w.row(o.d[k])[l] = old;
        }
    });
}

template <class T, int Op, bool Pairs>
ExecFn by_space(MemSpace s) {
    if (s == MemSpace::Global) return atom_vector<T, Op, Pairs, MemSpace::Global>;
    if (s == MemSpace::Generic) return atom_vector<T, Op, Pairs, MemSpace::Generic>;
    return nullptr;
}

template <int Op>
ExecFn half_fn(bool pairs, MemSpace s) { return pairs ? by_space<uint32_t, Op, true>(s) : by_space<uint16_t, Op, false>(s); }

ExecFn vector_fn(const OpSpec& s, const std::string& t, int count, MemSpace space) {
    const bool pairs = t == "f16x2" || t == "bf16x2", bf = t == "bf16" || t == "bf16x2";
    if (t == "f32") return s.has("add") && count <= 4 ? by_space<uint32_t, kAddF32, false>(space) : nullptr;
    if (!(t == "f16" || t == "bf16" || pairs) || !s.has("noftz") || (pairs && count > 4)) return nullptr;
    if (s.has("add")) return bf ? half_fn<kAddBf16>(pairs, space) : half_fn<kAddF16>(pairs, space);
    if (s.has("min")) return bf ? half_fn<kMinBf16>(pairs, space) : half_fn<kMinF16>(pairs, space);
    if (s.has("max")) return bf ? half_fn<kMaxBf16>(pairs, space) : half_fn<kMaxF16>(pairs, space);
    return nullptr;
}

} // namespace

OpChoice select_atom_vector(const OpSpec& s) {
    if ((s.opcode != "atom" && s.opcode != "red") || !(s.has("v2") || s.has("v4") || s.has("v8"))) return {};
    OpChoice c;
    const std::string t = s.type();
    const int count = s.has("v8") ? 8 : s.has("v4") ? 4 : 2;
    c.space = s.has("global") ? MemSpace::Global : MemSpace::Generic;
    const bool other_space = s.has("shared") || s.has("shared::cta") || s.has("shared::cluster") || s.has("local");
    c.layout = Layout::AtomicVector;
    c.width = uint8_t(t == "f16" || t == "bf16" ? 2 : 4);
    c.vec_count = uint8_t(count);
    const bool release = s.has("release") || s.has("acq_rel"), acquire = s.opcode == "atom" && (s.has("acquire") || s.has("acq_rel"));
    const bool wide_scope = !s.has("cta") && !s.has("cluster");
    c.aux = uint8_t(kOrderStrong | (release && wide_scope ? kOrderRelease : 0) | (acquire && wide_scope ? kOrderAcquire : 0) |
                    (s.has("add") ? kAtomAdd : 0));
    c.fn = other_space ? nullptr : vector_fn(s, t, count, c.space);
    if (!c.fn)
        c.error = "unsupported instruction '" + s.full_name() + "': vector atomics are add on .v2/.v4 .f32, and add, min or "
                  "max .noftz on .v2/.v4/.v8 .f16/.bf16 or .v2/.v4 .f16x2/.bf16x2, in global memory";
    return c;
}

} // namespace gpusim
