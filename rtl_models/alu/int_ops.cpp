// Integer, logic and predicate instructions of the ALU, one template per operation shape,
// instantiated per PTX type so each warp instruction is a tight loop over 32 lanes.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "isa/exec_context.h"
#include "alu/alu_ops.h"

namespace gpusim {
namespace {

template <class T> using U = std::make_unsigned_t<T>;
template <class T> constexpr int kBits = int(sizeof(T) * 8);

// ---- operation shapes ----
template <class T, class Op>
void unary(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) { d[l] = put<typename Op::template Out<T>>(Op::apply(get<T>(a[l]))); });
}

template <class T, class Op>
void binary(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    for_lanes(m, [&](int l) { d[l] = put<typename Op::template Out<T>>(Op::apply(get<T>(a[l]), get<T>(b[l]))); });
}

template <class T, class Op>
void ternary(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = c.src(w, in.c);
    for_lanes(m, [&](int l) {
        d[l] = put<typename Op::template Out<T>>(Op::apply(get<T>(a[l]), get<T>(b[l]), cc[l]));
    });
}

struct Same { template <class T> using Out = T; };

// Wide results: the destination type is twice as wide as the sources.
template <class T> struct WideOf;
template <> struct WideOf<uint16_t> { using type = uint32_t; };
template <> struct WideOf<int16_t> { using type = int32_t; };
template <> struct WideOf<uint32_t> { using type = uint64_t; };
template <> struct WideOf<int32_t> { using type = int64_t; };
template <> struct WideOf<uint64_t> { using type = unsigned __int128; };
template <> struct WideOf<int64_t> { using type = __int128; };

template <class T> T high_half(T a, T b) {
    using W = typename WideOf<T>::type;
    return static_cast<T>((W(a) * W(b)) >> kBits<T>);
}

struct Add : Same { template <class T> static T apply(T a, T b) { return T(U<T>(a) + U<T>(b)); } };
struct Sub : Same { template <class T> static T apply(T a, T b) { return T(U<T>(a) - U<T>(b)); } };
struct MulLo : Same { template <class T> static T apply(T a, T b) { return T(U<T>(a) * U<T>(b)); } };
struct MulHi : Same { template <class T> static T apply(T a, T b) { return high_half(a, b); } };
struct Min : Same { template <class T> static T apply(T a, T b) { return a < b ? a : b; } };
struct Max : Same { template <class T> static T apply(T a, T b) { return a > b ? a : b; } };
// min/max.relu.s32 (sm_90): a negative result gives 0 (PTX ISA; regress/golden/fp_modes).
template <class Op>
struct Relu : Same { template <class T> static T apply(T a, T b) { const T r = Op::apply(a, b); return r < T(0) ? T(0) : r; } };
struct And : Same { template <class T> static T apply(T a, T b) { return a & b; } };
struct Or : Same { template <class T> static T apply(T a, T b) { return a | b; } };
struct Xor : Same { template <class T> static T apply(T a, T b) { return a ^ b; } };
struct Not : Same { template <class T> static T apply(T a) { return T(~a); } };
struct CNot : Same { template <class T> static T apply(T a) { return T(a == 0); } };
struct Neg : Same { template <class T> static T apply(T a) { return T(U<T>(0) - U<T>(a)); } };
struct Abs : Same { template <class T> static T apply(T a) { return a < 0 ? T(U<T>(0) - U<T>(a)) : a; } };
struct Popc { template <class T> using Out = uint32_t;
    template <class T> static uint32_t apply(T a) { return uint32_t(__builtin_popcountll(uint64_t(U<T>(a)))); } };
struct Clz { template <class T> using Out = uint32_t;
    template <class T> static uint32_t apply(T a) {
        uint64_t v = uint64_t(U<T>(a));
        return v == 0 ? uint32_t(kBits<T>) : uint32_t(__builtin_clzll(v) - (64 - kBits<T>));
    } };
struct Brev : Same { template <class T> static T apply(T a) {
        U<T> v = U<T>(a), r = 0;
        for (int i = 0; i < kBits<T>; ++i) r = U<T>((r << 1) | ((v >> i) & 1));
        return T(r);
    } };

