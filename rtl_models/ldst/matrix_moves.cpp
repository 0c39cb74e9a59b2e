// The LD/ST unit's fragment moves: ldmatrix and stmatrix (8x8 matrices of 16-bit elements, one
// row address per lane) and wmma.load and wmma.store (a whole fragment from one address and a
// leading dimension, placed as the H100 places it: tensor/fragment.h).
#include <cstdio>

#include <fmt/format.h>

#include "ldst/lane_access.h"
#include "ldst/ldst_ops.h"
#include "tensor/fragment.h"
#include "tensor/matrix_ops.h"

namespace gpusim {
namespace {

using lane_access::load_elem;
using lane_access::store_elem;
using lane_access::wait_turn_for_host_memory;

// Where element p of register j of lane l sits in 8x8 matrix j: row l/4, column 2(l%4)+p, or
// the transpose.
void ldmatrix_place(int l, int p, bool trans, int& row, int& col) {
    row = trans ? 2 * (l % 4) + p : l / 4;
    col = trans ? l / 4 : 2 * (l % 4) + p;
}

// ldmatrix.sync.aligned.m8n8.xN{.trans}.b16 d, [a]: lanes 8j..8j+7 name the rows of matrix j.
template <MemSpace S>
void ldmatrix(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    require_whole_warp(m, "ldmatrix");
    wait_turn_for_host_memory<S>(c, w, in, m);
    uint16_t e[4][8][8];
    for (int j = 0; j < in.vec_count; ++j)
        for (int r = 0; r < 8; ++r) {
            const int lane = 8 * j + r;
            const uint64_t row = lane_access::address(c, w, in, lane);
            for (int k = 0; k < 8; ++k) e[j][r][k] = load_elem<uint16_t, S>(c, w, lane, row + 2 * k);
        }
    for (int j = 0; j < in.vec_count; ++j) {
        uint64_t* d = w.row(in.vec[j]);
        for (int l = 0; l < 32; ++l) {
            uint32_t v = 0;
            for (int p = 0; p < 2; ++p) {
                int row, col;
                ldmatrix_place(l, p, in.aux != 0, row, col);
                v |= uint32_t(e[j][row][col]) << (16 * p);
            }
            d[l] = v;
        }
    }
}

// stmatrix.sync.aligned.m8n8.xN{.trans}.b16 [a], {r...}: the inverse of ldmatrix.
template <MemSpace S>
void stmatrix(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    require_whole_warp(m, "stmatrix");
    wait_turn_for_host_memory<S>(c, w, in, m);
    uint16_t e[4][8][8];
    for (int j = 0; j < in.vec_count; ++j) {
        const uint64_t* s = c.src(w, in.vec[j]);
        for (int l = 0; l < 32; ++l)
            for (int p = 0; p < 2; ++p) {
                int row, col;
                ldmatrix_place(l, p, in.aux != 0, row, col);
                e[j][row][col] = uint16_t(s[l] >> (16 * p));
            }
    }
    for (int j = 0; j < in.vec_count; ++j)
        for (int r = 0; r < 8; ++r) {
            const int lane = 8 * j + r;
            const uint64_t row = lane_access::address(c, w, in, lane);
            for (int k = 0; k < 8; ++k) store_elem<uint16_t, S>(c, w, lane, row + 2 * k, e[j][r][k]);
        }
}

// The memory address of element `e` (row-major index in a rows x cols matrix) of a fragment in
// memory with leading dimension ld (elements), in the layout the instruction names; in bits.
uint64_t element_bit(uint32_t e, int cols, bool col_major, uint64_t ld, int bits) {
    const uint64_t row = e / cols, col = e % cols;
    return (col_major ? col * ld + row : row * ld + col) * uint64_t(bits);
}

struct FragmentView {
    const MatrixOperands& o;
    int rows, cols, bits;
    bool col_major;
};

FragmentView view_of(const ExecContext& c, const Inst& in) {
    const MatrixOperands& o = c.kernel->matrix_operands[in.target];
    const MatrixForm& f = o.form;
    const int rows = o.use == MatrixUse::B ? f.k : f.m, cols = o.use == MatrixUse::A ? f.k : f.n;
    const MatrixElem e = o.use == MatrixUse::A ? f.a : o.use == MatrixUse::B ? f.b : f.c;
    const bool col_major = o.use == MatrixUse::A ? f.a_col : o.use == MatrixUse::B ? !f.b_row : f.c_col;
    return {o, rows, cols, tensor::elem_bits(e), col_major};
}

// The leading dimension: the stride operand, or the matrix's own width in its layout.
uint64_t leading_dimension(const ExecContext& c, Warp& w, const Inst& in, const FragmentView& v, int lane) {
    if (in.b != kNoRow) return uint32_t(c.src(w, in.b)[lane]);
    return v.col_major ? v.rows : v.cols;
}

// wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type {d...}, [a]{, stride}
template <MemSpace S>
void wmma_load(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    require_whole_warp(m, "wmma.load");
    wait_turn_for_host_memory<S>(c, w, in, m);
    const FragmentView v = view_of(c, in);
    const std::vector<FragmentSlot>& slots = v.o.slots[int(v.o.use)];
    const size_t unique = size_t(tensor::fragment_registers(v.o.form, v.o.use));
    std::vector<uint64_t> regs(unique * 32, 0);
    for (uint32_t e = 0; e < slots.size(); ++e) {
        const FragmentSlot& s = slots[e];
        if (s.reg == 0xFF || (v.bits < 8 && s.pos != 0)) continue;   // sub-byte: a word at a time
        const uint64_t base = lane_access::address(c, w, in, s.lane);
        const uint64_t bit = element_bit(e, v.cols, v.col_major, leading_dimension(c, w, in, v, s.lane), v.bits);
        const uint64_t addr = base + bit / 8;
        uint64_t value;
        switch (v.bits) {
        case 8: value = load_elem<uint8_t, S>(c, w, s.lane, addr); break;
        case 16: value = load_elem<uint16_t, S>(c, w, s.lane, addr); break;
        case 64: value = load_elem<uint64_t, S>(c, w, s.lane, addr); break;
        default: value = load_elem<uint32_t, S>(c, w, s.lane, addr); break;
        }
        regs[size_t(s.reg) * 32 + s.lane] |= v.bits >= 32 ? value : value << (s.pos * v.bits);
    }
    for (size_t r = 0; r < v.o.d.size(); ++r) {
        uint64_t* row = w.row(v.o.d[r]);
        const size_t from = r % unique;   // registers beyond the tiles repeat them (H100)
        for (int l = 0; l < 32; ++l) row[l] = regs[from * 32 + l];
    }
}

// wmma.store.d.sync.aligned.layout.shape{.space}.type [a], {r...}{, stride}
template <MemSpace S>
void wmma_store(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    require_whole_warp(m, "wmma.store");
    wait_turn_for_host_memory<S>(c, w, in, m);
    const FragmentView v = view_of(c, in);
    const std::vector<FragmentSlot>& slots = v.o.slots[int(MatrixUse::C)];
    for (uint32_t e = 0; e < slots.size(); ++e) {
        const FragmentSlot& s = slots[e];
        const uint64_t r = c.src(w, v.o.c[s.reg])[s.lane];
        const uint64_t base = lane_access::address(c, w, in, s.lane);
        const uint64_t addr = base + element_bit(e, v.cols, v.col_major, leading_dimension(c, w, in, v, s.lane), v.bits) / 8;
        switch (v.bits) {
        case 16: store_elem<uint16_t, S>(c, w, s.lane, addr, uint16_t(r >> (16 * s.pos))); break;
        case 64: store_elem<uint64_t, S>(c, w, s.lane, addr, r); break;
        default: store_elem<uint32_t, S>(c, w, s.lane, addr, uint32_t(r)); break;
        }
    }
}

template <template <MemSpace> class Fn>
ExecFn by_space(MemSpace s);

#define GPUSIM_BY_SPACE(fn)                                        \
    ExecFn fn##_in(MemSpace s) {                                  \
        switch (s) {                                              \
        case MemSpace::Global: return fn<MemSpace::Global>;       \
        case MemSpace::Shared: return fn<MemSpace::Shared>;       \
        default: return fn<MemSpace::Generic>;                    \
        }                                                         \
    }
GPUSIM_BY_SPACE(ldmatrix)
GPUSIM_BY_SPACE(stmatrix)
GPUSIM_BY_SPACE(wmma_load)
GPUSIM_BY_SPACE(wmma_store)
#undef GPUSIM_BY_SPACE

MemSpace matrix_space(const OpSpec& s) {
    if (s.has("global")) return MemSpace::Global;
    if (s.has("shared") || s.has("shared::cta")) return MemSpace::Shared;
    return MemSpace::Generic;
}

OpChoice select_ldstmatrix(const OpSpec& s) {
    OpChoice c;
    const int count = s.has("x1") ? 1 : s.has("x2") ? 2 : s.has("x4") ? 4 : 0;
    if (!s.has("m8n8") || count == 0 || s.type() != "b16")
        return refuse_form(s, fmt::format("expected {}.sync.aligned.m8n8.x{{1,2,4}}{{.trans}}{{.shared}}.b16 (the 8-bit forms of sm_100 are not modelled)", s.opcode));
    c.space = matrix_space(s);
    if (c.space == MemSpace::Global) return refuse_form(s, s.opcode + " reads and writes shared memory");
    c.fn = s.opcode == "ldmatrix" ? ldmatrix_in(c.space) : stmatrix_in(c.space);
    c.layout = Layout::Matrix;
    c.vec_count = uint8_t(count);
    c.width = 16;   // one row of eight 16-bit elements a lane
    c.aux = s.has("trans") ? 1 : 0;
    return c;
}

OpChoice select_wmma_move(const OpSpec& s) {
    const bool load = s.has("load");
    MatrixForm f;
    f.wmma = true;
    MatrixUse use = MatrixUse::C;
    if (load && s.has("a")) use = MatrixUse::A;
    else if (load && s.has("b")) use = MatrixUse::B;
    else if (!(load ? s.has("c") : s.has("d"))) return refuse_form(s, load ? "expected wmma.load.{a,b,c}" : "expected wmma.store.d");
    // The shape, and the one type that names the fragment's elements.
    bool shaped = false, typed = false;
    for (const std::string& mod : s.mods) {
        unsigned m = 0, n = 0, k = 0;
        if (std::sscanf(mod.c_str(), "m%un%uk%u", &m, &n, &k) == 3) {
            f.m = uint8_t(m); f.n = uint8_t(n); f.k = uint16_t(k); shaped = true;
        } else if (tensor::matrix_elem_of(mod, f.a)) {
            typed = true;
        }
    }
    if (!shaped || !typed) return refuse_form(s, "expected a shape and an element type");
    if (f.a == MatrixElem::E4M3 || f.a == MatrixElem::E5M2) return refuse_form(s, "wmma has no fp8 fragments");
    f.b = f.c = f.a;
    const bool col = s.has("col");
    if (!col && !s.has("row")) return refuse_form(s, "expected the layout .row or .col");
    f.a_col = f.c_col = col;
    f.b_row = !col;
    OpChoice c;
    c.space = matrix_space(s);
    c.fn = load ? wmma_load_in(c.space) : wmma_store_in(c.space);
    c.layout = Layout::Matrix;
    c.width = uint8_t(std::max(1, tensor::elem_bits(f.a) / 8));
    c.code = tensor::encode_form(f, use);
    return c;
}

} // namespace

OpChoice select_matrix_move(const OpSpec& s) {
    if (s.opcode == "ldmatrix" || s.opcode == "stmatrix") return select_ldstmatrix(s);
    if (s.opcode == "wmma" && (s.has("load") || s.has("store"))) return select_wmma_move(s);
    return {};
}

} // namespace gpusim
