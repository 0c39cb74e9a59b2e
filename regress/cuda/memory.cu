// Device memory: linear, pitched and 3D allocations, fills, copies in every direction, 2D and 3D
// copies, pinned and registered host memory, and symbols (__device__ and __constant__).
#include <cstring>
#include <vector>

#include "check.h"

__device__ int table[64];
__constant__ float coeffs[4];

__global__ void scale(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * coeffs[0] + coeffs[1] + float(table[i % 64]);
}

// Adds 1 to each byte of a width x height region with the given pitch.
__global__ void bump2d(unsigned char* p, size_t pitch, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < width && y < height) p[y * pitch + x] += 1;
}

// Reverses each block's slice through dynamic shared memory (sized at launch).
__global__ void reverse_blocks(float* p) {
    extern __shared__ float buf[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buf[t] = p[base + t];
    __syncthreads();
    p[base + t] = buf[blockDim.x - 1 - t];
}

static unsigned checksum(const unsigned char* p, size_t n) {
    unsigned s = 0;
    for (size_t i = 0; i < n; ++i) s = s * 31 + p[i];
    return s;
}

int main() {
    const int n = 1000;
    std::vector<float> in(n), out(n);
    for (int i = 0; i < n; ++i) in[i] = float(i) * 0.5f;
    float *d_in, *d_out, *d_copy;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_copy, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_copy, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));

    // Symbols: write, read back, address and size.
    int t[64];
    for (int i = 0; i < 64; ++i) t[i] = i * 3;
    CHECK(cudaMemcpyToSymbol(table, t, sizeof t));
    float c[4] = {2.0f, 1.0f, 0.0f, 0.0f};
    CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
    CHECK(cudaMemcpyToSymbol(coeffs, &c[1], sizeof(float), sizeof(float)));   // offset: coeffs[1] = 1
    int back[64] = {};
    CHECK(cudaMemcpyFromSymbol(back, table, sizeof back));
    EXPECT(std::memcmp(back, t, sizeof t) == 0);
    void* addr = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress(&addr, table));
    CHECK(cudaGetSymbolSize(&size, table));
    EXPECT(addr != nullptr && size == sizeof t);
    int third = 0;
    CHECK(cudaMemcpy(&third, static_cast<int*>(addr) + 3, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(third == 9);

    scale<<<(n + 127) / 128, 128>>>(d_out, d_copy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(out[i] == in[i] * 2.0f + 1.0f + float((i % 64) * 3));
    std::printf("scale: out[999] = %.2f\n", out[999]);

    // Dynamic shared memory: 4 blocks of 250 threads reverse their slices of d_out.
    reverse_blocks<<<4, 250, 250 * sizeof(float)>>>(d_out);
    CHECK(cudaGetLastError());
    std::vector<float> rev(n);
    CHECK(cudaMemcpy(rev.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(rev[i] == out[(i / 250) * 250 + 249 - i % 250]);
    std::printf("dynamic shared: rev[0] = %.2f\n", rev[0]);

    // Host to host and the default direction.
    std::vector<float> h2(n);
    CHECK(cudaMemcpy(h2.data(), out.data(), n * sizeof(float), cudaMemcpyHostToHost));
    EXPECT(h2 == out);
    CHECK(cudaMemcpy(h2.data(), d_in, n * sizeof(float), cudaMemcpyDefault));
    EXPECT(h2 == in);

    // memset, then a pitched 2D region: fill, bump by a kernel, copy out with cudaMemcpy2D.
    CHECK(cudaMemset(d_out, 0x3F, n * sizeof(float)));
    CHECK(cudaMemcpy(out.data(), d_out, sizeof(float), cudaMemcpyDeviceToHost));
    unsigned bits;
    std::memcpy(&bits, out.data(), 4);
    EXPECT(bits == 0x3F3F3F3Fu);
    const int w = 100, h = 7;
    unsigned char* d2;
    size_t pitch = 0;
    CHECK(cudaMallocPitch(reinterpret_cast<void**>(&d2), &pitch, w, h));
    EXPECT(pitch >= w);
    CHECK(cudaMemset2D(d2, pitch, 5, w, h));
    std::vector<unsigned char> host2d(w * h);
    for (int i = 0; i < w * h; ++i) host2d[i] = (unsigned char)(i * 7);
    CHECK(cudaMemcpy2D(d2, pitch, host2d.data(), w, w / 2, h, cudaMemcpyHostToDevice));   // left half only
    bump2d<<<dim3(1, h), 128>>>(d2, pitch, w, h);
    std::vector<unsigned char> back2d(w * h);
    CHECK(cudaMemcpy2D(back2d.data(), w, d2, pitch, w, h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            EXPECT(back2d[y * w + x] == (unsigned char)((x < w / 2 ? host2d[y * w + x] : 5) + 1));
    std::printf("2D: checksum %08x\n", checksum(back2d.data(), back2d.size()));

    // 3D: allocate, fill, copy a box in from host memory and back out.
    cudaExtent ext = make_cudaExtent(40, 6, 5);
    cudaPitchedPtr d3;
    CHECK(cudaMalloc3D(&d3, ext));
    CHECK(cudaMemset3D(d3, 9, ext));
    std::vector<unsigned char> box(40 * 6 * 5);
    for (size_t i = 0; i < box.size(); ++i) box[i] = (unsigned char)(i * 13 + 1);
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(box.data(), 40, 40, 6);
    up.dstPtr = d3;
    up.extent = make_cudaExtent(20, 6, 5);   // the first 20 bytes of each row
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    std::vector<unsigned char> box_back(box.size());
    cudaMemcpy3DParms down = {};
    down.srcPtr = d3;
    down.dstPtr = make_cudaPitchedPtr(box_back.data(), 40, 40, 6);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&down));
    for (size_t i = 0; i < box.size(); ++i) EXPECT(box_back[i] == (i % 40 < 20 ? box[i] : 9));
    std::printf("3D: checksum %08x\n", checksum(box_back.data(), box_back.size()));

    // Pinned and registered host memory.
    float* pinned;
    CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
    CHECK(cudaMemcpy(pinned, d_in, n * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(std::memcmp(pinned, in.data(), n * sizeof(float)) == 0);
    std::vector<float> reg(n, 0.0f);
    CHECK(cudaHostRegister(reg.data(), n * sizeof(float), cudaHostRegisterDefault));
    CHECK(cudaMemcpy(reg.data(), d_copy, n * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(reg == in);
    CHECK(cudaHostUnregister(reg.data()));
    CHECK(cudaFreeHost(pinned));

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_copy));
    CHECK(cudaFree(d2));
    CHECK(cudaFree(d3.ptr));
    CHECK(cudaFree(nullptr));
    CHECK(cudaDeviceReset());
    std::printf("memory: ok\n");
    return 0;
}