// Division by zero gives all ones for both quotient and remainder (measured on the H200), and the
// one overflowing signed case (MIN / -1) wraps, as NVIDIA's integer division sequences do.
struct Div : Same { template <class T> static T apply(T a, T b) {
        if (b == 0) return T(~U<T>(0));
        if constexpr (std::is_signed_v<T>) if (b == T(-1)) return T(U<T>(0) - U<T>(a));
        return a / b;
    } };
struct Rem : Same { template <class T> static T apply(T a, T b) {
        if (b == 0) return T(~U<T>(0));
        if constexpr (std::is_signed_v<T>) if (b == T(-1)) return 0;
        return a % b;
    } };

// Shift amounts are unsigned 32-bit and clamp at the operand width.
template <class T, bool Left>
void shift(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    // Amounts past the width shift everything out (the sign, for a signed right shift).
    auto clamped = [](uint32_t s) { return std::min(s, uint32_t(kBits<T>)); };
    auto apply = [](T x, uint32_t s) {   // s <= kBits<T>
        if constexpr (Left) return s == uint32_t(kBits<T>) ? T(0) : T(U<T>(x) << s);
        else if constexpr (std::is_signed_v<T>) return T(x >> (s == uint32_t(kBits<T>) ? kBits<T> - 1 : int(s)));
        else return s == uint32_t(kBits<T>) ? T(0) : T(x >> s);
    };
    if (in.b < 0) {
        // An immediate amount is one count for the whole warp, which the compiler can vectorise with.
        const uint32_t s = clamped(uint32_t(b[0]));
        if (s == uint32_t(kBits<T>)) for_lanes(m, [&](int l) { d[l] = put<T>(apply(get<T>(a[l]), uint32_t(kBits<T>))); });
        else if constexpr (Left) for_lanes(m, [&](int l) { d[l] = put<T>(T(U<T>(get<T>(a[l])) << s)); });
        else for_lanes(m, [&](int l) { d[l] = put<T>(T(get<T>(a[l]) >> s)); });
        return;
    }
    for_lanes(m, [&](int l) { d[l] = put<T>(apply(get<T>(a[l]), clamped(uint32_t(b[l])))); });
}

struct MadLo { template <class T> using Out = T;
    template <class T> static T apply(T a, T b, uint64_t c) { return T(U<T>(a) * U<T>(b) + U<T>(get<T>(c))); } };
struct MadHi { template <class T> using Out = T;
    template <class T> static T apply(T a, T b, uint64_t c) { return T(U<T>(high_half(a, b)) + U<T>(get<T>(c))); } };
struct MulWide { template <class T> using Out = typename WideOf<T>::type;
    template <class T> static auto apply(T a, T b) { using W = typename WideOf<T>::type; return W(W(a) * W(b)); } };
struct MadWide { template <class T> using Out = typename WideOf<T>::type;
    template <class T> static auto apply(T a, T b, uint64_t c) {
        using W = typename WideOf<T>::type;
        return W(W(a) * W(b) + get<W>(c));
    } };
// 24-bit multiplies use the low 24 bits of each operand (sign-extended for .s32).
template <class T> int64_t low24(T a) {
    if constexpr (std::is_signed_v<T>) return int64_t(int32_t(uint32_t(a) << 8) >> 8);
    else return int64_t(uint32_t(a) & 0xFFFFFFu);
}
struct Mul24Lo : Same { template <class T> static T apply(T a, T b) { return T(uint32_t(low24(a) * low24(b))); } };
struct Mul24Hi : Same { template <class T> static T apply(T a, T b) { return T(uint32_t(uint64_t(low24(a) * low24(b)) >> 16)); } };
struct Mad24Lo { template <class T> using Out = T;
    template <class T> static T apply(T a, T b, uint64_t c) { return T(uint32_t(low24(a) * low24(b)) + uint32_t(c)); } };
struct Sad { template <class T> using Out = T;
    template <class T> static T apply(T a, T b, uint64_t c) {
        U<T> diff = a < b ? U<T>(U<T>(b) - U<T>(a)) : U<T>(U<T>(a) - U<T>(b));
        return T(U<T>(get<T>(c)) + diff);
    } };

