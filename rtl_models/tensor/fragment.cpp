#include "tensor/fragment.h"

#include <algorithm>

namespace gpusim::tensor {
namespace {

// mma.sync tile layouts (PTX ISA, "Matrix fragments for mma.m16n8k*"): lane = 4 * g + t.
// A (rows x k): register r holds `per` consecutive columns: row g (+8 for odd r when 16 rows),
// columns per*t + pos + 4*per*(r / 2) (or r when 8 rows).
void a_tile(int rows, int per, int r, int lane, int pos, int& row, int& col) {
    const int g = lane / 4, t = lane % 4;
    if (rows == 16) {
        row = g + 8 * (r % 2);
        col = per * t + pos + 4 * per * (r / 2);
    } else {
        row = g;
        col = per * t + pos + 4 * per * r;
    }
}

// B (k x 8): register r holds `per` consecutive rows of column g.
void b_tile(int per, int r, int lane, int pos, int& row, int& col) {
    const int g = lane / 4, t = lane % 4;
    row = per * t + pos + 4 * per * r;
    col = g;
}

// C and D (rows x 8): element e = r * per + pos at row g (+8 for e >= 2), column 2t + e % 2.
void c_tile(int per, int r, int lane, int pos, int& row, int& col) {
    const int g = lane / 4, t = lane % 4, e = r * per + pos;
    row = g + 8 * (e / 2);
    col = 2 * t + e % 2;
}

}  // namespace

int elements_per_register(Elem e) { return elem_bits(e) >= 32 ? 1 : 32 / elem_bits(e); }

std::vector<FragmentSlot> fragment_slots(const MatrixForm& f, Use u) {
    const int rows = u == Use::B ? f.k : f.m, cols = u == Use::A ? f.k : f.n;
    std::vector<FragmentSlot> slots(size_t(rows) * cols);
    const Elem e = u == Use::A ? f.a : u == Use::B ? f.b : f.c;
    const int per = elements_per_register(e);
    auto put = [&](int row, int col, int reg, int lane, int pos) {
        if (row < rows && col < cols) slots[size_t(row) * cols + col] = FragmentSlot{uint8_t(reg), uint8_t(lane), uint8_t(pos)};
    };
    // A tile of mma.sync's layout at (row0, col0), its registers from `first`, optionally
    // transposed (an m8n32 wmma: A^T sits where the m32n8 problem's B does, and so on).
    auto tile = [&](Use kind, int tile_rows, int kdim, int first, int row0, int col0, bool transposed) {
        const int elems = kind == Use::A ? tile_rows * kdim : kind == Use::B ? kdim * 8 : tile_rows * 8;
        const int count = elems / (32 * per);
        for (int r = 0; r < count; ++r)
            for (int lane = 0; lane < 32; ++lane)
                for (int pos = 0; pos < per; ++pos) {
                    int row = 0, col = 0;
                    if (kind == Use::A) a_tile(tile_rows, per, r, lane, pos, row, col);
                    else if (kind == Use::B) b_tile(per, r, lane, pos, row, col);
                    else c_tile(per, r, lane, pos, row, col);
                    if (transposed) put(col0 + col, row0 + row, first + r, lane, pos);
                    else put(row0 + row, col0 + col, first + r, lane, pos);
                }
        return count;
    };
    if (!f.wmma) {
        if (u == Use::A) tile(Use::A, f.m, f.k, 0, 0, 0, false);
        else if (u == Use::B) tile(Use::B, 8, f.k, 0, 0, 0, false);
        else tile(Use::C, f.m, f.k, 0, 0, 0, false);
        return slots;
    }
    // wmma: tiles of the mma.sync shape m16n8 (m8n8 for f64, s4, u4, b1).
    const int tm = f.m == 8 && f.n == 8 ? 8 : 16;
    if (tm == 8) {
        tile(u, 8, f.k, 0, 0, 0, false);
        return slots;
    }
    int reg = 0;
    const bool transposed = f.m == 8;   // m8n32: computed as m32n8 of B^T * A^T
    const int big = transposed ? f.n : f.m, small = transposed ? f.m : f.n;   // 32 or 16, 8 or 16
    const Use as = !transposed ? u : u == Use::A ? Use::B : u == Use::B ? Use::A : Use::C;
    if (as == Use::A)
        for (int r0 = 0; r0 < big; r0 += 16) reg += tile(Use::A, 16, f.k, reg, r0, 0, transposed);
    else if (as == Use::B)
        for (int c0 = 0; c0 < small; c0 += 8) reg += tile(Use::B, 8, f.k, reg, 0, c0, transposed);
    else
        for (int r0 = 0; r0 < big; r0 += 16)
            for (int c0 = 0; c0 < small; c0 += 8) reg += tile(Use::C, 16, f.k, reg, r0, c0, transposed);
    return slots;
}

int fragment_registers(const MatrixForm& f, Use u) {
    int most = -1;
    for (const FragmentSlot& s : fragment_slots(f, u)) most = s.reg == 0xFF ? most : std::max(most, int(s.reg));
    return most + 1;
}

} // namespace gpusim::tensor
