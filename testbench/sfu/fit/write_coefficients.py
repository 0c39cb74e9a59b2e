# Writes rtl_models/sfu/mufu_coefficients.h from the fits (tanh_table.json, sin_table.json).
#   python3 write_coefficients.py OUTPUT.h
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
t = sorted(json.load(open(os.path.join(here, 'tanh_table.json'))), key=lambda r: (r['E'], r['seg']))
s = sorted(json.load(open(os.path.join(here, 'sin_table.json'))), key=lambda r: r['seg'])
assert all(r['exact'] for r in t + s) and all(r['j'] == 0 for r in s)
bits = ', '.join(str(next(r['nb'] for r in t if r['E'] == e)) for e in range(-8, 3))
out = ['''// Coefficients of MUFU.TANH and MUFU.SIN/COS, fitted to captures from an H100 (docs/sfu.md). A
// segment evaluates, in fixed point, acc = K + C1*d*2^19 + C2*fsq(d) for tanh and
// acc = K + C1*d + C2*(fsq(d) >> 19) for sin, fsq being the unit's truncated squarer; every captured
// result is reproduced. Written by testbench/sfu/fit/write_coefficients.py: not edited by hand.
#pragma once

#include <cstdint>

namespace gpusim::mufu {

struct TanhSegment {
    int8_t binade;     // E: |x| in [2^E, 2^(E+1))
    uint8_t index;     // which of the binade's 2^nb segments
    int8_t scale;      // j: the result is acc * 2^(E - 55 - j)
    int32_t c1, c2;
    int64_t k;
};

// Top mantissa bits that choose the segment, per binade -8..2.
constexpr uint8_t kTanhSegmentBits[11] = {''' + bits + '''};

constexpr TanhSegment kTanhSegments[] = {''']
out += [f"    {{{r['E']}, {r['seg']}, {r['j']}, {r['C1']}, {r['C2']}, {r['K']}LL}}," for r in t]
out.append('''};

struct SinSegment {
    int32_t c1, c2;
    int64_t k;         // units of 2^-37
};

// The first quarter period, in 64 segments of 2^17 phase steps.
constexpr SinSegment kSinSegments[64] = {''')
out += [f"    {{{r['C1']}, {r['C2']}, {r['K']}LL}}," for r in s]
out.append('''};

} // namespace gpusim::mufu
''')
open(sys.argv[1], 'w').write('\n'.join(out))