template <class T>
void bfe(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const uint64_t* cc = c.src(w, in.c);
    constexpr uint32_t msb = kBits<T> - 1;
    for_lanes(m, [&](int l) {
        U<T> x = U<T>(get<T>(a[l]));
        uint32_t pos = uint32_t(b[l]) & 0xFF, len = uint32_t(cc[l]) & 0xFF;
        bool sbit = false;
        if constexpr (std::is_signed_v<T>) {
            uint32_t top = pos + len - 1 > msb ? msb : pos + len - 1;
            sbit = len != 0 && ((x >> top) & 1);
        }
        U<T> r = 0;
        for (uint32_t i = 0; i <= msb; ++i) {
            bool bit = (i < len && pos + i <= msb) ? ((x >> (pos + i)) & 1) : sbit;
            r |= U<T>(U<T>(bit) << i);
        }
        d[l] = put<T>(T(r));
    });
}

// ---- compare and select ----
enum Cmp : uint8_t { kIntEq, kIntNe, kIntLt, kIntLe, kIntGt, kIntGe };
enum Combine : uint8_t { kNone, kAnd, kOr, kXor };

template <class T, int C>
bool compare(T a, T b) {
    if constexpr (C == kIntEq) return a == b;
    else if constexpr (C == kIntNe) return a != b;
    else if constexpr (C == kIntLt) return a < b;
    else if constexpr (C == kIntLe) return a <= b;
    else if constexpr (C == kIntGt) return a > b;
    else return a >= b;
}

} // namespace

// Writes predicate results, combining with predicate c when setp names .and/.or/.xor.
// With "p|q" the second destination (in.pb) gets the complement of the comparison, combined alike.
void write_predicate_pair(Warp& w, const Inst& in, LaneMask m, LaneMask p, LaneMask q);
void write_predicate(Warp& w, const Inst& in, LaneMask m, LaneMask result) { write_predicate_pair(w, in, m, result, ~result); }

// The general form: `p` goes to in.pd and `q` to in.pb (setp.f16x2 compares two halves).
void write_predicate_pair(Warp& w, const Inst& in, LaneMask m, LaneMask p, LaneMask q) {
    LaneMask pc = in.aux != kNone ? (in.pc_negated ? ~w.preds[in.pc] : w.preds[in.pc]) : 0;
    auto combine = [&](LaneMask t) {
        if (in.aux == kNone) return t;
        return in.aux == kAnd ? (t & pc) : in.aux == kOr ? (t | pc) : (t ^ pc);
    };
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | (combine(p) & m);
    if (in.pb >= 0) w.preds[in.pb] = (w.preds[in.pb] & ~m) | (combine(q) & m);
}

// set: a comparison (KernelImage::inner_fns[in.target], a setp function) writes the hidden
// predicates in.pd and, for the high half of .f16x2, in.pb; d holds the low 32 bits of in.offset
// where pd is true and the high 32 bits where pb is true (all ones, 1.0f, 1.0 in f16 ...).
void set_op_impl(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    c.kernel->inner_fns[in.target](c, w, in, m);
    const LaneMask p = w.preds[in.pd], q = in.pb >= 0 ? w.preds[in.pb] : 0;
    const uint64_t lo = uint32_t(in.offset), hi = uint64_t(in.offset) >> 32;
    uint64_t* d = w.row(in.d);
    for_lanes(m, [&](int l) { d[l] = ((p >> l & 1) ? lo : 0) | ((q >> l & 1) ? hi : 0); });
}

namespace {

template <class T, int C>
void setp(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    const LaneMask r = lane_mask(m, [&](int l) { return compare<T, C>(get<T>(a[l]), get<T>(b[l])); });
    write_predicate(w, in, m, r);
}

template <class T>
void selp(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    const uint64_t* b = c.src(w, in.b);
    LaneMask p = w.preds[in.pc];
    if (in.pc_negated) p = ~p;
    for_lanes(m, [&](int l) { d[l] = put<T>(get<T>(((p >> l) & 1) ? a[l] : b[l])); });
}

template <class T>
void mov(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) { d[l] = put<T>(get<T>(a[l])); });
}

// Integer conversion: truncate or extend from the source type, optionally saturating.
template <class D, class S, bool Sat>
void cvt_int(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    uint64_t* d = w.row(in.d);
    const uint64_t* a = c.src(w, in.a);
    for_lanes(m, [&](int l) {
        S x = get<S>(a[l]);
        D r;
        if constexpr (Sat) {
            __int128 v = x;
            __int128 lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
            r = D(v < lo ? lo : v > hi ? hi : v);
        } else {
            r = D(x);
        }
        d[l] = extend_to_register(put<D>(r), sizeof(D), std::is_signed_v<D>, in.width);
    });
}

