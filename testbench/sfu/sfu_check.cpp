// Compares the model's SFU with captures from the GPU (sfu_capture.cu): for each line of a list,
// how many of the captured results the model reproduces bit for bit.
//   sfu_check DIR LIST      exit status 0 when every result matches, 1 otherwise
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "sfu/approx_sequences.h"
#include "sfu/mufu.h"
#include "sfu_inputs.h"

using namespace sfu_inputs;
using namespace gpusim;

namespace {

uint32_t pair16(uint16_t (*f)(uint16_t), uint32_t a) { return uint32_t(f(uint16_t(a))) | uint32_t(f(uint16_t(a >> 16))) << 16; }

uint32_t model(int op, uint32_t a, uint32_t b) {
    switch (op) {
    case RCP: case RCPF: return approx::rcp(a, op == RCPF);
    case SQRT: case SQRTF: return approx::sqrt(a, op == SQRTF);
    case RSQ: case RSQF: return approx::rsqrt(a, op == RSQF);
    case EX2: case EX2F: return approx::ex2(a, op == EX2F);
    case LG2: case LG2F: return approx::lg2(a, op == LG2F);
    case SIN: case SINF: return approx::sin(a);
    case COS: case COSF: return approx::cos(a);
    case TANH: return mufu::tanh(a);
    case TANH_H: return mufu::tanh_f16(uint16_t(a));
    case TANH_B: return mufu::tanh_bf16(uint16_t(a));
    case EX2_H: return mufu::ex2_f16(uint16_t(a));
    case EX2_B: return mufu::ex2_bf16(uint16_t(a));
    case TANH_H2: return pair16(mufu::tanh_f16, a);
    case TANH_B2: return pair16(mufu::tanh_bf16, a);
    case EX2_H2: return pair16(mufu::ex2_f16, a);
    case EX2_B2: return pair16(mufu::ex2_bf16, a);
    case DIVA: case DIVAF: return approx::div_approx(a, b, op == DIVAF);
    default: return approx::div_full(a, b, op == DIVFF);
    }
}

bool decode(const std::string& path, uint64_t n, std::vector<uint32_t>& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::vector<unsigned char> raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    out.clear();
    uint32_t value = 0;
    for (size_t i = 0; i < raw.size();) {
        uint64_t z = 0;
        for (int shift = 0; i < raw.size() && shift <= 35; shift += 7) {
            const unsigned char c = raw[i++];
            z |= uint64_t(c & 0x7F) << shift;
            if (!(c & 0x80)) break;
        }
        value += uint32_t(z >> 1) ^ (0u - uint32_t(z & 1));
        out.push_back(value);
    }
    return out.size() == n;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) { std::fprintf(stderr, "usage: sfu_check DIR LIST\n"); return 2; }
    std::ifstream list(argv[2]);
    if (!list) { std::fprintf(stderr, "cannot open %s\n", argv[2]); return 2; }
    std::string line;
    bool all = true;
    uint64_t total = 0, total_ok = 0;
    std::vector<uint32_t> got;
    while (std::getline(list, line)) {
        std::istringstream in(line);
        std::string name, opname;
        int kind;
        uint32_t base, stride;
        uint64_t seed, n;
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (!(in >> name >> opname >> kind >> std::hex >> base >> stride >> seed >> std::dec >> n)) {
            std::printf("unreadable list line: %s\n", line.c_str());
            all = false;
            continue;
        }
        int op = -1;
        for (int k = 0; k < NOPS; ++k) if (opname == kNames[k]) op = k;
        if (op < 0 || !decode(std::string(argv[1]) + "/" + name + ".vd", n, got)) {
            std::printf("%-20s %-16s missing or unreadable capture\n", name.c_str(), opname.c_str());
            all = false;
            continue;
        }
        uint64_t ok = 0, shown = 0;
        for (uint64_t i = 0; i < n; ++i) {
            uint32_t a, b;
            operands(kind, base, stride, seed, i, a, b);
            const uint32_t m = model(op, a, b);
            if (m == got[i]) { ++ok; continue; }
            if (shown++ < 4) std::printf("    %s(0x%08x, 0x%08x): GPU 0x%08x, model 0x%08x\n", opname.c_str(), a, b, got[i], m);
        }
        std::printf("%-20s %-16s %10llu of %10llu match\n", name.c_str(), opname.c_str(), (unsigned long long)ok, (unsigned long long)n);
        total += n;
        total_ok += ok;
        all = all && ok == n;
    }
    std::printf("total: %llu of %llu match\n", (unsigned long long)total_ok, (unsigned long long)total);
    return all ? 0 : 1;
}
