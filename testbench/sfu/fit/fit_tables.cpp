// Fits MUFU's quadratic interpolator (rtl_models/sfu/interpolator.h) to each captured table that
// fit_layout names, segment by segment, and writes the coefficients as a C++ header:
//   build/testbench/sfu_fit_tables rtl_models/sfu/mufu_table_fits.h
// A segment's fit is kept only when evaluate() reproduces every entry of the segment; a segment
// without one is marked kNotFitted and the model reads it from the table (docs/sfu.md).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sfu/interpolator.h"
#include "sfu/sfu_tables.h"

using namespace gpusim;
using namespace gpusim::mufu;

namespace {

const char* const kNames[] = {"Rcp", "Rsqrt", "Sqrt", "Ex2Pos", "Ex2Neg", "Lg2E0", "Lg2Em1", "Lg2Em2"};

std::vector<int64_t> squares() {
    std::vector<int64_t> s(1u << 17);
    for (uint32_t d = 0; d < s.size(); ++d) s[d] = truncated_square_of(d) >> 19;
    return s;
}

// Least squares of y ~ c0 + c1*d + c2*s over every 7th point.
void least_squares(const std::vector<int64_t>& d, const std::vector<int64_t>& s, const std::vector<double>& y, double c[3]) {
    double a[3][4] = {};
    for (size_t k = 0; k < d.size(); k += 7) {
        const double r[3] = {1, double(d[k]), double(s[k])};
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) a[i][j] += r[i] * r[j];
            a[i][3] += r[i] * y[k];
        }
    }
    for (int i = 0; i < 3; ++i) {
        int p = i;
        for (int r = i + 1; r < 3; ++r)
            if (std::fabs(a[r][i]) > std::fabs(a[p][i])) p = r;
        for (int j = 0; j < 4; ++j) std::swap(a[i][j], a[p][j]);
        for (int r = 0; r < 3; ++r)
            if (r != i) {
                const double f = a[r][i] / a[i][i];
                for (int j = 0; j < 4; ++j) a[r][j] -= f * a[i][j];
            }
    }
    for (int i = 0; i < 3; ++i) c[i] = a[i][3] / a[i][i];
}

