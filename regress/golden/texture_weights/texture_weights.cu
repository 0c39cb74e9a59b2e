// Probe of the texture unit's trilinear weights (README.md beside it). A 2x2x2 texture with one
// texel set (float 1.0, or 255 in an 8-bit normalized texture) is fetched at coordinates whose
// filter fractions are a, b, c (exact 1/256 steps); each result is that corner's weight. Writes
// the raw result bits to argv[1].
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
__global__ void fetch(cudaTextureObject_t t, const float4* c, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
int main(int argc, char** argv) {
    const int fr[] = {0, 1, 2, 3, 31, 51, 64, 77, 102, 127, 128, 129, 154, 179, 192, 213, 230, 253, 254, 255};
    const int nf = sizeof(fr) / sizeof(fr[0]);
    std::vector<float4> coords;
    for (int a = 0; a < nf; ++a) for (int b = 0; b < nf; ++b) for (int c = 0; c < nf; ++c)
        coords.push_back(make_float4(0.5f + fr[a] / 256.0f, 0.5f + fr[b] / 256.0f, 0.5f + fr[c] / 256.0f, 0));
    int n = coords.size();
    float4* dc; float* dout;
    CK(cudaMalloc(&dc, n * sizeof(float4)));
    CK(cudaMalloc(&dout, n * sizeof(float)));
    CK(cudaMemcpy(dc, coords.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    FILE* f = fopen(argv[1], "wb");
    std::vector<float> out(n);
    for (int kind = 0; kind < 2; ++kind) for (int corner = 0; corner < 8; ++corner) {
        cudaChannelFormatDesc d = kind == 0 ? cudaCreateChannelDesc<float>() : cudaCreateChannelDesc<unsigned char>();
        cudaArray_t arr;
        CK(cudaMalloc3DArray(&arr, &d, make_cudaExtent(2, 2, 2), 0));
        float fv[8] = {0}; unsigned char uv[8] = {0};
        fv[corner] = 1.0f; uv[corner] = 255;
        cudaMemcpy3DParms p = {};
        p.srcPtr = kind == 0 ? make_cudaPitchedPtr(fv, 8, 2, 2) : make_cudaPitchedPtr(uv, 2, 2, 2);
        p.dstArray = arr; p.extent = make_cudaExtent(2, 2, 2); p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaResourceDesc res = {}; res.resType = cudaResourceTypeArray; res.res.array.array = arr;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear;
        td.readMode = kind == 0 ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
        cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &res, &td, nullptr));
        fetch<<<(n + 255) / 256, 256>>>(t, dc, dout, n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        fwrite(out.data(), sizeof(float), n, f);
        CK(cudaDestroyTextureObject(t)); CK(cudaFreeArray(arr));
    }
    fclose(f);
    printf("ok %d\n", n);
    return 0;
}
