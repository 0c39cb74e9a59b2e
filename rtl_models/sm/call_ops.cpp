// Calls, returns and jump tables. A call runs the callee with the threads that made it while the
// warp's other threads wait at the return point, like the two sides of a branch. Each activation
// gets a frame of per-thread local memory above its caller's (parameters, return values, local
// arrays); a function that is already active has its registers saved so that recursion works.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "protocol/memory_map.h"
#include "sm/call_ops.h"
#include "isa/exec_context.h"
#include "isa/op_registry.h"
#include "sm/simt_stack.h"

namespace gpusim {
namespace {

uint8_t* frame_bytes(Warp& w, int lane, uint32_t fp, uint32_t offset) {
    return w.local.data() + size_t(lane) * w.local_bytes + fp + offset;
}

// Arguments and results pass through a staging buffer: the callee's frame overlaps the caller's
// call area, so a slot may be overwritten before another one is read.
struct Staging {
    std::vector<uint8_t> bytes;
    std::vector<uint32_t> at;    // each slot's offset within one lane's part
    uint32_t per_lane = 0;
};

Staging gather(ExecContext& c, Warp& w, const std::vector<FrameSlot>& from, uint32_t fp, LaneMask m) {
    Staging s;
    for (const FrameSlot& f : from) {
        s.at.push_back(s.per_lane);
        s.per_lane += f.row != kNoRow ? 8 : f.size;
    }
    s.bytes.assign(size_t(s.per_lane) * kWarpSize, 0);
    for_lanes(m, [&](int l) {
        uint8_t* lane = s.bytes.data() + size_t(l) * s.per_lane;
        for (size_t k = 0; k < from.size(); ++k) {
            if (from[k].row != kNoRow) std::memcpy(lane + s.at[k], &c.src(w, from[k].row)[l], 8);
            else std::memcpy(lane + s.at[k], frame_bytes(w, l, fp, from[k].offset), from[k].size);
        }
    });
    return s;
}

// A value narrower than its destination is zero-extended.
void scatter(Warp& w, const Staging& s, const std::vector<FrameSlot>& from, const std::vector<FrameSlot>& to,
             uint32_t fp, LaneMask m) {
    for_lanes(m, [&](int l) {
        const uint8_t* lane = s.bytes.data() + size_t(l) * s.per_lane;
        for (size_t k = 0; k < to.size(); ++k) {
            const uint32_t have = from[k].row != kNoRow ? std::min<uint32_t>(from[k].size, 8) : from[k].size;
            const uint32_t n = std::min(have, to[k].size);
            if (to[k].row != kNoRow) {
                uint64_t v = 0;
                std::memcpy(&v, lane + s.at[k], std::min<uint32_t>(n, 8));
                w.row(to[k].row)[l] = v;
            } else {
                uint8_t* dst = frame_bytes(w, l, fp, to[k].offset);
                std::memset(dst, 0, to[k].size);
                std::memcpy(dst, lane + s.at[k], n);
            }
        }
    });
}

uint32_t current_fp(const Warp& w) { return w.frames.empty() ? 0 : w.frames.back().fp; }

// The image function an indirect call reaches from `address`, checked against the call site.
uint32_t indirect_callee(const KernelImage& img, const CallSite& cs, uint64_t address, int lane) {
    int64_t mi = memory_map::function_index(address);
    int32_t f = mi >= 0 && size_t(mi) < img.function_of_module.size() ? img.function_of_module[size_t(mi)] : -1;
    if (f <= 0) throw ExecFault{lane, fmt::format("indirect call to address 0x{:x}, which is not a device function", address)};
    const FunctionImage& fn = img.functions[size_t(f)];
    if (!cs.allowed.empty() && std::find(cs.allowed.begin(), cs.allowed.end(), fn.module_index) == cs.allowed.end())
        throw ExecFault{lane, fmt::format("indirect call to '{}', which is not in the call's .calltargets", fn.name)};
    if (fn.params.size() != cs.args.size() || fn.rets.size() != cs.rets.size())
        throw ExecFault{lane, fmt::format("indirect call with {} arguments and {} results reaches '{}', which takes {} and returns {}",
                                          cs.args.size(), cs.rets.size(), fn.name, fn.params.size(), fn.rets.size())};
    return uint32_t(f);
}

bool is_active(const Warp& w, uint32_t f) {
    for (const CallFrame& fr : w.frames)
        if (fr.callee == f) return true;
    return false;
}

// Registers of an outer activation of `fn` move aside while an inner one runs.
int64_t save_registers(Warp& w, const FunctionImage& fn) {
    int64_t at = int64_t(w.saved.size());
    w.saved.insert(w.saved.end(), w.row(Row(fn.first_row)), w.row(Row(fn.end_row)));
    w.saved.insert(w.saved.end(), w.preds.begin() + fn.first_pred, w.preds.begin() + fn.end_pred);
    return at;
}

void restore_registers(Warp& w, const FunctionImage& fn, int64_t at) {
    auto it = w.saved.begin() + at;
    size_t rows = size_t(fn.end_row - fn.first_row) * kWarpSize;
    std::copy(it, it + ptrdiff_t(rows), w.row(Row(fn.first_row)));
    for (uint32_t p = fn.first_pred; p < fn.end_pred; ++p) w.preds[p] = LaneMask(*(it + ptrdiff_t(rows + p - fn.first_pred)));
    w.saved.resize(size_t(at));
}

void call_op(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    const KernelImage& img = *c.kernel;
    const CallSite& cs = img.calls[size_t(in.offset)];
    LaneMask group = m;
    uint32_t callee;
    if (cs.callee >= 0) {
        callee = uint32_t(cs.callee);
    } else {
        // Threads that call different functions run one function at a time: the others execute
        // the call instruction again once this group has returned.
        const uint64_t* t = c.src(w, in.a);
        const int lead = __builtin_ctz(m);
        callee = indirect_callee(img, cs, t[lead], lead);
        group = 0;
        for_lanes(m, [&](int l) { if (t[l] == t[lead]) group |= 1u << l; });
    }
    const FunctionImage& fn = img.functions[callee];
    const uint32_t caller_fp = current_fp(w);
    const uint32_t fp = caller_fp + img.functions[cs.caller].call_area;
    if (uint64_t(fp) + fn.frame_bytes > w.local_bytes)
        throw ExecFault{__builtin_ctz(group), fmt::format("stack overflow calling '{}' at call depth {}: the frames need {} bytes "
                                                          "per thread, the stack holds {} (config sm.stack_bytes)",
                                                          fn.name, w.frames.size() + 1, uint64_t(fp) + fn.frame_bytes, w.local_bytes)};
    // The calling group goes first; lanes of other targets run the call again afterwards and the
    // rest wait at the return point, all through the SIMT stack as for a branch.
    const uint32_t return_pc = w.pc;
    const std::pair<uint32_t, LaneMask> paths[2] = {{return_pc, group}, {return_pc - 1, m & ~group}};
    const Staging args = gather(c, w, cs.args, caller_fp, group);
    simt::multiway(w, paths, paths[1].second ? 2 : 1, return_pc);
    CallFrame fr{return_pc, w.rpc, uint32_t(in.offset), callee, fp, uint32_t(w.stack.size()), group};
    if (is_active(w, callee)) fr.saved_at = save_registers(w, fn);
    w.frames.push_back(fr);
    if (fn.fp_row != kNoRow) std::fill_n(w.row(fn.fp_row), kWarpSize, uint64_t(fp));
    scatter(w, args, cs.args, fn.params, fp, group);
    w.active = group;
    w.rpc = simt::kExitPc;
    w.pc = fn.entry_pc;
}

// ret inside a function: the threads wait for the rest of the call; in the kernel body: exit.
void ret_op(ExecContext&, Warp& w, const Inst&, LaneMask m) {
    if (w.frames.empty()) { simt::exit_lanes(w, m); return; }
    w.frames.back().returned |= m;
    w.active &= ~m;
}

void brx_op(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    const std::vector<uint32_t>& table = c.kernel->jump_tables[size_t(in.offset)];
    const uint64_t* idx = c.src(w, in.a);
    for_lanes(m, [&](int l) {
        if (uint32_t(idx[l]) >= table.size())
            throw ExecFault{l, fmt::format("brx.idx index {} is outside its table of {} targets", uint32_t(idx[l]), table.size())};
    });
    std::pair<uint32_t, LaneMask> paths[kWarpSize + 1];
    size_t n = 0;
    for (LaneMask left = m; left;) {
        const uint32_t target = table[uint32_t(idx[__builtin_ctz(left)])];
        LaneMask g = 0;
        for_lanes(left, [&](int l) { if (table[uint32_t(idx[l])] == target) g |= 1u << l; });
        paths[n++] = {target, g};
        left &= ~g;
    }
    if (LaneMask rest = w.active & ~m) paths[n++] = {w.pc, rest};  // guard false: fall through
    simt::multiway(w, paths, n, in.reconv);
}

} // namespace

namespace calls {

void finish_call(ExecContext& c, Warp& w) {
    const CallFrame fr = w.frames.back();
    w.frames.pop_back();
    const KernelImage& img = *c.kernel;
    const CallSite& cs = img.calls[fr.site];
    const FunctionImage& fn = img.functions[fr.callee];
    const LaneMask lanes = fr.lanes & ~w.exited;
    const uint32_t caller_fp = current_fp(w);
    // Results are read before the registers of an outer activation of the callee come back.
    const Staging results = gather(c, w, fn.rets, fr.fp, lanes);
    if (fr.saved_at >= 0) restore_registers(w, fn, fr.saved_at);
    scatter(w, results, fn.rets, cs.rets, caller_fp, lanes);
    w.pc = fr.return_pc;
    w.rpc = fr.rpc;
    w.active = lanes;
}

} // namespace calls

ExecFn call_fn() { return call_op; }
ExecFn ret_fn() { return ret_op; }
ExecFn brx_fn() { return brx_op; }

} // namespace gpusim
