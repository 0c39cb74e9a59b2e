// mma.sync, wmma.mma and movmatrix. A warp's fragments are gathered into dense matrices through
// the slots the loader computed (MatrixOperands), each element of D computed as the H100 does
// (tensor_arith.h), and scattered back.
#include "tensor/matrix_ops.h"

#include <fmt/format.h>

#include "isa/exec_context.h"
#include "tensor/tensor_arith.h"

namespace gpusim::tensor {
namespace {

const char* kRefusedFp8 = "fp8 (e4m3, e5m2) mma is modelled in the shape m16n8k32 only";

} // namespace

bool matrix_elem_of(const std::string& t, Elem& e) {
    static const std::pair<const char*, Elem> names[] = {
        {"f16", Elem::F16}, {"bf16", Elem::BF16}, {"tf32", Elem::TF32}, {"e4m3", Elem::E4M3}, {"e5m2", Elem::E5M2},
        {"f32", Elem::F32}, {"f64", Elem::F64}, {"s8", Elem::S8}, {"u8", Elem::U8}, {"s4", Elem::S4}, {"u4", Elem::U4},
        {"b1", Elem::B1}, {"s32", Elem::S32}};
    for (const auto& [n, v] : names)
        if (t == n) { e = v; return true; }
    return false;
}

namespace {

OpChoice refuse(const OpSpec& s, const std::string& why) {
    OpChoice c;
    c.error = "unsupported instruction '" + s.full_name() + "': " + why;
    return c;
}

uint32_t field(uint64_t v, int pos, int bits) { return uint32_t(v >> pos) & ((1u << bits) - 1); }

// Reads element (slot) of an operand: `bits` wide, from the register rows `rows`.
uint64_t read(const ExecContext& c, Warp& w, const std::vector<int32_t>& rows, const FragmentSlot& s, int bits) {
    const uint64_t v = c.src(w, rows[s.reg])[s.lane];
    if (bits >= 32) return bits == 64 ? v : uint32_t(v);
    return (v >> (s.pos * bits)) & ((uint64_t(1) << bits) - 1);
}

// D = A * B + C over the operands' fragments.
void matrix_multiply(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    require_whole_warp(m, "a matrix multiply-accumulate");
    const MatrixOperands& o = c.kernel->matrix_operands[in.target];
    const MatrixForm& f = o.form;
    const int ab = elem_bits(f.a), bb = elem_bits(f.b), cb = elem_bits(f.c);
    const int M = f.m, N = f.n, K = f.k;
    const bool binary = f.a == Elem::B1;
    const int kk = binary ? K / 32 : K;   // b1: 32 elements a word
    std::vector<uint64_t> A(size_t(M) * kk), B(size_t(kk) * N);
    if (!binary) {
        for (size_t e = 0; e < A.size(); ++e) A[e] = read(c, w, o.a, o.slots[0][e], ab);
        for (size_t e = 0; e < B.size(); ++e) B[e] = read(c, w, o.b, o.slots[1][e], bb);
    } else {
        // b1: 32 consecutive elements along k share a register, the first at bit 0
        for (int r = 0; r < M; ++r)
            for (int q = 0; q < kk; ++q) A[size_t(r) * kk + q] = read(c, w, o.a, o.slots[0][size_t(r) * K + q * 32], 32);
        for (int r = 0; r < kk; ++r)
            for (int q = 0; q < N; ++q) B[size_t(r) * N + q] = read(c, w, o.b, o.slots[1][size_t(r * 32) * N + q], 32);
    }
    // Results first, so that a destination that is also a source reads the old value.
    const std::vector<FragmentSlot>& cs = o.slots[2];
    std::vector<uint64_t> D(size_t(M) * N);
    // wmma's tf32 shape runs as two mma.m16n8k4 steps on the H100 (golden wmma); mma's own shapes
    // sum all their products at once.
    const int block = f.wmma && f.a == Elem::TF32 ? 4 : 0;
    uint32_t a32[256], b32[256];
    uint64_t a64[16], b64[16];
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            const uint64_t cv = read(c, w, o.c, cs[size_t(i) * N + j], cb);
            for (int k = 0; k < kk; ++k) {
                if (f.a == Elem::F64) { a64[k] = A[size_t(i) * kk + k]; b64[k] = B[size_t(k) * N + j]; }
                else { a32[k] = uint32_t(A[size_t(i) * kk + k]); b32[k] = uint32_t(B[size_t(k) * N + j]); }
            }
            uint64_t r;
            if (f.a == Elem::F64) r = dot_f64(a64, b64, K, cv);
            else if (binary) r = dot_b1(a32, b32, kk, uint32_t(cv), f.xor_popc);
            else if (f.a == Elem::E4M3 || f.a == Elem::E5M2) r = dot_fp8(f.a, f.b, f.c, a32, b32, K, uint32_t(cv));
            else if (is_float(f.a)) r = dot_float(f.a, f.c, a32, b32, K, uint32_t(cv), block);
            else r = dot_int(f.a, f.b, a32, b32, K, uint32_t(cv), f.satfinite);
            D[size_t(i) * N + j] = r;
        }
    // Scatter: registers of D start from zero and take their elements.
    std::vector<uint64_t> regs(o.d.size() * 32, 0);
    for (size_t e = 0; e < D.size(); ++e) {
        const FragmentSlot& s = cs[e];
        const uint64_t v = cb >= 32 ? D[e] : (D[e] & ((uint64_t(1) << cb) - 1)) << (s.pos * cb);
        regs[size_t(s.reg) * 32 + s.lane] |= v;
    }
    for (size_t r = 0; r < o.d.size(); ++r) {
        uint64_t* row = w.row(o.d[r]);
        for (int l = 0; l < 32; ++l) row[l] = regs[r * 32 + l];
    }
}

// movmatrix.sync.aligned.m8n8.trans.b16: lane l holds row l/4, columns 2(l%4) and 2(l%4)+1 of
// an 8x8 matrix of 16-bit elements; the result holds the transpose in the same places.
void movmatrix(ExecContext& c, Warp& w, const Inst& in, LaneMask m) {
    require_whole_warp(m, "movmatrix");
    const uint64_t* a = c.src(w, in.a);
    uint16_t e[8][8];
    for (int l = 0; l < 32; ++l)
        for (int p = 0; p < 2; ++p) e[l / 4][2 * (l % 4) + p] = uint16_t(a[l] >> (16 * p));
    uint64_t* d = w.row(in.d);
    for (int l = 0; l < 32; ++l) d[l] = uint32_t(e[2 * (l % 4)][l / 4]) | (uint32_t(e[2 * (l % 4) + 1][l / 4]) << 16);
}

} // namespace

