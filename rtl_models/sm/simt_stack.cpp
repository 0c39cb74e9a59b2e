#include "sm/simt_stack.h"

namespace gpusim::simt {

void start(Warp& w, LaneMask mask) {
    w.pc = 0;
    w.rpc = kExitPc;
    w.active = mask;
    w.exited = 0;
    w.stack.clear();
    w.frames.clear();
    w.saved.clear();
    w.state = mask ? Warp::State::Ready : Warp::State::Done;
}

void branch(Warp& w, LaneMask taken, uint32_t target, uint32_t fallthrough, uint32_t reconv) {
    LaneMask not_taken = w.active & ~taken;
    if (not_taken == 0) { w.pc = target; return; }
    if (taken == 0) { w.pc = fallthrough; return; }
    // Nested join: when this branch rejoins where the enclosing path does, no join entry is needed.
    if (reconv != w.rpc) w.stack.push_back({reconv, w.rpc, w.active});
    w.stack.push_back({fallthrough, reconv, not_taken});
    w.pc = target;
    w.rpc = reconv;
    w.active = taken;
}

void multiway(Warp& w, const std::pair<uint32_t, LaneMask>* paths, size_t n, uint32_t reconv) {
    if (n == 1 && paths[0].second == w.active) { w.pc = paths[0].first; return; }
    if (reconv != w.rpc) w.stack.push_back({reconv, w.rpc, w.active});
    for (size_t k = n; k-- > 1;) w.stack.push_back({paths[k].first, reconv, paths[k].second});
    w.pc = paths[0].first;
    w.rpc = reconv;
    w.active = paths[0].second;
}

bool reconverge(Warp& w) {
    // Threads that returned from the current function wait for the others at the return point.
    const LaneMask gone = w.exited | (w.frames.empty() ? 0 : w.frames.back().returned);
    const size_t floor = w.frames.empty() ? 0 : w.frames.back().stack_depth;
    for (;;) {
        if (w.active != 0 && w.pc != w.rpc) return true;
        if (w.stack.size() == floor) {
            w.active = 0;
            if (w.frames.empty()) w.state = Warp::State::Done;
            return false;
        }
        SimtEntry e = w.stack.back();
        w.stack.pop_back();
        w.pc = e.pc;
        w.rpc = e.rpc;
        w.active = e.mask & ~gone;
    }
}

void exit_lanes(Warp& w, LaneMask mask) {
    w.exited |= mask;
    w.active &= ~mask;
}

} // namespace gpusim::simt
