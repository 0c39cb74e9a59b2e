// The copy engines' time per row of a 2D copy, measured on the chip (pcie.row_ns, pcie.device_row_ns):
// cudaMemcpy2D and cudaMemset2D in milliseconds by cudaEvents (median of 7) per kind, row width
// and row count, beside a 1D copy of the same bytes. Build with nvcc -O2; the output of an H200 is
// copy_rows.h200.txt.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
int main() {
    cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
    printf("# %s\n", p.name);
    const size_t hpitch = 8192;
    const size_t max_rows = 16384;
    std::vector<char> host(hpitch * max_rows, 1);
    char* pinned; cudaMallocHost(&pinned, hpitch * max_rows);
    char *d, *d2; size_t dp, dp2;
    cudaMallocPitch((void**)&d, &dp, 8192, max_rows);
    cudaMallocPitch((void**)&d2, &dp2, 8192, max_rows);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    auto time = [&](auto f) {
        std::vector<float> v;
        for (int k = 0; k < 7; ++k) {
            cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
            float ms; cudaEventElapsedTime(&ms, a, b); v.push_back(ms);
        }
        std::sort(v.begin(), v.end());
        return v[3];
    };
    printf("kind width rows ms_2d ms_1d_same_bytes\n");
    for (size_t rows : {1024, 16384})
        for (size_t width : {4, 64, 256, 1024, 4096}) {
            const size_t bytes = width * rows;
            printf("h2d_pinned %zu %zu %.4f %.4f\n", width, rows,
                   time([&] { cudaMemcpy2D(d, dp, pinned, hpitch, width, rows, cudaMemcpyHostToDevice); }),
                   time([&] { cudaMemcpy(d, pinned, bytes, cudaMemcpyHostToDevice); }));
            printf("h2d_pageable %zu %zu %.4f %.4f\n", width, rows,
                   time([&] { cudaMemcpy2D(d, dp, host.data(), hpitch, width, rows, cudaMemcpyHostToDevice); }),
                   time([&] { cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice); }));
            printf("d2h_pinned %zu %zu %.4f %.4f\n", width, rows,
                   time([&] { cudaMemcpy2D(pinned, hpitch, d, dp, width, rows, cudaMemcpyDeviceToHost); }),
                   time([&] { cudaMemcpy(pinned, d, bytes, cudaMemcpyDeviceToHost); }));
            printf("d2h_pageable %zu %zu %.4f %.4f\n", width, rows,
                   time([&] { cudaMemcpy2D(host.data(), hpitch, d, dp, width, rows, cudaMemcpyDeviceToHost); }),
                   time([&] { cudaMemcpy(host.data(), d, bytes, cudaMemcpyDeviceToHost); }));
            printf("d2d %zu %zu %.4f %.4f\n", width, rows,
                   time([&] { cudaMemcpy2D(d2, dp2, d, dp, width, rows, cudaMemcpyDeviceToDevice); }),
                   time([&] { cudaMemcpy(d2, d, bytes, cudaMemcpyDeviceToDevice); }));
            printf("memset %zu %zu %.4f %.4f\n", width, rows,
                   time([&] { cudaMemset2D(d2, dp2, 3, width, rows); }),
                   time([&] { cudaMemset(d2, 3, bytes); }));
        }
    printf("pitch %zu\n", dp);
}
