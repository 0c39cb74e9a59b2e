#include "sm/simt_stack.h"

namespace gpusim::simt {

void start(Warp& w, LaneMask mask) {
    w.pc = 0;
    w.rpc = kExitPc;
    w.active = mask;
    w.exited = 0;
    w.stack.clear();
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

bool reconverge(Warp& w) {
    for (;;) {
        if (w.active != 0 && w.pc != w.rpc) return true;
        if (w.stack.empty()) {
            w.active = 0;
            w.state = Warp::State::Done;
            return false;
        }
        SimtEntry e = w.stack.back();
        w.stack.pop_back();
        w.pc = e.pc;
        w.rpc = e.rpc;
        w.active = e.mask & ~w.exited;
    }
}

void exit_lanes(Warp& w, LaneMask mask) {
    w.exited |= mask;
    w.active &= ~mask;
}

} // namespace gpusim::simt
