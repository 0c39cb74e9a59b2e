// Captures the GPU's approximate instructions for docs/sfu.md: each line of a list names a file
// stem, an instruction and its operands (sfu_inputs.h); the results go to DIR/<stem>.vd as the
// differences between successive results (the first from 0), zigzag LEB128 varints.
//   sfu_capture DIR LIST        (on the GPU machine; docs/sfu.md, "Capturing again")
#include <cstdio>
#include <string>
#include <vector>

#include "sfu_inputs.h"

using namespace sfu_inputs;

#define F1(ins) asm(ins " %0,%1;" : "=f"(rf) : "f"(__uint_as_float(a)))
#define H1(ins) { unsigned short h = (unsigned short)a, o; asm(ins " %0,%1;" : "=h"(o) : "h"(h)); r = o; }
#define U1(ins) asm(ins " %0,%1;" : "=r"(r) : "r"(a))
#define F2(ins) asm(ins " %0,%1,%2;" : "=f"(rf) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b)))

__device__ uint32_t apply(int op, uint32_t a, uint32_t b) {
    uint32_t r = 0;
    float rf = 0;
    bool is_f = true;
    switch (op) {
    case RCP: F1("rcp.approx.f32"); break;
    case RCPF: F1("rcp.approx.ftz.f32"); break;
    case SQRT: F1("sqrt.approx.f32"); break;
    case SQRTF: F1("sqrt.approx.ftz.f32"); break;
    case RSQ: F1("rsqrt.approx.f32"); break;
    case RSQF: F1("rsqrt.approx.ftz.f32"); break;
    case EX2: F1("ex2.approx.f32"); break;
    case EX2F: F1("ex2.approx.ftz.f32"); break;
    case LG2: F1("lg2.approx.f32"); break;
    case LG2F: F1("lg2.approx.ftz.f32"); break;
    case SIN: F1("sin.approx.f32"); break;
    case SINF: F1("sin.approx.ftz.f32"); break;
    case COS: F1("cos.approx.f32"); break;
    case COSF: F1("cos.approx.ftz.f32"); break;
    case TANH: F1("tanh.approx.f32"); break;
    case DIVA: F2("div.approx.f32"); break;
    case DIVAF: F2("div.approx.ftz.f32"); break;
    case DIVF: F2("div.full.f32"); break;
    case DIVFF: F2("div.full.ftz.f32"); break;
    default:
        is_f = false;
        switch (op) {
        case TANH_H: H1("tanh.approx.f16"); break;
        case TANH_B: H1("tanh.approx.bf16"); break;
        case EX2_H: H1("ex2.approx.f16"); break;
        case EX2_B: H1("ex2.approx.ftz.bf16"); break;
        case TANH_H2: U1("tanh.approx.f16x2"); break;
        case TANH_B2: U1("tanh.approx.bf16x2"); break;
        case EX2_H2: U1("ex2.approx.f16x2"); break;
        case EX2_B2: U1("ex2.approx.ftz.bf16x2"); break;
        }
    }
    return is_f ? __float_as_uint(rf) : r;
}

__global__ void run(int op, int kind, uint32_t base, uint32_t stride, uint64_t seed, uint64_t n, uint32_t* out) {
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
        uint32_t a, b;
        operands(kind, base, stride, seed, i, a, b);
        out[i] = apply(op, a, b);
    }
}

static void put_varint(std::vector<unsigned char>& v, uint64_t x) {
    while (x >= 128) { v.push_back((unsigned char)(x | 128)); x >>= 7; }
    v.push_back((unsigned char)x);
}

int main(int argc, char** argv) {
    if (argc != 3) { fprintf(stderr, "usage: sfu_capture DIR LIST\n"); return 2; }
    FILE* list = fopen(argv[2], "r");
    if (!list) { fprintf(stderr, "cannot open %s\n", argv[2]); return 2; }
    const uint64_t max_n = uint64_t(1) << 26;
    uint32_t* dout;
    if (cudaMalloc(&dout, max_n * 4) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); return 1; }
    std::vector<uint32_t> h;
    char name[64], opname[64];
    int kind;
    unsigned base, stride;
    unsigned long long seed, n;
    // A line: file stem, instruction, kind, base (hex), stride (hex), seed (hex), count.
    while (fscanf(list, "%63s %63s %d %x %x %llx %llu", name, opname, &kind, &base, &stride, &seed, &n) == 7) {
        int op = -1;
        for (int k = 0; k < NOPS; ++k) if (std::string(kNames[k]) == opname) op = k;
        if (op < 0 || n > max_n) { fprintf(stderr, "bad line for %s\n", name); return 2; }
        run<<<1024, 256>>>(op, kind, base, stride, seed, n, dout);
        h.resize(n);
        if (cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess) { fprintf(stderr, "CUDA error\n"); return 1; }
        std::vector<unsigned char> enc;
        uint32_t prev = 0;
        for (uint64_t i = 0; i < n; ++i) {
            const int64_t d = int32_t(h[i] - prev);
            put_varint(enc, (uint64_t(d) << 1) ^ uint64_t(d >> 63));
            prev = h[i];
        }
        std::string path = std::string(argv[1]) + "/" + name + ".vd";
        FILE* f = fopen(path.c_str(), "wb");
        if (!f || fwrite(enc.data(), 1, enc.size(), f) != enc.size() || fclose(f) != 0) { fprintf(stderr, "cannot write %s\n", path.c_str()); return 1; }
        printf("%s %s: %llu results, %zu bytes\n", name, opname, n, enc.size());
    }
    return 0;
}
