// The texture golden family: every sampling mode of the texture unit, fetched on a real GPU and
// printed as the raw bits of each result. Formats (8, 16 and 32-bit integers, half, float; one,
// two and four channels), read modes (element type, normalized float), point and linear
// filtering, address modes (wrap, clamp, mirror, border) with normalized and unnormalized
// coordinates, 1D, 2D, 3D, layered and cube arrays, linear and pitched memory, gathers, explicit
// levels and gradients, and surfaces with their out-of-range modes. Coordinates fall on texel
// centres, between them, on the filter's 1/256 steps and between those, and far outside.
// The simulator must print the same bits.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector>

#include "common/cuda_helpers.h"

enum Dim { k1D, k2D, k3D, k1DLayered, k2DLayered, kCube, kLinear, kPitch2D, kGather, kLod, kGrad };
enum Ret { kFloat, kSigned, kUnsigned };

struct Coord { float x, y, z; int layer; };

template <class T> __device__ uint4 bits(T v);
template <> __device__ uint4 bits(float4 v) {
    return make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
}
template <> __device__ uint4 bits(int4 v) { return make_uint4(v.x, v.y, v.z, v.w); }
template <> __device__ uint4 bits(uint4 v) { return v; }

template <class T>
__device__ T fetch(cudaTextureObject_t t, int dim, Coord c, int comp) {
    switch (dim) {
    case k1D: return tex1D<T>(t, c.x);
    case k2D: case kPitch2D: return tex2D<T>(t, c.x, c.y);
    case k3D: return tex3D<T>(t, c.x, c.y, c.z);
    case k1DLayered: return tex1DLayered<T>(t, c.x, c.layer);
    case k2DLayered: return tex2DLayered<T>(t, c.x, c.y, c.layer);
    case kCube: return texCubemap<T>(t, c.x, c.y, c.z);
    case kLinear: return tex1Dfetch<T>(t, c.layer);
    case kGather: return tex2Dgather<T>(t, c.x, c.y, comp);
    case kLod: return tex2DLod<T>(t, c.x, c.y, c.z);
    default: return tex2DGrad<T>(t, c.x, c.y, make_float2(c.z, 0.0f), make_float2(0.0f, c.z));
    }
}

template <class T>
__global__ void sample(cudaTextureObject_t t, int dim, int comp, const Coord* coords, uint4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = bits(fetch<T>(t, dim, coords[i], comp));
}