void pred_and(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    LaneMask a = w.preds[in.pa] ^ (in.pa_negated ? ~0u : 0u), b = w.preds[in.pb] ^ (in.pb_negated ? ~0u : 0u);
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | (a & b & m);
}
void pred_or(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    LaneMask a = w.preds[in.pa] ^ (in.pa_negated ? ~0u : 0u), b = w.preds[in.pb] ^ (in.pb_negated ? ~0u : 0u);
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | ((a | b) & m);
}
void pred_xor(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    LaneMask a = w.preds[in.pa] ^ (in.pa_negated ? ~0u : 0u), b = w.preds[in.pb] ^ (in.pb_negated ? ~0u : 0u);
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | ((a ^ b) & m);
}
void pred_not(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | (~w.preds[in.pa] & m);
}
void pred_mov(ExecContext&, Warp& w, const Inst& in, LaneMask m) {
    LaneMask a = w.preds[in.pa] ^ (in.pa_negated ? ~0u : 0u);
    w.preds[in.pd] = (w.preds[in.pd] & ~m) | (a & m);
}

// ---- type dispatch ----
template <template <class> class K>
ExecFn by_int_type(const std::string& t, bool allow16 = true) {
    if (allow16 && (t == "u16" || t == "b16")) return K<uint16_t>::fn;
    if (allow16 && t == "s16") return K<int16_t>::fn;
    if (t == "u32" || t == "b32") return K<uint32_t>::fn;
    if (t == "s32") return K<int32_t>::fn;
    if (t == "u64" || t == "b64") return K<uint64_t>::fn;
    if (t == "s64") return K<int64_t>::fn;
    return nullptr;
}

template <class Op> struct UnaryK { template <class T> struct K { static constexpr ExecFn fn = unary<T, Op>; }; };
template <class Op> struct BinaryK { template <class T> struct K { static constexpr ExecFn fn = binary<T, Op>; }; };
template <class Op> struct TernaryK { template <class T> struct K { static constexpr ExecFn fn = ternary<T, Op>; }; };
template <class T> struct ShlK { static constexpr ExecFn fn = shift<T, true>; };
template <class T> struct ShrK { static constexpr ExecFn fn = shift<T, false>; };
template <class T> struct SelpK { static constexpr ExecFn fn = selp<T>; };
template <class T> struct MovK { static constexpr ExecFn fn = mov<T>; };
template <class T> struct BfeK { static constexpr ExecFn fn = bfe<T>; };
template <int C> struct SetpOf { template <class T> struct K { static constexpr ExecFn fn = setp<T, C>; }; };

template <class Op> ExecFn unary_fn(const std::string& t) { return by_int_type<UnaryK<Op>::template K>(t); }
template <class Op> ExecFn binary_fn(const std::string& t) { return by_int_type<BinaryK<Op>::template K>(t); }
template <class Op> ExecFn ternary_fn(const std::string& t) { return by_int_type<TernaryK<Op>::template K>(t); }

// Widening forms exist for 16- and 32-bit sources only.
ExecFn narrow_only(const std::string& t, ExecFn u16, ExecFn s16, ExecFn u32, ExecFn s32) {
    if (t == "u16") return u16;
    if (t == "s16") return s16;
    if (t == "u32") return u32;
    if (t == "s32") return s32;
    return nullptr;
}
ExecFn mul_wide_fn(const std::string& t) {
    return narrow_only(t, binary<uint16_t, MulWide>, binary<int16_t, MulWide>,
                                               binary<uint32_t, MulWide>, binary<int32_t, MulWide>);
}
ExecFn mad_wide_fn(const std::string& t) {
    return narrow_only(t, ternary<uint16_t, MadWide>, ternary<int16_t, MadWide>,
                                               ternary<uint32_t, MadWide>, ternary<int32_t, MadWide>);
}