// The segment's coefficients, or kNotFitted. `entries` are the segment's table entries by offset.
TableSegment fit(const std::vector<uint32_t>& entries, int offset_bits, const std::vector<int64_t>& sq19) {
    TableSegment none{0, 0, 0, kNotFitted, 0};
    const uint32_t sign = entries[0] & 0x80000000u;
    int emax = 0;
    for (uint32_t e : entries) {
        const int be = int((e >> 23) & 0xFF);
        if ((e & 0x80000000u) != sign || be == 0 || be == 255) return none;   // zero, sign change, not normal
        emax = std::max(emax, be);
    }
    const size_t n = entries.size();
    std::vector<int64_t> d(n), s(n), lo_y(n), width(n);
    std::vector<double> mid(n);
    for (size_t k = 0; k < n; ++k) {
        d[k] = int64_t(k);
        s[k] = sq19[k << (17 - offset_bits)];
    }
    for (int g = 0; g <= 26; ++g) {
        bool representable = true;
        for (size_t k = 0; k < n && representable; ++k) {
            const int below = emax - int((entries[k] >> 23) & 0xFF);   // binades below the segment's top
            if (g < below) {
                representable = false;   // a lower binade's entries are finer than the unit
                break;
            }
            const int64_t m = (entries[k] & 0x7FFFFF) | 0x800000;
            lo_y[k] = m << (g - below);
            width[k] = int64_t(1) << (g - below);
            mid[k] = double(lo_y[k]) + double(width[k]) / 2;
        }
        if (!representable) continue;
        double c[3];
        least_squares(d, s, mid, c);
        for (int64_t c1 = std::llround(c[1]) - 6; c1 <= std::llround(c[1]) + 6; ++c1)
            for (int64_t c2 = std::llround(c[2]) - 6; c2 <= std::llround(c[2]) + 6; ++c2) {
                if (c1 < INT32_MIN || c1 > INT32_MAX || c2 < INT32_MIN || c2 > INT32_MAX) continue;
                int64_t lo = INT64_MIN, hi = INT64_MAX;
                for (size_t k = 0; k < n && lo < hi; ++k) {
                    const int64_t part = c1 * d[k] + c2 * s[k];
                    lo = std::max(lo, lo_y[k] - part);
                    hi = std::min(hi, lo_y[k] + width[k] - part);
                }
                if (lo >= hi) continue;
                const TableSegment seg{lo, int32_t(c1), int32_t(c2), (emax - 127) - 23 - g, sign};
                bool exact = true;
                for (size_t k = 0; k < n && exact; ++k) exact = evaluate(seg, uint32_t(k), s[k]) == entries[k];
                if (exact) return seg;
            }
    }
    return none;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT.h\n", argv[0]);
        return 2;
    }
    const std::vector<int64_t> sq19 = squares();
    std::string body, starts;
    uint32_t count = 0;
    for (int t = 0; t < int(SfuTable::Count); ++t) {
        const FitLayout layout = fit_layout(SfuTable(t));
        if (!layout.offset_bits) {
            starts += "    kNoFit,\n";
            continue;
        }
        starts += "    " + std::to_string(count) + ",   // " + kNames[t] + "\n";
        const std::vector<uint32_t> table = sfu_table_entries(SfuTable(t));
        const uint32_t last = uint32_t(table.size() - 1), len = 1u << layout.offset_bits;
        uint32_t fitted = 0, segments = uint32_t(table.size() >> layout.offset_bits);
        if (segments != layout.segments) {
            std::fprintf(stderr, "%s: %u segments, fit_layout says %u\n", kNames[t], segments, layout.segments);
            return 1;
        }
        for (uint32_t seg = 0; seg < segments; ++seg) {
            std::vector<uint32_t> entries(len);
            for (uint32_t k = 0; k < len; ++k) {
                const uint32_t i = seg * len + k;
                entries[k] = table[layout.complement ? last - i : i];
            }
            const TableSegment f = fit(entries, layout.offset_bits, sq19);
            fitted += f.exp != kNotFitted;
            // Two segments a line: the header stays short enough to read.
            char entry[96];
            std::snprintf(entry, sizeof entry, "{%lldLL, %d, %d, %s, 0x%08xu},", (long long)f.k, f.c1, f.c2,
                          f.exp == kNotFitted ? "kNotFitted" : std::to_string(f.exp).c_str(), f.sign);
            body += (seg % 2 ? " " : "    ") + std::string(entry) + (seg % 2 || seg + 1 == segments ? "\n" : "");
            ++count;
        }
        std::fprintf(stderr, "%s: %u of %u segments fitted\n", kNames[t], fitted, segments);
    }
    FILE* out = std::fopen(argv[1], "w");
    if (!out) {
        std::perror(argv[1]);
        return 1;
    }
    std::fprintf(out,
                 "// MUFU's interpolator fitted to the captured tables, segment by segment (interpolator.h,\n"
                 "// docs/sfu.md). Written by testbench/sfu/fit/fit_tables.cpp: not edited by hand.\n"
                 "#pragma once\n\n#include \"sfu/interpolator.h\"\n\nnamespace gpusim::mufu {\n\n"
                 "constexpr uint32_t kNoFit = UINT32_MAX;\n\n"
                 "// Where each table's segments start in kTableFits, as SfuTable numbers the tables.\n"
                 "constexpr uint32_t kFitStart[] = {\n%s};\n\n"
                 "constexpr TableSegment kTableFits[] = {\n%s};\n\n} // namespace gpusim::mufu\n",
                 starts.c_str(), body.c_str());
    std::fclose(out);
    return 0;
}
