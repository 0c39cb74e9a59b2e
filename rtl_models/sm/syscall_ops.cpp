// Calls to CUDA's device runtime that PTX declares .extern: vprintf, malloc, free and
// __assertfail. They run here, per active thread in lane order, with the arguments the call
// passes; results go where the call wants them.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "ldst/generic_access.h"
#include "ldst/store_buffer.h"
#include "sm/call_ops.h"
#include "sm/device_printf.h"

namespace gpusim {

namespace {
constexpr size_t kMaxString = 1 << 16;   // longest string a format or %s argument may be

uint8_t* caller_frame(Warp& w, int lane, uint32_t offset) {
    const uint32_t fp = w.frames.empty() ? 0 : w.frames.back().fp;
    return w.local.data() + size_t(lane) * w.local_bytes + fp + offset;
}

uint64_t arg(ExecContext& c, Warp& w, const FrameSlot& f, int lane) {
    if (f.row != kNoRow) return c.src(w, f.row)[lane];
    uint64_t v = 0;
    std::memcpy(&v, caller_frame(w, lane, f.offset), std::min<uint32_t>(f.size, 8));
    return v;
}

void set_result(Warp& w, const FrameSlot& f, int lane, uint64_t v) {
    if (f.row != kNoRow) {
        w.row(f.row)[lane] = v;
        return;
    }
    uint8_t* p = caller_frame(w, lane, f.offset);
    std::memset(p, 0, f.size);
    std::memcpy(p, &v, std::min<uint32_t>(f.size, 8));
}

std::string read_string(ExecContext& c, Warp& w, int lane, uint64_t addr) {
    if (addr == 0) return "(null)";
    std::string s;
    for (char ch = 0; s.size() < kMaxString; s += ch) {
        read_generic(c, w, lane, addr + s.size(), &ch, 1);
        if (!ch) break;
    }
    return s;
}

DeviceServices& services(ExecContext& c, int lane) {
    if (!c.services) throw ExecFault{lane, "device runtime functions (printf, malloc, assert) are not available here"};
    return *c.services;
}

void vprintf_lane(ExecContext& c, Warp& w, const CallSite& cs, int lane) {
    const uint64_t format = arg(c, w, cs.args.at(0), lane), args = arg(c, w, cs.args.at(1), lane);
    PrintfSource src;
    src.arg = [&](uint64_t off, void* out, size_t n) { read_generic(c, w, lane, args + off, out, n); };
    src.string = [&](uint64_t a) { return read_string(c, w, lane, a); };
    const std::string text = format_device_printf(read_string(c, w, lane, format), src);
    services(c, lane).print(text, false);
    if (!cs.rets.empty()) set_result(w, cs.rets[0], lane, uint32_t(text.size()));
}

[[noreturn]] void assert_lane(ExecContext& c, Warp& w, const CallSite& cs, int lane) {
    const std::string message = read_string(c, w, lane, arg(c, w, cs.args.at(0), lane));
    const std::string file = read_string(c, w, lane, arg(c, w, cs.args.at(1), lane));
    const uint32_t line = uint32_t(arg(c, w, cs.args.at(2), lane));
    const std::string function = read_string(c, w, lane, arg(c, w, cs.args.at(3), lane));
    throw ExecFault{lane, fmt::format("Assertion `{}` failed.", message), FaultKind::Assert,
                    fmt::format("{}:{}: {}", file, line, function)};
}

void syscall(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const CallSite& cs = c.kernel->calls[size_t(in.offset)];
    // The relaxed memory model: the device heap hands memory from one SM to another, so malloc and
    // free order the SM's stores and its view with everything before them.
    if (c.stores && (cs.syscall == Syscall::Malloc || cs.syscall == Syscall::Free)) c.stores->drain_all(), c.stores->clear_stale();
    for_lanes(m, [&](int lane) {
        switch (cs.syscall) {
        case Syscall::Vprintf: vprintf_lane(c, w, cs, lane); break;
        case Syscall::Malloc: set_result(w, cs.rets.at(0), lane, services(c, lane).heap_alloc(arg(c, w, cs.args.at(0), lane))); break;
        case Syscall::Free: {
            const uint64_t p = arg(c, w, cs.args.at(0), lane);
            if (p && !services(c, lane).heap_free(p))
                throw ExecFault{lane, fmt::format("free of 0x{:x}, which malloc on the device did not return", p)};
            break;
        }
        case Syscall::AssertFail:
            try {
                assert_lane(c, w, cs, lane);
            } catch (ExecFault& f) {
                f.lanes = m;   // every thread of the warp that got here failed the assert
                throw;
            }
        case Syscall::None: break;
        }
    });
}
} // namespace

ExecFn syscall_fn() { return syscall; }

} // namespace gpusim