// Compare names: unsigned ones (lo/ls/hi/hs) are the integer forms of lt/le/gt/ge.
int compare_code(const OpSpec& s) {
    static const std::pair<const char*, int> names[] = {{"eq", kIntEq}, {"ne", kIntNe}, {"lt", kIntLt}, {"le", kIntLe},
                                                       {"gt", kIntGt}, {"ge", kIntGe}, {"lo", kIntLt}, {"ls", kIntLe},
                                                       {"hi", kIntGt}, {"hs", kIntGe}};
    for (auto& [n, code] : names)
        if (s.has(n)) return code;
    return -1;
}

ExecFn setp_fn(int cmp, const std::string& t) {
    switch (cmp) {
    case kIntEq: return by_int_type<SetpOf<kIntEq>::K>(t);
    case kIntNe: return by_int_type<SetpOf<kIntNe>::K>(t);
    case kIntLt: return by_int_type<SetpOf<kIntLt>::K>(t);
    case kIntLe: return by_int_type<SetpOf<kIntLe>::K>(t);
    case kIntGt: return by_int_type<SetpOf<kIntGt>::K>(t);
    case kIntGe: return by_int_type<SetpOf<kIntGe>::K>(t);
    }
    return nullptr;
}

template <class D, bool Sat>
ExecFn cvt_from(const std::string& st) {
    if (st == "u8") return cvt_int<D, uint8_t, Sat>;
    if (st == "s8") return cvt_int<D, int8_t, Sat>;
    if (st == "u16" || st == "b16") return cvt_int<D, uint16_t, Sat>;
    if (st == "s16") return cvt_int<D, int16_t, Sat>;
    if (st == "u32" || st == "b32") return cvt_int<D, uint32_t, Sat>;
    if (st == "s32") return cvt_int<D, int32_t, Sat>;
    if (st == "u64" || st == "b64") return cvt_int<D, uint64_t, Sat>;
    if (st == "s64") return cvt_int<D, int64_t, Sat>;
    return nullptr;
}

template <bool Sat>
ExecFn cvt_int_fn(const std::string& dt, const std::string& st) {
    if (dt == "u8") return cvt_from<uint8_t, Sat>(st);
    if (dt == "s8") return cvt_from<int8_t, Sat>(st);
    if (dt == "u16" || dt == "b16") return cvt_from<uint16_t, Sat>(st);
    if (dt == "s16") return cvt_from<int16_t, Sat>(st);
    if (dt == "u32" || dt == "b32") return cvt_from<uint32_t, Sat>(st);
    if (dt == "s32") return cvt_from<int32_t, Sat>(st);
    if (dt == "u64" || dt == "b64") return cvt_from<uint64_t, Sat>(st);
    if (dt == "s64") return cvt_from<int64_t, Sat>(st);
    return nullptr;
}

bool is_int_type(const std::string& t) {
    static const char* const types[] = {"b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64"};
    return std::any_of(std::begin(types), std::end(types), [&](const char* n) { return t == n; });
}

OpChoice choice(ExecFn fn, Layout layout, const OpSpec& s) {
    OpChoice c;
    c.fn = fn;
    c.layout = layout;
    if (!fn) c.error = "unsupported instruction '" + s.full_name() + "'";
    return c;
}

OpChoice select_int_arith(const OpSpec& s, const std::string& t);

OpChoice select_pred_logic(const OpSpec& s) {
    const std::string& op = s.opcode;
    if (op == "and") return choice(pred_and, Layout::PD_PA_PB, s);
    if (op == "or") return choice(pred_or, Layout::PD_PA_PB, s);
    if (op == "xor") return choice(pred_xor, Layout::PD_PA_PB, s);
    if (op == "not") return choice(pred_not, Layout::PD_PA, s);
    if (op == "mov") return choice(pred_mov, Layout::PD_PA, s);
    return {};
}

} // namespace