// Texel values: a fixed pseudo-random sequence, so that every filter weight shows in the result.
static uint32_t rng_state = 12345u;
static uint32_t next_random() {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

struct Format {
    const char* name;
    cudaChannelFormatDesc desc;
    int bytes;                       // per texel
};

static std::vector<uint8_t> make_texels(const Format& f, size_t count) {
    std::vector<uint8_t> data(count * f.bytes);
    int channels = (f.desc.x > 0) + (f.desc.y > 0) + (f.desc.z > 0) + (f.desc.w > 0);
    int cbytes = f.bytes / channels;
    for (size_t i = 0; i < count * channels; ++i) {
        uint32_t r = next_random();
        uint8_t* p = data.data() + i * cbytes;
        if (f.desc.f == cudaChannelFormatKindFloat && cbytes == 4) {
            float v = float(int(r % 20001) - 10000) / 1000.0f;    // -10 .. 10
            std::memcpy(p, &v, 4);
        } else if (f.desc.f == cudaChannelFormatKindFloat && cbytes == 2) {
            __half h = __float2half(float(int(r % 2001) - 1000) / 64.0f);
            std::memcpy(p, &h, 2);
        } else {
            std::memcpy(p, &r, cbytes);    // every bit pattern of the channel
        }
    }
    return data;
}

static const float kXs[] = {-100.0f, -1.0f, -0.5f, -0.25f, 0.0f, 0.25f, 0.5f, 0.5f + 1.0f / 1024, 0.75f, 1.0f, 1.25f,
                            1.5f, 2.00390625f, 2.3f, 2.5f, 3.1f, 3.9f, 5.5f, 6.5f, 6.75f, 7.0f, 7.5f, 1e9f, NAN};
static const float kYs[] = {-0.5f, 0.4f, 1.5f, 2.7f, 4.5f, 5.2f, 1.0f + 1.0f / 3, 100.0f};
static const int kW = 7, kH = 5, kD = 3, kLayers = 3;

static std::vector<Coord> grid_coords(bool normalized, int dim) {
    std::vector<Coord> c;
    for (int k = 0; k < 64; ++k) {
        float x = kXs[k % 24], y = kYs[(k / 3) % 8], z = kYs[(k / 2 + 3) % 8] * 0.6f;
        if (normalized) { x /= kW; y /= kH; z /= kD; }
        c.push_back({x, y, z, (k % 5) - 1});
    }
    if (dim == kCube) {
        // Directions that hit every face, its edges and its centre.
        c.clear();
        const float v[] = {-1.0f, -0.6f, -0.2f, 0.0f, 0.3f, 0.9f, 1.0f};
        for (int k = 0; k < 64; ++k) {
            float a = v[k % 7], b = v[(k / 7) % 7];
            float m = (k & 1) ? 1.0f : -1.0f;
            switch ((k / 2) % 3) {
            case 0: c.push_back({m, a, b, 0}); break;
            case 1: c.push_back({a, m * 2.0f, b, 0}); break;
            default: c.push_back({a, b, m * 0.5f, 0}); break;
            }
        }
    }
    if (dim == kLinear) for (int k = 0; k < 64; ++k) c[k].layer = k - 8;   // fetch indices, some outside
    if (dim == kLod || dim == kGrad) for (int k = 0; k < 64; ++k) c[k].z = float(k % 4) * 1.5f;
    return c;
}

// Dense steps of the filter weight: texel 2 to texel 3 in 1/1024 steps.
static std::vector<Coord> weight_coords() {
    std::vector<Coord> c;
    for (int j = 0; j < 64; ++j)
        for (int e = 0; e < 4; ++e) c.push_back({2.5f + j / 64.0f + e / 1024.0f + (e == 3 ? 1.0f / 4096 : 0.0f), 0, 0, 0});
    return c;
}

struct Case {
    const char* name;
    int dim;
    int format;                      // index in formats[]
    cudaTextureReadMode read;
    cudaTextureFilterMode filter;
    cudaTextureAddressMode address;
    bool normalized;
    Ret ret;
    int comp = 0;                    // gather component
    int coords = 0;                  // 0: the grid, 1: the dense weights
};

static const Format formats[] = {
    {"f32x1", cudaCreateChannelDesc<float>(), 4},
    {"f32x4", cudaCreateChannelDesc<float4>(), 16},
    {"f16x1", cudaCreateChannelDescHalf(), 2},
    {"f16x4", cudaCreateChannelDescHalf4(), 8},
    {"u8x1", cudaCreateChannelDesc<unsigned char>(), 1},
    {"u8x4", cudaCreateChannelDesc<uchar4>(), 4},
    {"s8x1", cudaCreateChannelDesc<signed char>(), 1},
    {"u16x1", cudaCreateChannelDesc<unsigned short>(), 2},
    {"s16x2", cudaCreateChannelDesc<short2>(), 4},
    {"u32x1", cudaCreateChannelDesc<unsigned int>(), 4},
    {"s32x1", cudaCreateChannelDesc<int>(), 4},
    {"u8x2", cudaCreateChannelDesc<uchar2>(), 2},
};
enum { F32, F32x4, F16, F16x4, U8, U8x4, S8, U16, S16x2, U32, S32, U8x2 };

static const cudaTextureReadMode E = cudaReadModeElementType, N = cudaReadModeNormalizedFloat;
static const cudaTextureFilterMode P = cudaFilterModePoint, L = cudaFilterModeLinear;
static const cudaTextureAddressMode Wr = cudaAddressModeWrap, Cl = cudaAddressModeClamp,
                                    Mi = cudaAddressModeMirror, Bo = cudaAddressModeBorder;

static const Case cases[] = {
    {"2d f32 point clamp", k2D, F32, E, P, Cl, false, kFloat},
    {"2d f32 point border", k2D, F32, E, P, Bo, false, kFloat},
    {"2d f32 point clamp norm", k2D, F32, E, P, Cl, true, kFloat},
    {"2d f32 point wrap norm", k2D, F32, E, P, Wr, true, kFloat},
    {"2d f32 point mirror norm", k2D, F32, E, P, Mi, true, kFloat},
    {"2d f32 point border norm", k2D, F32, E, P, Bo, true, kFloat},
    {"2d f32 linear clamp", k2D, F32, E, L, Cl, false, kFloat},
    {"2d f32 linear border", k2D, F32, E, L, Bo, false, kFloat},
    {"2d f32 linear clamp norm", k2D, F32, E, L, Cl, true, kFloat},
    {"2d f32 linear wrap norm", k2D, F32, E, L, Wr, true, kFloat},
    {"2d f32 linear mirror norm", k2D, F32, E, L, Mi, true, kFloat},
    {"2d f32 linear border norm", k2D, F32, E, L, Bo, true, kFloat},
    {"2d f32x4 linear clamp", k2D, F32x4, E, L, Cl, false, kFloat},
    {"2d u8x4 point clamp normfloat", k2D, U8x4, N, P, Cl, false, kFloat},
    {"2d u8x4 linear clamp normfloat", k2D, U8x4, N, L, Cl, false, kFloat},
    {"2d u8x4 linear wrap norm normfloat", k2D, U8x4, N, L, Wr, true, kFloat},
    {"2d u8x4 linear border norm normfloat", k2D, U8x4, N, L, Bo, true, kFloat},
    {"2d u8x4 point clamp element", k2D, U8x4, E, P, Cl, false, kUnsigned},
    {"2d u8x4 point wrap norm element", k2D, U8x4, E, P, Wr, true, kUnsigned},
    {"2d u8x4 point border element", k2D, U8x4, E, P, Bo, false, kUnsigned},
    {"2d u8x1 linear clamp normfloat", k2D, U8, N, L, Cl, false, kFloat},
    {"2d u8x2 point clamp element", k2D, U8x2, E, P, Cl, false, kUnsigned},
    {"2d s8x1 linear clamp normfloat", k2D, S8, N, L, Cl, false, kFloat},
    {"2d s8x1 point clamp element", k2D, S8, E, P, Cl, false, kSigned},
    {"2d u16x1 linear clamp normfloat", k2D, U16, N, L, Cl, false, kFloat},
    {"2d u16x1 point mirror norm element", k2D, U16, E, P, Mi, true, kUnsigned},
    {"2d s16x2 linear clamp normfloat", k2D, S16x2, N, L, Cl, false, kFloat},
    {"2d s16x2 point clamp element", k2D, S16x2, E, P, Cl, false, kSigned},
    {"2d u32x1 point clamp element", k2D, U32, E, P, Cl, false, kUnsigned},
    {"2d s32x1 point border element", k2D, S32, E, P, Bo, false, kSigned},
    {"2d f16x1 point clamp", k2D, F16, E, P, Cl, false, kFloat},
    {"2d f16x1 linear clamp", k2D, F16, E, L, Cl, false, kFloat},
    {"2d f16x4 linear wrap norm", k2D, F16x4, E, L, Wr, true, kFloat},
    {"1d f32 linear clamp", k1D, F32, E, L, Cl, false, kFloat},
    {"1d f32 linear wrap norm", k1D, F32, E, L, Wr, true, kFloat},
    {"1d u8x1 linear mirror norm normfloat", k1D, U8, N, L, Mi, true, kFloat},
    {"1d f32 linear clamp weights", k1D, F32, E, L, Cl, false, kFloat, 0, 1},
    {"1d u8x1 linear clamp normfloat weights", k1D, U8, N, L, Cl, false, kFloat, 0, 1},
    {"1d u16x1 linear clamp normfloat weights", k1D, U16, N, L, Cl, false, kFloat, 0, 1},
    {"1d f16x1 linear clamp weights", k1D, F16, E, L, Cl, false, kFloat, 0, 1},
    {"3d f32 linear clamp norm", k3D, F32, E, L, Cl, true, kFloat},
    {"3d f32 point wrap norm", k3D, F32, E, P, Wr, true, kFloat},
    {"3d u8x1 linear border normfloat", k3D, U8, N, L, Bo, false, kFloat},
    {"1d layered f32 linear clamp", k1DLayered, F32, E, L, Cl, false, kFloat},
    {"2d layered f32 linear wrap norm", k2DLayered, F32, E, L, Wr, true, kFloat},
    {"cube f32 point", kCube, F32, E, P, Cl, false, kFloat},
    {"cube f32 linear", kCube, F32, E, L, Cl, false, kFloat},
    {"linear f32 fetch", kLinear, F32, E, P, Cl, false, kFloat},
    {"linear u8x4 fetch normfloat", kLinear, U8x4, N, P, Cl, false, kFloat},
    {"linear s16x2 fetch element", kLinear, S16x2, E, P, Cl, false, kSigned},
    {"pitch2d f32 linear clamp", kPitch2D, F32, E, L, Cl, false, kFloat},
    {"pitch2d u8x1 point border normfloat", kPitch2D, U8, N, P, Bo, false, kFloat},
    {"gather f32 comp0", kGather, F32, E, P, Cl, false, kFloat, 0},
    {"gather u8x4 comp2 normfloat", kGather, U8x4, N, P, Cl, false, kFloat, 2},
    {"gather s16x2 comp1 element", kGather, S16x2, E, P, Wr, true, kSigned, 1},
    {"lod f32 linear clamp", kLod, F32, E, L, Cl, false, kFloat},
    {"grad f32 linear clamp", kGrad, F32, E, L, Cl, false, kFloat},
};

static cudaExtent extent_of(int dim) {
    switch (dim) {
    case k1D: return make_cudaExtent(kW, 0, 0);
    case k3D: return make_cudaExtent(kW, kH, kD);
    case k1DLayered: return make_cudaExtent(kW, 0, kLayers);
    case k2DLayered: return make_cudaExtent(kW, kH, kLayers);
    case kCube: return make_cudaExtent(4, 4, 6);
    default: return make_cudaExtent(kW, kH, 0);
    }
}

static unsigned array_flags(int dim) {
    if (dim == k1DLayered || dim == k2DLayered) return cudaArrayLayered;
    if (dim == kCube) return cudaArrayCubemap;
    return 0;
}

static void run_case(const Case& c) {
    const Format& f = formats[c.format];
    cudaExtent e = extent_of(c.dim);
    size_t texels = e.width * (e.height ? e.height : 1) * (e.depth ? e.depth : 1);
    std::vector<uint8_t> data = make_texels(f, texels);
    if (c.coords == 1) {       // texel 2 is the lowest value of the format, texel 3 the highest
        std::memset(data.data() + 2 * f.bytes, c.format == F32 || c.format == F16 ? 0 : 0x00, f.bytes);
        std::memset(data.data() + 3 * f.bytes, 0xFF, f.bytes);
        if (c.format == F32) { float one = 1.0f; std::memcpy(data.data() + 3 * 4, &one, 4); }
        if (c.format == F16) { __half one = __float2half(1.0f); std::memcpy(data.data() + 3 * 2, &one, 2); }
    }

    cudaResourceDesc res = {};
    cudaArray_t array = nullptr;
    void* linear = nullptr;
    if (c.dim == kLinear) {
        checkCudaErrors(cudaMalloc(&linear, data.size()));
        checkCudaErrors(cudaMemcpy(linear, data.data(), data.size(), cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = linear;
        res.res.linear.desc = f.desc;
        res.res.linear.sizeInBytes = data.size();
    } else if (c.dim == kPitch2D) {
        size_t pitch = 0;
        checkCudaErrors(cudaMallocPitch(&linear, &pitch, kW * f.bytes, kH));
        checkCudaErrors(cudaMemcpy2D(linear, pitch, data.data(), kW * f.bytes, kW * f.bytes, kH, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypePitch2D;
        res.res.pitch2D.devPtr = linear;
        res.res.pitch2D.desc = f.desc;
        res.res.pitch2D.width = kW;
        res.res.pitch2D.height = kH;
        res.res.pitch2D.pitchInBytes = pitch;
    } else {
        checkCudaErrors(cudaMalloc3DArray(&array, &f.desc, e, array_flags(c.dim)));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(data.data(), e.width * f.bytes, e.width, e.height ? e.height : 1);
        p.dstArray = array;
        p.extent = make_cudaExtent(e.width, e.height ? e.height : 1, e.depth ? e.depth : 1);
        p.kind = cudaMemcpyHostToDevice;
        checkCudaErrors(cudaMemcpy3D(&p));
        res.resType = cudaResourceTypeArray;
        res.res.array.array = array;
    }

    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = c.address;
    td.filterMode = c.filter;
    td.readMode = c.read;
    td.normalizedCoords = c.normalized;
    td.borderColor[0] = 0.25f;
    td.borderColor[1] = -1.5f;
    td.borderColor[2] = 3.0f;
    td.borderColor[3] = 1e10f;
    cudaTextureObject_t tex = 0;
    checkCudaErrors(cudaCreateTextureObject(&tex, &res, &td, nullptr));

    std::vector<Coord> coords = c.coords == 1 ? weight_coords() : grid_coords(c.normalized, c.dim);
    int n = int(coords.size());
    Coord* d_coords;
    uint4* d_out;
    checkCudaErrors(cudaMalloc(&d_coords, n * sizeof(Coord)));
    checkCudaErrors(cudaMalloc(&d_out, n * sizeof(uint4)));
    checkCudaErrors(cudaMemcpy(d_coords, coords.data(), n * sizeof(Coord), cudaMemcpyHostToDevice));
    int blocks = (n + 63) / 64;
    if (c.ret == kFloat) sample<float4><<<blocks, 64>>>(tex, c.dim, c.comp, d_coords, d_out, n);
    else if (c.ret == kSigned) sample<int4><<<blocks, 64>>>(tex, c.dim, c.comp, d_coords, d_out, n);
    else sample<uint4><<<blocks, 64>>>(tex, c.dim, c.comp, d_coords, d_out, n);
    getLastCudaError("sample");
    std::vector<uint4> out(n);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, n * sizeof(uint4), cudaMemcpyDeviceToHost));

    std::printf("case %s\n", c.name);
    for (int i = 0; i < n; ++i)
        std::printf("%08x %08x %08x %08x%c", out[i].x, out[i].y, out[i].z, out[i].w, (i % 2) ? '\n' : ' ');

    checkCudaErrors(cudaDestroyTextureObject(tex));
    checkCudaErrors(cudaFree(d_coords));
    checkCudaErrors(cudaFree(d_out));
    if (array) checkCudaErrors(cudaFreeArray(array));
    if (linear) checkCudaErrors(cudaFree(linear));
}

// Surfaces: reads and writes at and past the edges under each boundary mode.
__global__ void surface_probe(cudaSurfaceObject_t s, int w, int h, uint32_t* out) {
    int i = threadIdx.x;
    int x = (i % 12) - 2, y = (i / 12) - 1;           // -2 .. w+1 and -1 .. h
    uint32_t zero = 0xAAAAAAAAu, clamp = 0xAAAAAAAAu;
    surf2Dread(&zero, s, x * 4, y, cudaBoundaryModeZero);
    surf2Dread(&clamp, s, x * 4, y, cudaBoundaryModeClamp);
    out[2 * i] = zero;
    out[2 * i + 1] = clamp;
    __syncthreads();
    if (i == 0) {
        surf2Dwrite(0x11111111u, s, -4, 0, cudaBoundaryModeZero);        // dropped
        surf2Dwrite(0x22222222u, s, (w + 3) * 4, 1, cudaBoundaryModeClamp);  // lands on the last column
        surf2Dwrite(0x33333333u, s, 4, -5, cudaBoundaryModeClamp);          // lands on the first row
        surf2Dwrite(0x44444444u, s, 2 * 4, 2, cudaBoundaryModeTrap);        // inside: written
    }
}

static void run_surfaces() {
    const int w = 8, h = 6;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned int>();
    cudaArray_t array;
    checkCudaErrors(cudaMallocArray(&array, &desc, w, h, cudaArraySurfaceLoadStore));
    std::vector<uint32_t> data(w * h);
    for (int i = 0; i < w * h; ++i) data[i] = 0x1000u + i;
    checkCudaErrors(cudaMemcpy2DToArray(array, 0, 0, data.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t s;
    checkCudaErrors(cudaCreateSurfaceObject(&s, &res));
    uint32_t* d_out;
    const int n = 12 * 8;
    checkCudaErrors(cudaMalloc(&d_out, 2 * n * 4));
    surface_probe<<<1, n>>>(s, w, h, d_out);
    getLastCudaError("surface_probe");
    std::vector<uint32_t> out(2 * n);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, 2 * n * 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy2DFromArray(data.data(), w * 4, array, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
    std::printf("case surface reads zero clamp\n");
    for (int i = 0; i < 2 * n; ++i) std::printf("%08x%c", out[i], (i % 8 == 7) ? '\n' : ' ');
    std::printf("case surface writes\n");
    for (int i = 0; i < w * h; ++i) std::printf("%08x%c", data[i], (i % 8 == 7) ? '\n' : ' ');
    checkCudaErrors(cudaDestroySurfaceObject(s));
    checkCudaErrors(cudaFreeArray(array));
    checkCudaErrors(cudaFree(d_out));
}

int main() {
    for (const Case& c : cases) run_case(c);
    run_surfaces();
    std::printf("PASSED\n");
    return 0;
}
