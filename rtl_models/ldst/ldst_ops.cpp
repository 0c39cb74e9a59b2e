// Load, store, atomic and address-conversion instructions of the LD/ST unit. Shared, local and
// parameter memory live in the SM; global and constant memory are reached through the SM's
// MemoryView (TLM DMI or b_transport). Generic addresses are routed by the windows of the memory map.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "protocol/memory_map.h"
#include "alu/float_common.h"
#include "alu/narrow_float.h"
#include "check/allocation_map.h"
#include "check/race_check.h"
#include "isa/exec_context.h"
#include "ldst/generic_access.h"
#include "ldst/store_buffer.h"
#include "ldst/ldst_ops.h"
#include "ldst/atomic_rules.h"
#include "ldst/lane_access.h"

namespace gpusim {
namespace {

using lane_access::address;
using lane_access::buffered_space;
using lane_access::fault;
using lane_access::load_elem;
using lane_access::locate;
using lane_access::store_elem;
using lane_access::wait_turn_for_host_memory;

// The shared-memory address of each lane of a scalar access (32-bit: the window is 4 GiB);
// whether all of them are aligned and in bounds, which one test then answers for the warp.
template <class T>
bool shared_in_bounds(const ExecContext& c, const uint64_t* a, int64_t offset, LaneMask m, uint32_t* addr) {
    uint32_t high = 0, bits = 0;
    for_lanes(m, [&](int l) {
        const uint32_t x = uint32_t(a[l] + uint64_t(offset));
        addr[l] = x;
        high = std::max(high, x);
        bits |= x;
    });
    return !(bits & (sizeof(T) - 1)) && uint64_t(high) + sizeof(T) <= c.shared_size;
}

// A warp's global access whose lanes are all aligned and lie in one region the SM reaches directly
// (the common, coalesced case): fills in each lane's address and returns the host pointer of the
// lowest, `lo`. Null when any lane needs the lane-by-lane path (a fault to report, a check to
// run, another region or space), which then does everything as it always does.
template <class T, MemSpace S>
uint8_t* one_region(ExecContext& c, Warp& w, const Inst& in, LaneMask m, int elems, bool write, uint64_t* addr, uint64_t& lo) {
    if constexpr (S != MemSpace::Global && S != MemSpace::Generic) {
        return nullptr;
    } else {
        if (!m || in.a == kNoRow || c.memcheck || c.racecheck || (write && c.stores)) return nullptr;
        const uint64_t* a = c.src(w, in.a);
        uint64_t low = UINT64_MAX, high = 0, bits = 0;
        for_lanes(m, [&](int l) {
            const uint64_t x = effective_address(a[l], in);
            addr[l] = x;
            low = std::min(low, x);
            high = std::max(high, x);
            bits |= x;
        });
        if (bits & (sizeof(T) - 1)) return nullptr;
        high += uint64_t(elems) * sizeof(T) - 1;
        if (S == MemSpace::Generic && high >= memory_map::kSharedWindowBase &&
            low < memory_map::kLocalWindowBase + memory_map::kLocalWindowSize)
            return nullptr;
        // The host's memory waits for the SM's turn (wait_turn_for_host_memory), whether or not
        // the SM holds a direct pointer to it just now.
        if (c.apart && high >= memory_map::kDeviceLimit &&
            !(memory_map::in_managed_window(low) && memory_map::in_managed_window(high)))
            return nullptr;
        if (c.stores && c.stores->stale_in(low, high)) return nullptr;   // some lane may see an old value
        lo = low;
        if (c.stores) c.stores->before_access(low, uint32_t(std::min<uint64_t>(high - low + 1, UINT32_MAX)));
        return c.gmem->region(low, high, write);
    }
}

// T is the raw element type; Signed sign-extends narrow loads into the register.
template <class T, bool Signed, MemSpace S>
void ld(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    int n = in.vec_count ? in.vec_count : 1;
    // An acquire sees memory as it is (stronger than PTX asks: from the acquire on, not after it).
    if (c.stores && (in.aux & kOrderAcquire)) c.stores->clear_stale();
    // A lane-independent address (a parameter, a variable) is read once and broadcast.
    if (in.a == kNoRow && S != MemSpace::Local && m) {
        wait_turn_for_host_memory<S>(c, w, in, m);
        int first = __builtin_ctz(m);
        for (int e = 0; e < n; ++e) {
            T v = load_elem<T, S>(c, w, first, uint64_t(in.offset) + uint64_t(e) * sizeof(T));
            uint64_t out = Signed ? uint64_t(int64_t(std::make_signed_t<T>(v))) : uint64_t(v);
            Row r = in.vec_count ? in.vec[e] : in.d;
            if (r != kNoRow) {
                uint64_t* d = w.row(r);
                for_lanes(m, [&](int l) { d[l] = out; });
            }
        }
        return;
    }
    // Scalar shared loads are the inner loop of tiled kernels: bounds and alignment in one test.
    if constexpr (S == MemSpace::Shared) {
        if (!in.vec_count && !c.racecheck) {
            const uint64_t* a = c.src(w, in.a);
            uint64_t* d = w.row(in.d);
            uint32_t addr[kWarpSize];
            if (shared_in_bounds<T>(c, a, in.offset, m, addr)) {
                for_lanes(m, [&](int l) {
                    T v;
                    std::memcpy(&v, c.shared + addr[l], sizeof(T));
                    d[l] = Signed ? uint64_t(int64_t(std::make_signed_t<T>(v))) : uint64_t(v);
                });
                return;
            }
            // Some lane is out of bounds or misaligned: the lanes before it load, it faults.
            for_lanes(m, [&](int l) {
                T v;
                std::memcpy(&v, locate<S>(c, w, l, addr[l], sizeof(T), false), sizeof(T));
                d[l] = Signed ? uint64_t(int64_t(std::make_signed_t<T>(v))) : uint64_t(v);
            });
            return;
        }
    }
    uint64_t addr[kWarpSize], lo = 0;
    if (const uint8_t* base = one_region<T, S>(c, w, in, m, n, false, addr, lo)) {
        for (int e = 0; e < n; ++e) {
            const Row r = in.vec_count ? in.vec[e] : in.d;
            if (r == kNoRow) continue;
            uint64_t* d = w.row(r);
            const uint8_t* p = base + e * sizeof(T);
            for_lanes(m, [&](int l) {
                T v;
                std::memcpy(&v, p + (addr[l] - lo), sizeof(T));
                d[l] = Signed ? uint64_t(int64_t(std::make_signed_t<T>(v))) : uint64_t(v);
            });
        }
        return;
    }
    wait_turn_for_host_memory<S>(c, w, in, m);
    for_lanes(m, [&](int l) {
        uint64_t addr = address(c, w, in, l);
        for (int e = 0; e < n; ++e) {
            T v = load_elem<T, S>(c, w, l, addr + uint64_t(e) * sizeof(T));
            uint64_t out = Signed ? uint64_t(int64_t(std::make_signed_t<T>(v))) : uint64_t(v);
            Row r = in.vec_count ? in.vec[e] : in.d;
            if (r != kNoRow) w.row(r)[l] = out;
        }
    });
}

template <class T, MemSpace S>
void st(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    int n = in.vec_count ? in.vec_count : 1;
    if (c.stores && (in.aux & kOrderRelease)) c.stores->drain_all();   // a release orders the SM's earlier stores
    if constexpr (S == MemSpace::Shared) {
        if (!in.vec_count && in.a != kNoRow && !c.racecheck) {
            const uint64_t* a = c.src(w, in.a);
            const uint64_t* b = c.src(w, in.b);
            uint32_t addr[kWarpSize];
            const bool ok = shared_in_bounds<T>(c, a, in.offset, m, addr);
            // Lane by lane, so that where lanes overlap the last wins, and before a lane that
            // faults the earlier ones have stored.
            for_lanes(m, [&](int l) {
                const T v = T(b[l]);
                std::memcpy(ok ? c.shared + addr[l] : locate<S>(c, w, l, addr[l], sizeof(T), true), &v, sizeof(T));
            });
            return;
        }
    }
    uint64_t addr[kWarpSize], lo = 0;
    if (uint8_t* base = one_region<T, S>(c, w, in, m, n, true, addr, lo)) {
        // Lane by lane, each lane's elements in turn, as below: where lanes overlap the last wins.
        for_lanes(m, [&](int l) {
            uint8_t* p = base + (addr[l] - lo);
            for (int e = 0; e < n; ++e) {
                const T v = T(c.src(w, in.vec_count ? in.vec[e] : in.b)[l]);
                std::memcpy(p + e * sizeof(T), &v, sizeof(T));
            }
        });
        return;
    }
    wait_turn_for_host_memory<S>(c, w, in, m);
    for_lanes(m, [&](int l) {
        uint64_t addr = address(c, w, in, l);
        for (int e = 0; e < n; ++e) {
            Row r = in.vec_count ? in.vec[e] : in.b;
            store_elem<T, S>(c, w, l, addr + uint64_t(e) * sizeof(T), T(c.src(w, r)[l]));
        }
    });
}

// ---- atomics: lanes are serialised in lane order, each a read-modify-write ----
enum AtomOp : uint8_t { kAdd, kMin, kMax, kAnd, kOr, kXor, kExch, kCas, kInc, kDec, kF16Add, kBf16Add };

// f16 and bf16 atomic adds: .f16, .bf16 in a 16-bit word; .f16x2, .bf16x2 two halves of a 32-bit
// word, each on its own (atomic_rules.h).
template <int Op>
uint16_t half_atom(uint16_t old, uint16_t b) { return atomic_rules::half_add(old, b, Op == kBf16Add); }

template <class T, int Op>
T atom_apply(T old, T b, T c) {
    if constexpr (Op >= kF16Add) {
        if constexpr (sizeof(T) == 2) return half_atom<Op>(old, b);
        else return T(half_atom<Op>(uint16_t(old), uint16_t(b)) | uint32_t(half_atom<Op>(uint16_t(old >> 16), uint16_t(b >> 16))) << 16);
    } else if constexpr (Op == kAdd) {
        if constexpr (std::is_floating_point_v<T>) return old + b;
        else return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(b));
    } else if constexpr (Op == kMin) return b < old ? b : old;
    else if constexpr (Op == kMax) return b > old ? b : old;
    else if constexpr (Op == kAnd) return old & b;
    else if constexpr (Op == kOr) return old | b;
    else if constexpr (Op == kXor) return old ^ b;
    else if constexpr (Op == kExch) return b;
    else if constexpr (Op == kCas) return old == b ? c : old;
    else if constexpr (Op == kInc) return old >= b ? T(0) : T(old + 1);   // wraps to 0 past b
    else return (old == 0 || old > b) ? b : T(old - 1);                     // kDec
}

// f64 atomic adds of two NaNs keep the one in memory, quieted (measured on the H200 in shared
// memory; see propagate_nan).
// atom.add.f32 flushes subnormal inputs and results in global memory but not in shared memory
// (PTX ISA, measured on the H200).
template <class T, int Op, MemSpace S>
bool flushes(uint64_t addr) {
    if constexpr (Op != kAdd || !std::is_same_v<T, float>) return false;
    else if constexpr (S == MemSpace::Generic) return !memory_map::in_shared_window(addr);
    else return S == MemSpace::Global;
}
float canonical_nan() { return get<float>(0x7FFFFFFFu); }

constexpr bool commutes(int op) { return op == kAdd || op == kMin || op == kMax || op == kAnd || op == kOr || op == kXor; }

// While the SMs run apart on host threads, an integer reduction whose old value no instruction
// reads (the loader leaves it unordered, sw/loader/ordering.h) runs as the host's own atomic
// read-modify-write: other SMs may update the same word meanwhile, and in any order the value
// left is the same. Whether it could: a lane the direct path cannot take (a fault to report, a
// check to run, the host's memory, memory reached through transactions) leaves the instruction to
// the plain path, before any lane moves; apart, that waits for the SM's turn.
template <class T, int Op, MemSpace S>
bool atom_direct(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (c.memcheck || c.racecheck) return false;
    uint8_t* p[kWarpSize] = {};
    bool direct = true;
    for_lanes(m, [&](int l) {
        const uint64_t addr = address(c, w, in, l);
        if (!direct || (addr & (sizeof(T) - 1)) || memory_map::is_host_address(addr)) { direct = false; return; }
        try {
            p[l] = locate<S, true>(c, w, l, addr, sizeof(T), true);
        } catch (const AccessFault&) {
            p[l] = nullptr;
        }
        direct = p[l] != nullptr;
    });
    if (!direct) return false;
    const uint64_t* b = c.src(w, in.b);
    for_lanes(m, [&](int l) {
        T* word = reinterpret_cast<T*>(p[l]);
        T old = __atomic_load_n(word, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(word, &old, atom_apply<T, Op>(old, get<T>(b[l]), T(0)), true,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
        if (in.d != kNoRow) w.row(in.d)[l] = put<T>(old);
    });
    return true;
}

template <class T, int Op, MemSpace S>
void atom(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    atomic_rules::before_atomic<S>(c, w, in, m, sizeof(T));
    if constexpr (std::is_integral_v<T> && commutes(Op) && (S == MemSpace::Global || S == MemSpace::Generic)) {
        if (c.apart || c.reductions_atomic) {
            if (atom_direct<T, Op, S>(c, w, in, m)) return;
            // In a turn the plain path is safe: reductions apart take the same way out to turns.
            if (c.apart) throw PauseRequest{};
        }
    }
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = in.c == kNoRow ? nullptr : c.src(w, in.c);
    for_lanes(m, [&](int l) {
        uint64_t addr = address(c, w, in, l);
        T old = load_elem<T, S, true>(c, w, l, addr);
        T res;
        if constexpr (std::is_floating_point_v<T>) {
            double nan;
            if (flushes<T, Op, S>(addr)) res = T(atomic_rules::flushed_add(float(old), float(get<T>(b[l]))));
            else if (std::is_same_v<T, double> && propagate_nan(nan, double(get<T>(b[l])), double(old))) res = T(nan);
            else res = atom_apply<T, Op>(old, get<T>(b[l]), T(0));
            if constexpr (std::is_same_v<T, float>)
                if (std::isnan(res)) res = canonical_nan();  // fp32 NaN results are canonical
        } else {
            res = atom_apply<T, Op>(old, get<T>(b[l]), cc ? get<T>(cc[l]) : T(0));
        }
        store_elem<T, S, true>(c, w, l, addr, res);
        if (in.d != kNoRow) w.row(in.d)[l] = put<T>(old);
    });
}

// cvta: generic <-> space-relative addresses.
template <bool ToGeneric>
void cvta(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    uint64_t base = in.space == MemSpace::Shared ? memory_map::kSharedWindowBase
                    : in.space == MemSpace::Local ? memory_map::kLocalWindowBase : 0;
    uint64_t mask = in.width == 4 ? 0xFFFFFFFFull : ~0ull;
    for_lanes(m, [&](int l) { d[l] = (ToGeneric ? a[l] + base : a[l] - base) & mask; });
}

// ---- selection ----
MemSpace space_of(const OpSpec& s) {
    for (const auto& m : s.mods) {
        std::string base = m.substr(0, m.find("::"));
        if (base == "global") return MemSpace::Global;
        if (base == "const") return MemSpace::Const;
        if (base == "shared") return MemSpace::Shared;
        if (base == "local") return MemSpace::Local;
        if (base == "param") return MemSpace::Param;
    }
    return MemSpace::Generic;
}

template <template <MemSpace> class K>
ExecFn by_space(MemSpace s) {
    switch (s) {
    case MemSpace::Generic: return K<MemSpace::Generic>::fn;
    case MemSpace::Global: return K<MemSpace::Global>::fn;
    case MemSpace::Const: return K<MemSpace::Const>::fn;
    case MemSpace::Shared: return K<MemSpace::Shared>::fn;
    case MemSpace::Local: return K<MemSpace::Local>::fn;
    case MemSpace::Param: return K<MemSpace::Param>::fn;
    case MemSpace::Texture: return nullptr;   // the texture unit's own instructions (tex/tex_ops.cpp)
    }
    return nullptr;
}

template <class T, bool Signed> struct LdK { template <MemSpace S> struct K { static constexpr ExecFn fn = ld<T, Signed, S>; }; };
template <class T> struct StK { template <MemSpace S> struct K { static constexpr ExecFn fn = st<T, S>; }; };
template <class T, int Op> struct AtomK { template <MemSpace S> struct K { static constexpr ExecFn fn = atom<T, Op, S>; }; };

ExecFn ld_fn(const std::string& t, MemSpace s) {
    if (t == "u8" || t == "b8") return by_space<LdK<uint8_t, false>::K>(s);
    if (t == "s8") return by_space<LdK<uint8_t, true>::K>(s);
    if (t == "u16" || t == "b16" || t == "f16") return by_space<LdK<uint16_t, false>::K>(s);
    if (t == "s16") return by_space<LdK<uint16_t, true>::K>(s);
    if (t == "u32" || t == "b32" || t == "f32") return by_space<LdK<uint32_t, false>::K>(s);
    if (t == "s32") return by_space<LdK<uint32_t, true>::K>(s);
    if (t == "u64" || t == "b64" || t == "s64" || t == "f64") return by_space<LdK<uint64_t, false>::K>(s);
    return nullptr;
}

ExecFn st_fn(const std::string& t, MemSpace s) {
    switch (t.empty() ? 0 : (t == "b8" || t == "u8" || t == "s8") ? 1 : (t.find("16") != std::string::npos) ? 2
                      : (t.find("32") != std::string::npos) ? 4 : (t.find("64") != std::string::npos) ? 8 : 0) {
    case 1: return by_space<StK<uint8_t>::K>(s);
    case 2: return by_space<StK<uint16_t>::K>(s);
    case 4: return by_space<StK<uint32_t>::K>(s);
    case 8: return by_space<StK<uint64_t>::K>(s);
    }
    return nullptr;
}

template <int Op>
ExecFn atom_typed(const std::string& t, MemSpace s) {
    if (t == "u32" || t == "b32") return by_space<AtomK<uint32_t, Op>::template K>(s);
    if (t == "s32") return by_space<AtomK<int32_t, Op>::template K>(s);
    if (t == "u64" || t == "b64") return by_space<AtomK<uint64_t, Op>::template K>(s);
    if (t == "s64") return by_space<AtomK<int64_t, Op>::template K>(s);
    return nullptr;
}

// f16, bf16 and their pairs: add.
ExecFn atom_half_add(const std::string& t, MemSpace sp) {
    if (t == "f16") return by_space<AtomK<uint16_t, kF16Add>::template K>(sp);
    if (t == "f16x2") return by_space<AtomK<uint32_t, kF16Add>::template K>(sp);
    if (t == "bf16") return by_space<AtomK<uint16_t, kBf16Add>::template K>(sp);
    if (t == "bf16x2") return by_space<AtomK<uint32_t, kBf16Add>::template K>(sp);
    return nullptr;
}

ExecFn atom_fn(const OpSpec& s, const std::string& t, MemSpace sp) {
    // f16 and bf16 min and max exist only in the vector forms, which the model refuses.
    if (t == "f16" || t == "f16x2" || t == "bf16" || t == "bf16x2") return s.has("add") ? atom_half_add(t, sp) : nullptr;
    if (s.has("add")) {
        if (t == "f32") return by_space<AtomK<float, kAdd>::K>(sp);
        if (t == "f64") return by_space<AtomK<double, kAdd>::K>(sp);
        return atom_typed<kAdd>(t, sp);
    }
    bool bits = t[0] == 'b';
    if (s.has("min")) return bits ? nullptr : atom_typed<kMin>(t, sp);
    if (s.has("max")) return bits ? nullptr : atom_typed<kMax>(t, sp);
    if (s.has("and")) return atom_typed<kAnd>(t, sp);
    if (s.has("or")) return atom_typed<kOr>(t, sp);
    if (s.has("xor")) return atom_typed<kXor>(t, sp);
    if (s.has("exch")) return atom_typed<kExch>(t, sp);
    if (s.has("cas")) return (t == "b16" || t == "u16") ? by_space<AtomK<uint16_t, kCas>::template K>(sp) : atom_typed<kCas>(t, sp);
    if (s.has("inc")) return t == "u32" ? atom_typed<kInc>(t, sp) : nullptr;
    if (s.has("dec")) return t == "u32" ? atom_typed<kDec>(t, sp) : nullptr;
    return nullptr;
}

// isspacep.space p, a: whether generic address a falls in that space's window.
template <MemSpace Sp>
void isspacep(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t* a = c.src(w, in.a);
    LaneMask r = 0;
    for_lanes(m, [&](int l) {
        bool shared = memory_map::in_shared_window(a[l]), local = memory_map::in_local_window(a[l]);
        bool v = Sp == MemSpace::Shared ? shared : Sp == MemSpace::Local ? local
                 : Sp == MemSpace::Const ? memory_map::in_const_window(a[l]) : (!shared && !local);
        if (v) r |= 1u << l;
    });
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | (r & m);
}

OpChoice select_isspacep(const OpSpec& s) {
    OpChoice c;
    c.layout = Layout::PD_A;
    MemSpace sp = space_of(s);
    // .const variables live in their own window of the global address space (memory_map.h);
    // .param addresses are global ones in this model.
    if (sp == MemSpace::Shared) c.fn = isspacep<MemSpace::Shared>;
    else if (sp == MemSpace::Local) c.fn = isspacep<MemSpace::Local>;
    else if (sp == MemSpace::Const) c.fn = isspacep<MemSpace::Const>;
    else if (sp == MemSpace::Global) c.fn = isspacep<MemSpace::Global>;
    else c.error = "unsupported instruction '" + s.full_name() + "'";
    return c;
}

uint8_t vector_count(const OpSpec& s) {
    if (s.has("v2")) return 2;
    if (s.has("v4")) return 4;
    return 0;
}

} // namespace

const char* mem_space_name(MemSpace s) {
    switch (s) {
    case MemSpace::Generic: return "generic";
    case MemSpace::Global: return "global";
    case MemSpace::Const: return "const";
    case MemSpace::Shared: return "shared";
    case MemSpace::Local: return "local";
    case MemSpace::Param: return "param";
    case MemSpace::Texture: return "texture";
    }
    return "?";
}

OpChoice refuse_form(const OpSpec& s, const std::string& why) {
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "': " + why;
    return c;
}

void register_ldst_ops(OpRegistry& r) {
    r.add("ldst", select_memory_op);
    r.add("ldst.async", select_async_op);
    r.add("ldst.matrix", select_matrix_move);
    r.add("ldst.hint", select_hint_op);
}

OpChoice select_memory_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    if (op == "isspacep") return select_isspacep(s);
    if (op != "ld" && op != "st" && op != "atom" && op != "red" && op != "cvta") return {};
    OpChoice c;
    c.space = space_of(s);
    std::string t = s.type();
    const bool pair = t.size() > 2 && t.compare(t.size() - 2, 2, "x2") == 0;   // f16x2, bf16x2: 4 bytes
    c.width = uint8_t(t == "pred" ? 0 : (t.find("64") != std::string::npos) ? 8 : (t.find("32") != std::string::npos || pair) ? 4
                                    : (t.find("16") != std::string::npos) ? 2 : 1);
    // Memory-order semantics and scopes (.relaxed .acquire .release .acq_rel, .cta .gpu .sys) matter
    // only under the relaxed memory model (store_buffer.h), through aux; .mmio is refused.
    bool unsupported_qualifier = s.has("mmio");
    const bool strong = op == "atom" || op == "red" || s.has("volatile") || s.has("relaxed") || s.has("acquire") ||
                        s.has("release") || s.has("acq_rel");
    // atom and red default to .gpu scope; ld and st with a memory order name theirs.
    const bool wide_scope = s.has("gpu") || s.has("sys") || ((op == "atom" || op == "red") && !s.has("cta") && !s.has("cluster"));
    const bool release = (op == "st" || op == "atom" || op == "red") && (s.has("release") || s.has("acq_rel")) && wide_scope;
    const bool acquire = (op == "ld" || op == "atom") && (s.has("acquire") || s.has("acq_rel")) && wide_scope;
    const bool integer = (t[0] == 'u' || t[0] == 's' || t[0] == 'b') && t.find("f16") == std::string::npos;   // bf16 is no integer
    const bool commutes = (op == "atom" || op == "red") && integer &&
                          (s.has("add") || s.has("min") || s.has("max") || s.has("and") || s.has("or") || s.has("xor"));
    const bool bypass = op == "ld" && (s.has("cg") || s.has("cv") || s.has("volatile") ||
                                       ((s.has("relaxed") || s.has("acquire")) && wide_scope));
    c.aux = uint8_t((strong ? kOrderStrong : 0) | (release ? kOrderRelease : 0) | (commutes ? kAtomCommutes : 0) |
                    (acquire ? kOrderAcquire : 0) | (bypass ? kLoadBypassesL1 : 0) |
                    ((op == "atom" || op == "red") && s.has("add") ? kAtomAdd : 0));
    if (op == "cvta") {
        // Kernel parameters have no generic address in the model (__grid_constant__ takes one).
        if (c.space == MemSpace::Param) {
            c.error = "unsupported instruction '" + s.full_name() + "': generic addresses of kernel parameters are not modelled";
            return c;
        }
        c.layout = Layout::D_A;
        c.width = uint8_t(t == "u32" ? 4 : 8);
        c.fn = s.has("to") ? cvta<false> : cvta<true>;
    } else if (op == "ld" && !unsupported_qualifier) {
        c.layout = Layout::Load;
        c.vec_count = vector_count(s);
        c.fn = ld_fn(t, c.space);
    } else if (op == "st" && !unsupported_qualifier) {
        c.layout = Layout::Store;
        c.vec_count = vector_count(s);
        c.fn = st_fn(t, c.space);
    } else if ((op == "atom" || op == "red") && (s.has("v2") || s.has("v4") || s.has("v8"))) {
        return select_atom_vector(s);
    } else if ((op == "atom" || op == "red") && !unsupported_qualifier &&
               (c.space == MemSpace::Global || c.space == MemSpace::Shared || c.space == MemSpace::Generic)) {
        c.layout = Layout::Atomic;
        c.fn = atom_fn(s, t, c.space);
    }
    if (!c.fn) c.error = "unsupported instruction '" + s.full_name() + "'";
    return c;
}

void read_generic(ExecContext& c, Warp& w, int lane, uint64_t addr, void* out, size_t n) {
    auto* dst = static_cast<uint8_t*>(out);
    for (size_t k = 0; k < n; ++k) dst[k] = load_elem<uint8_t, MemSpace::Generic>(c, w, lane, addr + k);
}

} // namespace gpusim