OpChoice select_int_op(const OpSpec& s) {
    const std::string& op = s.opcode;
    const std::string t = s.type();
    if (t == "pred") return select_pred_logic(s);
    if (op == "setp") {
        if (!is_int_type(t)) return {};
        OpChoice c = choice(setp_fn(compare_code(s), t), Layout::PD_A_B, s);
        c.aux = s.has("and") ? kAnd : s.has("or") ? kOr : s.has("xor") ? kXor : kNone;
        return c;
    }
    if (op == "cvt") {
        std::string dt = s.type(0), st = s.type(1);
        if (!is_int_type(dt) || !is_int_type(st)) return {};
        return choice(s.has("sat") ? cvt_int_fn<true>(dt, st) : cvt_int_fn<false>(dt, st), Layout::D_A, s);
    }
    if (!is_int_type(t)) return {};
    OpChoice c = select_int_arith(s, t);
    // The .sat forms the bit operations do not take (add.sat.s32 ...) are refused, as instructions
    // of this unit: another unit's (vadd.sat ...) are left to it.
    if (c.fn && s.has("sat")) return choice(nullptr, Layout::None, s);
    return c;
}

ExecFn set_fn() { return set_op_impl; }

namespace {

OpChoice select_int_arith(const OpSpec& s, const std::string& t) {
    const std::string& op = s.opcode;
    if (op == "mov") return choice(by_int_type<MovK>(t), Layout::D_A, s);
    if (op == "add") return choice(binary_fn<Add>(t), Layout::D_A_B, s);
    if (op == "sub") return choice(binary_fn<Sub>(t), Layout::D_A_B, s);
    if ((op == "min" || op == "max") && s.has("relu"))
        return choice(t != "s32" ? nullptr : op == "min" ? binary<int32_t, Relu<Min>> : binary<int32_t, Relu<Max>>, Layout::D_A_B, s);
    if (op == "min") return choice(binary_fn<Min>(t), Layout::D_A_B, s);
    if (op == "max") return choice(binary_fn<Max>(t), Layout::D_A_B, s);
    if (op == "and") return choice(binary_fn<And>(t), Layout::D_A_B, s);
    if (op == "or") return choice(binary_fn<Or>(t), Layout::D_A_B, s);
    if (op == "xor") return choice(binary_fn<Xor>(t), Layout::D_A_B, s);
    if (op == "not") return choice(unary_fn<Not>(t), Layout::D_A, s);
    if (op == "cnot") return choice(unary_fn<CNot>(t), Layout::D_A, s);
    if (op == "neg") return choice(unary_fn<Neg>(t), Layout::D_A, s);
    if (op == "abs") return choice(unary_fn<Abs>(t), Layout::D_A, s);
    if (op == "popc") return choice(unary_fn<Popc>(t), Layout::D_A, s);
    if (op == "clz") return choice(unary_fn<Clz>(t), Layout::D_A, s);
    if (op == "brev") return choice(unary_fn<Brev>(t), Layout::D_A, s);
    if (op == "div") return choice(binary_fn<Div>(t), Layout::D_A_B, s);
    if (op == "rem") return choice(binary_fn<Rem>(t), Layout::D_A_B, s);
    if (op == "shl") return choice(by_int_type<ShlK>(t), Layout::D_A_B, s);
    if (op == "shr") return choice(by_int_type<ShrK>(t), Layout::D_A_B, s);
    if (op == "selp") return choice(by_int_type<SelpK>(t), Layout::D_A_B_PC, s);
    if (op == "bfe") return choice(by_int_type<BfeK>(t, false), Layout::D_A_B_C, s);
    if (op == "sad") return choice(ternary_fn<Sad>(t), Layout::D_A_B_C, s);
    if (op == "mul") {
        if (s.has("wide")) return choice(mul_wide_fn(t), Layout::D_A_B, s);
        if (s.has("hi")) return choice(binary_fn<MulHi>(t), Layout::D_A_B, s);
        return choice(binary_fn<MulLo>(t), Layout::D_A_B, s);
    }
    if (op == "mad") {
        if (s.has("wide")) return choice(mad_wide_fn(t), Layout::D_A_B_C, s);
        if (s.has("hi")) return choice(ternary_fn<MadHi>(t), Layout::D_A_B_C, s);
        return choice(ternary_fn<MadLo>(t), Layout::D_A_B_C, s);
    }
    if (op == "mul24" && (t == "u32" || t == "s32"))
        return choice(s.has("hi") ? binary_fn<Mul24Hi>(t) : binary_fn<Mul24Lo>(t), Layout::D_A_B, s);
    if (op == "mad24" && (t == "u32" || t == "s32") && !s.has("hi"))
        return choice(ternary_fn<Mad24Lo>(t), Layout::D_A_B_C, s);
    return {};
}

} // namespace

} // namespace gpusim
