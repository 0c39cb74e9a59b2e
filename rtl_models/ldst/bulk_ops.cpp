// The one-dimensional bulk copies of sm_90: cp.async.bulk between global and shared memory (and
// from shared memory to shared memory), cp.reduce.async.bulk, their bulk groups, and
// cp.async.bulk.prefetch. A cluster has one block in the model, so shared::cluster is the
// block's own shared memory.
//
// A copy moves its bytes when it issues, in both modes, as cp.async does (async_ops.cpp): one of
// the executions the PTX memory model allows, since nobody may look before the completion (the
// mbarrier's phase, or wait_group). A copy that completes on an mbarrier then performs its
// complete_tx of the size in bytes, which may complete the phase. Timing mode prices a copy as
// one 16-byte access of its source per lane: the bulk transfer's bandwidth is not modelled yet.
#include <fmt/format.h>

#include <cmath>

#include "alu/float_common.h"
#include "ldst/ldst_ops.h"
#include "ldst/mbarrier.h"

namespace gpusim {
namespace {

using lane_access::load_elem;
using lane_access::store_elem;
using lane_access::wait_turn_for_host_memory;

enum BulkOp : uint8_t { kCopy, kRedAdd, kRedMin, kRedMax, kRedAnd, kRedOr, kRedXor, kRedInc, kRedDec };

struct BulkLane {
    uint64_t dst, src, mbar;
    uint32_t size;
};

// Operands (decode_async.cpp): the source address in a and offset, the destination in b and
// vec[0] (its offset, a pool row), the size in c, the mbarrier in vec[1] and vec[2].
BulkLane operands(ExecContext& c, Warp& w, const Inst& in, int l) {
    auto row = [&](Row r) { return r == kNoRow ? 0 : c.src(w, r)[l]; };
    BulkLane b;
    b.src = effective_address(row(in.a), in);
    b.dst = row(in.b) + row(in.vec[0]);
    b.mbar = row(in.vec[1]) + row(in.vec[2]);
    b.size = uint32_t(row(in.c));
    if ((b.src | b.dst) & 15)
        throw ExecFault(l, fmt::format("a bulk copy needs 16-byte aligned addresses (source {:#x}, destination {:#x})", b.src, b.dst));
    if (b.size % 16) throw ExecFault(l, fmt::format("a bulk copy's size is a multiple of 16 bytes, not {}", b.size));
    return b;
}

template <class T, int Op>
T reduce(T old, T v) {
    if constexpr (Op == kRedAdd) {
        if constexpr (std::is_same_v<T, float>) {   // as red.global.add.f32: a NaN is the canonical one
            const float r = old + v;
            return std::isnan(r) ? get<float>(kCanonicalNanF32) : r;
        } else if constexpr (std::is_floating_point_v<T>) {
            // Of two NaNs the one added wins, quieted (golden bulk; the host's order of operands,
            // which compilers choose, must not decide).
            double nan;
            return propagate_nan(nan, old, v) ? nan : old + v;
        } else {
            return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(v));
        }
    } else if constexpr (Op == kRedMin) return v < old ? v : old;
    else if constexpr (Op == kRedMax) return v > old ? v : old;
    else if constexpr (Op == kRedAnd) return old & v;
    else if constexpr (Op == kRedOr) return old | v;
    else if constexpr (Op == kRedXor) return old ^ v;
    else if constexpr (Op == kRedInc) return old >= v ? T(0) : T(old + 1);
    else return (old == 0 || old > v) ? v : T(old - 1);   // kRedDec
}

template <MemSpace Dst, MemSpace Src, class T, int Op, bool Mbar>
void bulk(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    wait_turn_for_host_memory<MemSpace::Global>(c, w, in, m);
    for_lanes(m, [&](int l) {
        const BulkLane b = operands(c, w, in, l);
        for (uint32_t k = 0; k < b.size; k += sizeof(T)) {
            const T v = load_elem<T, Src>(c, w, l, b.src + k);
            if constexpr (Op == kCopy) {
                store_elem<T, Dst>(c, w, l, b.dst + k, v);
            } else {
                const T old = load_elem<T, Dst, true>(c, w, l, b.dst + k);
                store_elem<T, Dst, true>(c, w, l, b.dst + k, reduce<T, Op>(old, v));
            }
        }
        if constexpr (Mbar) mbarrier::complete_tx<MemSpace::Shared>(c, w, l, b.mbar, b.size);
    });
}

void bulk_no_effect(ExecContext&, Warp&, const Inst&, LaneMask) {}

OpChoice bulk_choice(ExecFn fn, MemSpace src) {
    OpChoice c;
    c.fn = fn;
    c.layout = Layout::BulkCopy;
    c.space = src;
    c.width = 16;
    return c;
}

// The copy for destination and source spaces, element type and operation.
template <class T, int Op>
ExecFn bulk_fn(MemSpace dst, MemSpace src, bool mbar) {
    if (dst == MemSpace::Shared && src == MemSpace::Global && mbar) return bulk<MemSpace::Shared, MemSpace::Global, T, Op, true>;
    if (dst == MemSpace::Shared && src == MemSpace::Shared && mbar) return bulk<MemSpace::Shared, MemSpace::Shared, T, Op, true>;
    if (dst == MemSpace::Global && src == MemSpace::Shared && !mbar) return bulk<MemSpace::Global, MemSpace::Shared, T, Op, false>;
    return nullptr;
}

template <int Op>
ExecFn typed(const std::string& t, MemSpace dst, MemSpace src, bool mbar) {
    if (t == "u32" || t == "b32") return bulk_fn<uint32_t, Op>(dst, src, mbar);
    if (t == "s32") return bulk_fn<int32_t, Op>(dst, src, mbar);
    if (t == "u64" || t == "b64") return bulk_fn<uint64_t, Op>(dst, src, mbar);
    if (t == "s64") return bulk_fn<int64_t, Op>(dst, src, mbar);
    if constexpr (Op == kRedAdd) {
        if (t == "f32") return bulk_fn<float, Op>(dst, src, mbar);
        if (t == "f64") return bulk_fn<double, Op>(dst, src, mbar);
    }
    return nullptr;
}

ExecFn reduction(const OpSpec& s, const std::string& t, MemSpace dst, MemSpace src, bool mbar) {
    if (s.has("add")) return typed<kRedAdd>(t, dst, src, mbar);
    if (t[0] == 'f') return nullptr;
    if (s.has("min")) return t[0] == 'b' ? nullptr : typed<kRedMin>(t, dst, src, mbar);
    if (s.has("max")) return t[0] == 'b' ? nullptr : typed<kRedMax>(t, dst, src, mbar);
    if (s.has("and")) return typed<kRedAnd>(t, dst, src, mbar);
    if (s.has("or")) return typed<kRedOr>(t, dst, src, mbar);
    if (s.has("xor")) return typed<kRedXor>(t, dst, src, mbar);
    if (s.has("inc")) return t == "u32" ? typed<kRedInc>(t, dst, src, mbar) : nullptr;
    if (s.has("dec")) return t == "u32" ? typed<kRedDec>(t, dst, src, mbar) : nullptr;
    return nullptr;
}

} // namespace

