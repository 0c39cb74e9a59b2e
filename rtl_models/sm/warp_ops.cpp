// Warp-wide instructions: vote, shfl, match, redux, elect and activemask. Lanes exchange values within one
// warp instruction, which the lane-contiguous register rows make a plain loop over 32 slots.
//
// The .sync forms name a member mask. The model runs a warp as one SIMT unit, so the members that
// take part are the lanes that execute the instruction (active and guard true) and are in the
// mask; a member that is not executing it would be undefined behaviour in PTX.
#include "isa/exec_context.h"
#include "sm/operations.h"

namespace gpusim {
namespace {

enum VoteMode : uint8_t { kAll, kAny, kUni, kBallot };
enum ShflMode : uint8_t { kUp, kDown, kBfly, kIdx };
enum ReduxOp : uint8_t { kAdd, kMin, kMax, kMinS, kMaxS, kAndOp, kOrOp, kXorOp };
constexpr uint8_t kWide = 0x80;  // match on 64-bit values

// Lanes that take part: the executing lanes, limited to the member mask when there is one.
LaneMask members(const ExecContext& c, Warp& w, Row mask_row, LaneMask m) {
    if (mask_row == kNoRow || m == 0) return m;
    return m & uint32_t(c.src(w, mask_row)[__builtin_ctz(m)]);
}

void set_pred(Warp& w, int16_t p, LaneMask m, LaneMask value) {
    if (p >= 0) w.preds[p] = (w.preds[p] & ~m) | (value & m);
}

// Each lane votes over its own member set: .sync masks may differ per lane (e.g. groups of lanes).
void vote(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    const uint64_t* mask = in.b == kNoRow ? nullptr : c.src(w, in.b);
    const LaneMask p = in.pa_negated ? ~w.preds[in.pa] : w.preds[in.pa];
    uint64_t* d = in.aux == kBallot ? w.row(in.d) : nullptr;
    LaneMask result = 0;
    for_lanes(m, [&](int l) {
        LaneMask s = mask ? m & uint32_t(mask[l]) : m;
        LaneMask t = p & s;
        if (d) { d[l] = t; return; }
        bool r = in.aux == kAll ? t == s : in.aux == kAny ? t != 0 : (t == 0 || t == s);
        if (r) result |= 1u << l;
    });
    if (!d) set_pred(w, in.pd, m, result);
}

void activemask(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    for_lanes(m, [&](int l) { d[l] = m; });
}

// Source lane j and validity p per the PTX ISA: b[4:0] is the lane offset or index, c[4:0] the
// clamp and c[12:8] the segment mask that keeps the lane's sub-warp.
void shfl(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    uint64_t a[kWarpSize];
    const uint64_t* src = c.src(w, in.a);
    for (int l = 0; l < kWarpSize; ++l) a[l] = src[l];
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = c.src(w, in.c);
    LaneMask valid = 0;
    uint64_t* d = in.d == kNoRow ? nullptr : w.row(in.d);
    for_lanes(m, [&](int l) {
        int bval = int(b[l] & 31), cval = int(cc[l] & 31), seg = int((cc[l] >> 8) & 31);
        int max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg;
        int j = l;
        bool p = false;
        switch (in.aux) {
        case kUp: j = l - bval; p = j >= max_lane; break;
        case kDown: j = l + bval; p = j <= max_lane; break;
        case kBfly: j = l ^ bval; p = j <= max_lane; break;
        default: j = min_lane | (bval & ~seg); p = j <= max_lane; break;
        }
        if (!p) j = l;
        // A source lane that does not execute the shuffle gives 0 (measured on an H100: NVIDIA's
        // reduction sample shuffles from lanes outside its ballot mask and relies on it).
        if (d) d[l] = (m >> j & 1) ? uint32_t(a[j]) : 0;
        if (p) valid |= 1u << l;
    });
    set_pred(w, in.pd, m, valid);
}

void match(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    LaneMask s = members(c, w, in.b, m);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t width_mask = (in.aux & kWide) ? ~0ull : 0xFFFFFFFFull;
    auto same_as = [&](int l) {
        LaneMask r = 0;
        for_lanes(s, [&](int j) { if (((a[j] ^ a[l]) & width_mask) == 0) r |= 1u << j; });
        return r;
    };
    uint64_t* d = in.d == kNoRow ? nullptr : w.row(in.d);
    if ((in.aux & ~kWide) == kAny) {
        for_lanes(m, [&](int l) { if (d) d[l] = same_as(l); });
        return;
    }
    bool all = same_as(__builtin_ctz(s)) == s;  // match.all
    for_lanes(m, [&](int l) { if (d) d[l] = all ? s : 0; });
    set_pred(w, in.pd, m, all ? ~0u : 0u);
}

void redux(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    if (m == 0) return;
    LaneMask s = members(c, w, in.b, m);
    const uint64_t* a = c.src(w, in.a);
    int first = __builtin_ctz(s);
    uint32_t r = uint32_t(a[first]);
    for_lanes(s & (s - 1), [&](int l) {
        uint32_t v = uint32_t(a[l]);
        switch (in.aux) {
        case kAdd: r += v; break;
        case kMin: r = std::min(r, v); break;
        case kMax: r = std::max(r, v); break;
        case kMinS: r = uint32_t(std::min(int32_t(r), int32_t(v))); break;
        case kMaxS: r = uint32_t(std::max(int32_t(r), int32_t(v))); break;
        case kAndOp: r &= v; break;
        case kOrOp: r |= v; break;
        default: r ^= v; break;
        }
    });
    uint64_t* d = w.row(in.d);
    for_lanes(m, [&](int l) { d[l] = r; });
}

// A mode modifier from `names` (in enum order), or -1.
int mode_of(const OpSpec& s, std::initializer_list<const char*> names) {
    int k = 0;
    for (const char* n : names) {
        if (s.has(n)) return k;
        ++k;
    }
    return -1;
}

// elect.sync d|p, membermask: the lowest member lane leads (as the H100 elects: golden async);
// every executing lane gets its number in d, and p only on the leader.
void elect(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const LaneMask group = members(c, w, in.a, m);
    const uint32_t leader = group ? uint32_t(__builtin_ctz(group)) : 0;
    if (in.d != kNoRow) {
        uint64_t* d = w.row(in.d);
        for_lanes(m, [&](int l) { d[l] = leader; });
    }
    set_pred(w, in.pd, m, group ? 1u << leader : 0);
}

OpChoice unsupported(const OpSpec& s, const std::string& why) {
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "': " + why;
    return c;
}

} // namespace

OpChoice select_warp_op(const OpSpec& s) {
    OpChoice c;
    const std::string& op = s.opcode;
    if (op == "vote") {
        int mode = mode_of(s, {"all", "any", "uni", "ballot"});
        if (mode < 0) return unsupported(s, "expected .all, .any, .uni or .ballot");
        if ((mode == kBallot) != (s.type() == "b32") || (mode != kBallot && s.type() != "pred"))
            return unsupported(s, "vote.ballot takes .b32, the other modes .pred");
        c.fn = vote;
        c.aux = uint8_t(mode);
        c.layout = Layout::Vote;
    } else if (op == "activemask") {
        c.fn = activemask;
        c.layout = Layout::D;
    } else if (op == "shfl") {
        int mode = mode_of(s, {"up", "down", "bfly", "idx"});
        if (mode < 0 || s.type() != "b32") return unsupported(s, "expected shfl{.sync}.{up,down,bfly,idx}.b32");
        c.fn = shfl;
        c.aux = uint8_t(mode);
        c.layout = Layout::Shfl;
    } else if (op == "match") {
        int mode = mode_of(s, {"all", "any"});
        std::string t = s.type();
        if (mode < 0 || (t != "b32" && t != "b64")) return unsupported(s, "expected match.{any,all}.sync.{b32,b64}");
        c.fn = match;
        c.aux = uint8_t((mode == 0 ? kAll : kAny) | (t == "b64" ? kWide : 0));
        c.layout = Layout::Match;
    } else if (op == "elect") {
        if (!s.has("sync") || s.mods.size() != 1) return unsupported(s, "expected elect.sync");
        c.fn = elect;
        c.layout = Layout::Elect;
    } else if (op == "redux") {
        int mode = mode_of(s, {"add", "min", "max", "and", "or", "xor"});
        std::string t = s.type();
        bool logic = mode >= 3;
        if (mode < 0 || (logic ? t != "b32" : (t != "u32" && t != "s32"))) return unsupported(s, "expected redux.sync.{add,min,max}.{u32,s32} or .{and,or,xor}.b32");
        static const uint8_t ops[] = {kAdd, kMin, kMax, kAndOp, kOrOp, kXorOp};
        c.aux = ops[mode];
        if (t == "s32" && mode == 1) c.aux = kMinS;
        if (t == "s32" && mode == 2) c.aux = kMaxS;
        c.fn = redux;
        c.layout = Layout::D_A_B;
    }
    return c;
}

} // namespace gpusim