uint64_t encode_form(const MatrixForm& f, MatrixUse use) {
    return uint64_t(f.m) | uint64_t(f.n) << 8 | uint64_t(f.k) << 16 | uint64_t(f.a) << 32 | uint64_t(f.b) << 36 |
           uint64_t(f.c) << 40 | uint64_t(f.wmma) << 44 | uint64_t(f.satfinite) << 45 | uint64_t(f.xor_popc) << 46 |
           uint64_t(f.a_col) << 47 | uint64_t(f.b_row) << 48 | uint64_t(f.c_col) << 49 | uint64_t(use) << 50;
}

MatrixForm decode_form(uint64_t v, MatrixUse& use) {
    MatrixForm f;
    f.m = uint8_t(field(v, 0, 8));
    f.n = uint8_t(field(v, 8, 8));
    f.k = uint16_t(field(v, 16, 16));
    f.a = Elem(field(v, 32, 4));
    f.b = Elem(field(v, 36, 4));
    f.c = Elem(field(v, 40, 4));
    f.wmma = field(v, 44, 1);
    f.satfinite = field(v, 45, 1);
    f.xor_popc = field(v, 46, 1);
    f.a_col = field(v, 47, 1);
    f.b_row = field(v, 48, 1);
    f.c_col = field(v, 49, 1);
    use = MatrixUse(field(v, 50, 2));
    return f;
}

MatrixForm parse_matrix_form(const OpSpec& s, std::string& error) {
    MatrixForm f;
    f.wmma = s.opcode == "wmma";
    std::vector<Elem> types;
    bool shape = false;
    for (const std::string& mod : s.mods) {
        unsigned m = 0, n = 0, k = 0;
        Elem e;
        if (std::sscanf(mod.c_str(), "m%un%uk%u", &m, &n, &k) == 3) {
            f.m = uint8_t(m); f.n = uint8_t(n); f.k = uint16_t(k); shape = true;
        } else if (matrix_elem_of(mod, e)) {
            types.push_back(e);
        } else if (mod == "satfinite") {
            f.satfinite = true;
        } else if (mod == "xor") {
            f.xor_popc = true;
        }
    }
    if (!shape) { error = "expected a shape (m16n8k16 ...)"; return f; }
    // mma: .dtype.atype.btype.ctype; wmma.mma: .dtype.ctype with f16 inputs, else .dtype.atype.btype.ctype.
    if (types.size() == 4) { f.a = types[1]; f.b = types[2]; f.c = types[3]; }
    else if (types.size() == 2 && f.wmma) { f.a = f.b = Elem::F16; f.c = types[1]; }
    else { error = "expected the types .dtype.atype.btype.ctype"; return f; }
    const Elem d = types[0];
    if (d != f.c) error = "a result type other than the accumulator's (mixed .f16 and .f32) is not modelled";
    if ((f.a == Elem::E4M3 || f.a == Elem::E5M2) && (f.wmma || f.k != 32)) error = kRefusedFp8;
    if (!f.wmma && f.m == 8 && f.n == 8 && f.k == 4 && f.a == Elem::F16)
        error = "mma.m8n8k4 with f16 (sm_70's quad-pair layout) is not modelled";
    return f;
}

OpChoice select_tensor_op(const OpSpec& s) {
    OpChoice c;
    if (s.opcode == "movmatrix") {
        if (!s.has("trans") || !s.has("m8n8") || s.type() != "b16") return refuse(s, "expected movmatrix.sync.aligned.m8n8.trans.b16");
        c.fn = movmatrix;
        c.layout = Layout::D_A;
        return c;
    }
    const bool is_mma = s.opcode == "mma" || (s.opcode == "wmma" && s.has("mma"));
    if (!is_mma) return {};
    if (s.opcode == "mma" && (s.has("sp") || s.has("sp::ordered_metadata"))) return refuse(s, "sparse mma (mma.sp) is not modelled");
    for (const std::string& mod : s.mods)
        if (mod.rfind("kind::", 0) == 0 || mod.rfind("block_scale", 0) == 0)
            return refuse(s, fmt::format("mma .{} (sm_100 and later) is not modelled", mod));
    std::string error;
    const MatrixForm f = parse_matrix_form(s, error);
    if (!error.empty()) return refuse(s, error);
    c.fn = matrix_multiply;
    c.layout = Layout::Matrix;
    c.code = encode_form(f, MatrixUse::C);
    return c;
}

void register_tensor_ops(OpRegistry& r) { r.add("tensor", select_tensor_op); }

} // namespace gpusim::tensor
