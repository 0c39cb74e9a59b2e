// The asynchronous copies and transaction barriers of sm_80 and sm_90 (PTX ISA, cp.async and
// mbarrier). A copy moves its bytes when it issues, in both modes: a copy that has completed by
// the time anyone may look (cp.async.wait_group, an mbarrier phase) is one execution the PTX
// memory model allows. Timing mode prices it as a global read and holds the waits until the warp's
// accesses complete (cp.async.wait_* and cp.async.mbarrier.arrive are fences: isa/op_class.cpp).
//
// An mbarrier is a 64-bit word in shared memory whose encoding PTX leaves to the implementation;
// the model's is below. What the H100 returns through it (the pending count of a state token is
// the count before that arrival; the phase-parity waits) is checked by regress/golden/async.
#include <cstring>

#include "isa/exec_context.h"
#include "ldst/lane_access.h"
#include "ldst/ldst_ops.h"
#include "ldst/mbarrier.h"

namespace gpusim {
namespace {

using lane_access::fault;
using lane_access::load_elem;
using lane_access::locate;
using lane_access::wait_turn_for_host_memory;

// ---- cp.async ----

// cp.async [dst], [src], cp-size {, src-size | ignore-src}: cp-size bytes land in shared memory,
// the first min(src-size, cp-size) read from global memory (none when ignore-src holds) and the
// rest zero. Source bytes past src-size are never read, so a copy at the edge of a buffer that
// zero-fills its tail does not fault.
void cp_async(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    wait_turn_for_host_memory<MemSpace::Global>(c, w, in, m);
    const uint32_t size = in.width;
    const uint64_t* src = in.a == kNoRow ? nullptr : c.src(w, in.a);
    const uint64_t* dst = in.b == kNoRow ? nullptr : c.src(w, in.b);
    const uint64_t* dst_offset = c.src(w, in.vec[0]);
    const uint64_t* src_size = in.c == kNoRow ? nullptr : c.src(w, in.c);
    const LaneMask ignored = in.pc < 0 ? 0 : in.pc_negated ? ~w.preds[in.pc] : w.preds[in.pc];
    for_lanes(m, [&](int l) {
        const uint64_t from = effective_address(src ? src[l] : 0, in);
        const uint32_t to = uint32_t((dst ? dst[l] : 0) + dst_offset[l]);
        uint64_t n = src_size ? src_size[l] : size;
        if (n > size)
            throw ExecFault(l, "cp.async source size " + std::to_string(n) + " is larger than its copy size " + std::to_string(size));
        if ((ignored >> l) & 1) n = 0;
        if (from & (size - 1)) fault(from, size, false, l, "global", kMisalignedAddress);
        uint8_t bytes[16] = {};
        if (n == size) {
            for (uint32_t k = 0; k < size; k += 4) {
                const uint32_t v = load_elem<uint32_t, MemSpace::Global>(c, w, l, from + k);
                std::memcpy(bytes + k, &v, 4);
            }
        } else {
            for (uint32_t k = 0; k < n; ++k) bytes[k] = load_elem<uint8_t, MemSpace::Global>(c, w, l, from + k);
        }
        std::memcpy(locate<MemSpace::Shared>(c, w, l, to, size, true, bytes), bytes, size);
    });
}

// commit_group and wait_group: every copy has landed when it issued, so the groups need no
// bookkeeping; timing mode's fence waits for the accesses.
void no_effect(ExecContext&, Warp&, const Inst&, LaneMask) {}

// ---- mbarrier ----

using mbarrier::kMaxCount;
using Mbarrier = mbarrier::Word;

// One read-modify-write of the word per lane, in lane order (mbarrier.h); the address is in a and
// offset.
template <MemSpace S, class F>
void update(ExecContext& c, Warp& w, const Inst& in, LaneMask m, F f) {
    for_lanes(m, [&](int l) {
        const uint64_t addr = effective_address(in.a == kNoRow ? 0 : c.src(w, in.a)[l], in);
        mbarrier::update<S>(c, w, l, addr, [&](Mbarrier& b, uint64_t before) { return f(l, b, before); });
    });
}

// An arrival count (least 1; 1 when the instruction names none) or a transaction count (least
// 0), up to 2^20-1.
uint32_t count_of(ExecContext& c, Warp& w, Row r, int l, const char* what, uint64_t least) {
    const uint64_t n = r == kNoRow ? 1 : uint32_t(c.src(w, r)[l]);
    if (n < least || n > kMaxCount)
        throw ExecFault(l, std::string("mbarrier ") + what + " " + std::to_string(n) + " is outside " + std::to_string(least) + " to 2^20-1");
    return uint32_t(n);
}

template <MemSpace S>
void mbarrier_init(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    update<S>(c, w, in, m, [&](int l, Mbarrier& b, uint64_t) {
        b = Mbarrier{};
        b.pending = b.expected = count_of(c, w, in.b, l, "count", 1);
        return false;
    });
}

template <MemSpace S>
void mbarrier_inval(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    update<S>(c, w, in, m, [](int, Mbarrier& b, uint64_t) { b = Mbarrier{}; return false; });
}

// arrive (count from b, or 1), arrive_drop (the arrivals also leave the expected count),
// arrive.expect_tx (b is a transaction count that the phase also waits for); d is the state token,
// the word before this arrival.
enum ArriveKind : uint8_t { kArrive, kArriveDrop, kArriveExpectTx };

template <MemSpace S, int Kind, bool NoComplete>
void mbarrier_arrive(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = in.d == kNoRow ? nullptr : w.row(in.d);
    update<S>(c, w, in, m, [&](int l, Mbarrier& b, uint64_t before) {
        const uint32_t n = Kind == kArriveExpectTx ? 1 : count_of(c, w, in.b, l, "arrival count", 1);
        if (Kind == kArriveExpectTx) b.tx += int32_t(count_of(c, w, in.b, l, "transaction count", 0));
        if (n > b.pending) throw ExecFault(l, "mbarrier arrival of " + std::to_string(n) + " with " + std::to_string(b.pending) + " pending");
        b.pending -= n;
        if (Kind == kArriveDrop) b.expected -= n;
        if (d) d[l] = before;
        const bool completed = b.complete_if_done();
        if (NoComplete && completed) throw ExecFault(l, "mbarrier.arrive.noComplete completed the phase");
        return completed;
    });
}

// expect_tx raises the phase's transaction count; complete_tx lowers it, which may complete it.
template <MemSpace S, bool Complete>
void mbarrier_tx(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    update<S>(c, w, in, m, [&](int l, Mbarrier& b, uint64_t) {
        const int32_t n = int32_t(count_of(c, w, in.b, l, "transaction count", 0));
        b.tx += Complete ? -n : n;
        return Complete && b.complete_if_done();
    });
}

// cp.async.mbarrier.arrive: an arrival when the thread's earlier copies have landed (at issue
// here). Without .noinc the pending count is raised first, so the two cancel out.
template <MemSpace S, bool NoInc>
void mbarrier_copies_arrive(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (!NoInc) return;
    update<S>(c, w, in, m, [&](int l, Mbarrier& b, uint64_t) {
        if (b.pending == 0) throw ExecFault(l, "cp.async.mbarrier.arrive.noinc with no arrival pending");
        --b.pending;
        return b.complete_if_done();
    });
}

// test_wait and try_wait: p = the phase of the state token b (or, with .parity, the phase of
// parity b) has completed. try_wait may return false after a time limit of the implementation's
// choosing (PTX ISA): in timing mode a warp whose try_wait fails sleeps sm.try_wait_suspend
// cycles first (Warp::suspend), so that its spin loop leaves issue slots to the warps it waits
// for; functional mode returns at once.
template <MemSpace S, bool Parity, bool Try>
void mbarrier_wait(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t* token = c.src(w, in.b);
    LaneMask done = 0;
    for_lanes(m, [&](int l) {
        uint64_t word;
        std::memcpy(&word, mbarrier::at<S>(c, w, l, effective_address(in.a == kNoRow ? 0 : c.src(w, in.a)[l], in), false), 8);
        const uint32_t waited = Parity ? uint32_t(token[l] & 1) : Mbarrier::of(token[l]).phase;
        if (Mbarrier::of(word).phase != waited) done |= 1u << l;
    });
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | done;
    if (Try && done != m) w.suspend = c.try_wait_suspend;
}

// pending_count d, state: the arrivals the phase still waited for before the arrival that
// returned the token.
void mbarrier_pending(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t* a = c.src(w, in.a);
    uint64_t* d = w.row(in.d);
    for_lanes(m, [&](int l) { d[l] = Mbarrier::of(a[l]).pending; });
}

OpChoice take(ExecFn fn, Layout layout, MemSpace space, uint8_t width) {
    OpChoice c;
    c.fn = fn;
    c.layout = layout;
    c.space = space;
    c.width = width;
    return c;
}

template <MemSpace S>
ExecFn mbarrier_fn(const OpSpec& s) {
    const bool no_complete = s.has("noComplete");
    if (s.has("init")) return mbarrier_init<S>;
    if (s.has("inval")) return mbarrier_inval<S>;
    if (s.has("arrive") && s.has("expect_tx")) return no_complete ? nullptr : mbarrier_arrive<S, kArriveExpectTx, false>;
    if (s.has("arrive")) return no_complete ? mbarrier_arrive<S, kArrive, true> : mbarrier_arrive<S, kArrive, false>;
    if (s.has("arrive_drop")) return no_complete ? mbarrier_arrive<S, kArriveDrop, true> : mbarrier_arrive<S, kArriveDrop, false>;
    if (s.has("expect_tx")) return mbarrier_tx<S, false>;
    if (s.has("complete_tx")) return mbarrier_tx<S, true>;
    if (s.has("test_wait")) return s.has("parity") ? mbarrier_wait<S, true, false> : mbarrier_wait<S, false, false>;
    if (s.has("try_wait")) return s.has("parity") ? mbarrier_wait<S, true, true> : mbarrier_wait<S, false, true>;
    return nullptr;
}

// A cluster of one block: its shared::cluster window is the block's own shared memory.
bool shared_space(const OpSpec& s) { return s.has("shared") || s.has("shared::cta") || s.has("shared::cluster"); }

OpChoice select_mbarrier(const OpSpec& s) {
    if (s.type() != "b64") return refuse_form(s, "an mbarrier operation is .b64");
    if (s.has("pending_count")) return take(mbarrier_pending, Layout::D_A, MemSpace::Generic, 0);
    const bool shared = shared_space(s);
    OpChoice c = take(shared ? mbarrier_fn<MemSpace::Shared>(s) : mbarrier_fn<MemSpace::Generic>(s), Layout::Mbarrier,
                      shared ? MemSpace::Shared : MemSpace::Generic, 8);
    if (!c.fn) return refuse_form(s, "not a form of mbarrier the model executes");
    return c;
}

OpChoice select_cp_async(const OpSpec& s) {
    if (s.has("commit_group")) return take(no_effect, Layout::None, MemSpace::Generic, 0);
    if (s.has("wait_group")) return take(no_effect, Layout::Barrier, MemSpace::Generic, 0);
    if (s.has("wait_all")) return take(no_effect, Layout::None, MemSpace::Generic, 0);
    if (s.has("mbarrier")) {
        if (!s.has("arrive") || s.type() != "b64") return refuse_form(s, "expected cp.async.mbarrier.arrive{.noinc}{.shared}.b64");
        const bool shared = shared_space(s), noinc = s.has("noinc");
        ExecFn fn = shared ? (noinc ? mbarrier_copies_arrive<MemSpace::Shared, true> : mbarrier_copies_arrive<MemSpace::Shared, false>)
                           : (noinc ? mbarrier_copies_arrive<MemSpace::Generic, true> : mbarrier_copies_arrive<MemSpace::Generic, false>);
        return take(fn, Layout::Mbarrier, shared ? MemSpace::Shared : MemSpace::Generic, 8);
    }
    if (!(s.has("ca") || s.has("cg")) || !s.has("global") || !(s.has("shared") || s.has("shared::cta")))
        return refuse_form(s, "expected cp.async.{ca,cg}.shared{::cta}.global");
    // The copy's size (width) and src-size or ignore-src (c or pc) are operands, which the
    // decoder checks and places.
    return take(cp_async, Layout::AsyncCopy, MemSpace::Global, 0);
}

} // namespace

OpChoice select_async_op(const OpSpec& s) {
    if (s.opcode == "mbarrier") return select_mbarrier(s);
    if (s.opcode == "cp" && (s.has("bulk") || s.has("reduce"))) return select_bulk_op(s);
    if (s.opcode == "cp" && s.has("async")) return select_cp_async(s);
    return {};
}

} // namespace gpusim