OpChoice select_bulk_op(const OpSpec& s) {
    if (s.has("tensor")) return refuse_form(s, "tensor-map TMA (cp.async.bulk.tensor) is out of scope");
    if (s.has("multicast::cluster")) return refuse_form(s, "multicast to a cluster of more than one block is out of scope");
    if (s.has("cp_mask")) return refuse_form(s, "byte-masked bulk copies (.cp_mask) are not modelled");
    const bool reduce = s.has("reduce");
    if (!reduce && s.has("commit_group")) {
        OpChoice c;
        c.fn = bulk_no_effect;
        c.layout = Layout::None;
        return c;
    }
    if (!reduce && s.has("wait_group")) {   // every copy completed when it issued (timing: a fence)
        OpChoice c;
        c.fn = bulk_no_effect;
        c.layout = Layout::Barrier;
        return c;
    }
    if (!reduce && s.has("prefetch")) return bulk_choice(bulk_no_effect, MemSpace::Global);
    // The spaces in order: destination, then source.
    std::vector<MemSpace> spaces;
    for (const std::string& mod : s.mods) {
        if (mod == "global") spaces.push_back(MemSpace::Global);
        else if (mod == "shared::cluster" || mod == "shared::cta" || mod == "shared") spaces.push_back(MemSpace::Shared);
    }
    const bool mbar = s.has("mbarrier::complete_tx::bytes"), group = s.has("bulk_group");
    if (spaces.size() != 2 || mbar == group)
        return refuse_form(s, "expected a destination and a source space and one completion (.mbarrier::complete_tx::bytes or .bulk_group)");
    const ExecFn fn = reduce ? reduction(s, s.type(), spaces[0], spaces[1], mbar) : bulk_fn<uint32_t, kCopy>(spaces[0], spaces[1], mbar);
    if (!fn) return refuse_form(s, reduce ? "not a reduction the model executes (f16 and bf16 are not modelled)" : "not a direction of bulk copy PTX has");
    return bulk_choice(fn, spaces[1]);
}

} // namespace gpusim
