#include "runtime/compare.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace gpusim {

namespace {

template <class Bits>
Bits element(ByteSpan v, size_t i) {
    Bits w = 0;
    size_t n = std::min(sizeof(Bits), v.size - i * sizeof(Bits));
    std::memcpy(&w, v.data + i * sizeof(Bits), n);
    return w;
}

// Distance between adjacent representable values at the magnitude of x.
template <class F>
double ulp_at(F x) {
    F ax = std::fabs(x);
    F next = std::nextafter(ax, std::numeric_limits<F>::infinity());
    return double(next) - double(ax);
}

template <class F, class Bits>
bool within(Bits eb, Bits gb, const Tolerance& t, double& err) {
    if (eb == gb) return true;
    F e, g;
    std::memcpy(&e, &eb, sizeof e);
    std::memcpy(&g, &gb, sizeof g);
    if (std::isnan(e) || std::isnan(g)) return std::isnan(e) && std::isnan(g);
    if (std::isinf(e) || std::isinf(g)) return false;
    double d = std::fabs(double(g) - double(e));
    err = std::max(err, d);
    return (t.ulp >= 0 && d <= t.ulp * ulp_at(e)) || (t.abs >= 0 && d <= t.abs) ||
           (t.rel >= 0 && d <= t.rel * std::fabs(double(e)));
}

template <class F, class Bits>
std::string compare_as(ByteSpan expected, ByteSpan got, const Tolerance& t) {
    size_t n = (got.size + sizeof(Bits) - 1) / sizeof(Bits), differ = 0, first = 0;
    double err = 0;
    for (size_t i = 0; i < n; ++i) {
        bool ok = t.exact() ? element<Bits>(expected, i) == element<Bits>(got, i)
                            : within<F>(element<Bits>(expected, i), element<Bits>(got, i), t, err);
        if (!ok && !differ++) first = i;
    }
    if (!differ) return "";
    const int digits = int(2 * sizeof(Bits));
    Bits e = element<Bits>(expected, first), g = element<Bits>(got, first);
    if (t.exact())
        return fmt::format("{} of {} words differ; first at word {} (byte {}): expected 0x{:0{}x}, got 0x{:0{}x}", differ, n,
                           first, first * sizeof(Bits), e, digits, g, digits);
    std::string msg = fmt::format("{} of {} {}-bit elements differ beyond {}; first at element {} (byte {}): expected 0x{:0{}x}, got 0x{:0{}x}",
                                  differ, n, 8 * sizeof(Bits), t.describe(), first, first * sizeof(Bits), e, digits, g, digits);
    msg += fmt::format(" (largest error among finite elements {:g})", err);
    return msg;
}

} // namespace

std::string Tolerance::describe() const {
    std::string s;
    auto add = [&](const char* name, double v) {
        if (v >= 0) s += fmt::format("{}{} {:g}", s.empty() ? "" : " or ", name, v);
    };
    add("ulp", ulp);
    add("abs", abs);
    add("rel", rel);
    return fmt::format("{} {}", type == Type::F32 ? "f32" : "f64", s);
}

std::string compare_buffers(ByteSpan expected, ByteSpan got, const Tolerance& tol) {
    if (expected.size != got.size)
        return fmt::format("size differs: reference has {} bytes, buffer has {}", expected.size, got.size);
    if (got.size == 0 || std::memcmp(expected.data, got.data, got.size) == 0) return "";   // equal bits pass any tolerance
    if (tol.type == Tolerance::Type::F64) return compare_as<double, uint64_t>(expected, got, tol);
    return compare_as<float, uint32_t>(expected, got, tol);
}

} // namespace gpusim
