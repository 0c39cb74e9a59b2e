#include "sm/device_printf.h"

#include <cstdio>
#include <cstring>

namespace gpusim {

namespace {
// One conversion: "%" flags width precision length conversion.
struct Spec {
    std::string flags_width_precision;
    std::string length;
    char conv = 0;
    size_t end = 0;   // index after the conversion character
};

Spec parse_spec(const std::string& f, size_t at) {
    Spec s;
    size_t i = at + 1;
    while (i < f.size() && std::strchr("-+ #0123456789.*", f[i])) s.flags_width_precision += f[i++];
    while (i < f.size() && std::strchr("hlLqjzt", f[i])) s.length += f[i++];
    s.conv = i < f.size() ? f[i++] : 0;
    s.end = i;
    return s;
}

template <class T>
std::string host_format(const std::string& spec, T v) {
    char buf[512];
    int n = std::snprintf(buf, sizeof buf, spec.c_str(), v);
    if (n < 0) return spec;
    if (size_t(n) < sizeof buf) return std::string(buf, size_t(n));
    std::string big(size_t(n) + 1, '\0');
    std::snprintf(big.data(), big.size(), spec.c_str(), v);
    big.resize(size_t(n));
    return big;
}
} // namespace

std::string format_device_printf(const std::string& f, const PrintfSource& src) {
    std::string out;
    uint64_t off = 0;
    auto next = [&](size_t size) {
        off = (off + size - 1) / size * size;
        uint64_t v = 0;
        src.arg(off, &v, size);
        off += size;
        return v;
    };
    for (size_t i = 0; i < f.size();) {
        if (f[i] != '%') { out += f[i++]; continue; }
        if (i + 1 < f.size() && f[i + 1] == '%') { out += '%'; i += 2; continue; }
        Spec s = parse_spec(f, i);
        if (s.flags_width_precision.find('*') != std::string::npos) {   // widths from arguments: not in CUDA's printf
            out += f.substr(i, s.end - i);
            i = s.end;
            continue;
        }
        const bool wide = s.length == "l" || s.length == "ll" || s.length == "j" || s.length == "z" || s.length == "t" || s.length == "q";
        const std::string base = "%" + s.flags_width_precision;
        switch (s.conv) {
        case 'd': case 'i':
            out += wide ? host_format(base + "lld", (long long)next(8)) : host_format(base + "d", int(uint32_t(next(4))));
            break;
        case 'u': case 'x': case 'X': case 'o':
            out += wide ? host_format(base + "ll" + s.conv, (unsigned long long)next(8))
                        : host_format(base + s.conv, unsigned(uint32_t(next(4))));
            break;
        case 'c': out += host_format(base + "c", int(uint32_t(next(4)))); break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            uint64_t bits = next(8);
            double d;
            std::memcpy(&d, &bits, 8);
            out += host_format(base + s.conv, d);
            break;
        }
        case 's': out += host_format(base + "s", src.string(next(8)).c_str()); break;
        case 'p': out += host_format(base + "p", reinterpret_cast<void*>(uintptr_t(next(8)))); break;
        default: out += f.substr(i, s.end - i); break;
        }
        i = s.end;
    }
    return out;
}

} // namespace gpusim
