// Image resizing with the texture unit's bilinear filter, in modern C++ (RAII wrappers for the
// cudaArray, the texture object and device buffers, a kernel templated on the texel type): a 64 x 48
// float image in a cudaArray is resized to 100 x 75 through texture objects with cudaFilterModeLinear
// and normalized coordinates, once with clamp addressing over [0,1]^2 and three times over a window
// reaching a quarter past every edge, with wrap, mirror, and mirror-in-x/border-in-y addressing; then
// a 40 x 30 ushort2 (two 16-bit channels) image read with cudaReadModeNormalizedFloat is resized to
// 72 x 54 with wrap in x and clamp in y. Exercises tex.2d.v4.f32.f32 on 32-bit float and 16-bit
// unorm formats with linear filtering, every address mode, and per-axis address modes. The texture
// unit interpolates with 8-bit fractional weights, so the host check (a double-precision reference
// with exact weights) allows 1e-2; the hex bits printed are what a real GPU returns, for an exact
// comparison.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

namespace {

constexpr int kSrcW = 64, kSrcH = 48;
constexpr int kDstW = 100, kDstH = 75;
constexpr int kSrc2W = 40, kSrc2H = 30;
constexpr int kDst2W = 72, kDst2H = 54;
constexpr double kTolerance = 1e-2;

template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t count) : count_(count) {
        checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
        checkCudaErrors(cudaMemset(data_, 0, count_ * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(data_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* data() { return data_; }
    std::vector<T> toHost() const {
        std::vector<T> h(count_);
        checkCudaErrors(cudaMemcpy(h.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
        return h;
    }

private:
    T* data_ = nullptr;
    size_t count_ = 0;
};

// A 2D cudaArray holding a host image of T.
template <typename T>
class CudaArray2D {
public:
    CudaArray2D(int width, int height, const std::vector<T>& pixels) {
        cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
        checkCudaErrors(cudaMallocArray(&array_, &desc, width, height));
        checkCudaErrors(cudaMemcpy2DToArray(array_, 0, 0, pixels.data(), width * sizeof(T), width * sizeof(T), height,
                                            cudaMemcpyHostToDevice));
    }
    ~CudaArray2D() { cudaFreeArray(array_); }
    CudaArray2D(const CudaArray2D&) = delete;
    CudaArray2D& operator=(const CudaArray2D&) = delete;
    cudaArray_t get() const { return array_; }

private:
    cudaArray_t array_ = nullptr;
};

struct Sampler {
    const char* name;
    cudaTextureAddressMode modeX, modeY;
    float scaleX, scaleY;     // the window sampled, in normalized coordinates:
    float offsetX, offsetY;   // u = (x + 0.5) / width * scale + offset
};

class TextureObject {
public:
    TextureObject(cudaArray_t array, const Sampler& s, cudaTextureReadMode readMode) {
        cudaResourceDesc res{};
        res.resType = cudaResourceTypeArray;
        res.res.array.array = array;
        cudaTextureDesc td{};
        td.addressMode[0] = s.modeX;
        td.addressMode[1] = s.modeY;
        td.filterMode = cudaFilterModeLinear;
        td.readMode = readMode;
        td.normalizedCoords = 1;   // wrap and mirror need them
        checkCudaErrors(cudaCreateTextureObject(&tex_, &res, &td, nullptr));
    }
    ~TextureObject() { cudaDestroyTextureObject(tex_); }
    TextureObject(const TextureObject&) = delete;
    TextureObject& operator=(const TextureObject&) = delete;
    operator cudaTextureObject_t() const { return tex_; }

private:
    cudaTextureObject_t tex_ = 0;
};

template <typename Out>
__global__ void resizeKernel(Out* dst, int width, int height, float2 scale, float2 offset, cudaTextureObject_t tex) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const float u = ((float)x + 0.5f) / (float)width * scale.x + offset.x;
    const float v = ((float)y + 0.5f) / (float)height * scale.y + offset.y;
    dst[y * width + x] = tex2D<Out>(tex, u, v);
}

// ---- host reference: the filter of the CUDA programming guide's "Texture Fetching" appendix, with
// exact weights, applying the address mode to texel indices (-1 means the zero border) ----

int addressTexel(int i, int n, cudaTextureAddressMode mode) {
    switch (mode) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
        int m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    case cudaAddressModeBorder: return (i < 0 || i >= n) ? -1 : i;
    case cudaAddressModeClamp:
    default: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    }
}

// One channel of a w x h image, channel c of `channels`, values already normalized.
double bilinearRef(const std::vector<double>& img, int w, int h, int channels, int c, double u, double v,
                   cudaTextureAddressMode mx, cudaTextureAddressMode my) {
    const double xb = u * w - 0.5, yb = v * h - 0.5;
    const double fx = std::floor(xb), fy = std::floor(yb);
    const double a = xb - fx, b = yb - fy;
    const int i0 = (int)fx, j0 = (int)fy;
    auto texel = [&](int i, int j) {
        const int ii = addressTexel(i, w, mx), jj = addressTexel(j, h, my);
        return (ii < 0 || jj < 0) ? 0.0 : img[((size_t)jj * w + ii) * channels + c];
    };
    return (1 - a) * (1 - b) * texel(i0, j0) + a * (1 - b) * texel(i0 + 1, j0) + (1 - a) * b * texel(i0, j0 + 1) +
           a * b * texel(i0 + 1, j0 + 1);
}

uint32_t bitsOf(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}

uint32_t fnv1aFloats(const float* p, size_t n, uint32_t h = 2166136261u) {
    for (size_t i = 0; i < n; i++) {
        uint32_t b = bitsOf(p[i]);
        for (int k = 0; k < 4; k++) {
            h ^= (b >> (8 * k)) & 0xffu;
            h *= 16777619u;
        }
    }
    return h;
}

// Resizes a channels-wide image with every sampler, prints samples and hashes, returns whether every
// output is within the tolerance of the reference.
template <typename Texel, typename Out>
bool runResize(const char* title, const std::vector<Texel>& pixels, const std::vector<double>& normalized, int sw,
               int sh, int dw, int dh, const std::vector<Sampler>& samplers, cudaTextureReadMode readMode,
               int sampleStep) {
    constexpr int channels = sizeof(Out) / sizeof(float);
    CudaArray2D<Texel> array(sw, sh, pixels);
    DeviceBuffer<Out> d_out((size_t)dw * dh);
    const dim3 threads(16, 8);
    const dim3 grid((dw + threads.x - 1) / threads.x, (dh + threads.y - 1) / threads.y);
    printf("%s: %d x %d -> %d x %d, bilinear, normalized coordinates\n", title, sw, sh, dw, dh);

    bool allOk = true;
    for (const Sampler& s : samplers) {
        TextureObject tex(array.get(), s, readMode);
        resizeKernel<Out><<<grid, threads>>>(d_out.data(), dw, dh, make_float2(s.scaleX, s.scaleY),
                                              make_float2(s.offsetX, s.offsetY), tex);
        getLastCudaError("resizeKernel execution failed");
        checkCudaErrors(cudaDeviceSynchronize());
        const std::vector<Out> out = d_out.toHost();
        const float* f = reinterpret_cast<const float*>(out.data());

        double maxErr = 0.0;
        for (int y = 0; y < dh; y++) {
            for (int x = 0; x < dw; x++) {
                const double u = (x + 0.5) / dw * s.scaleX + s.offsetX;
                const double v = (y + 0.5) / dh * s.scaleY + s.offsetY;
                for (int c = 0; c < channels; c++) {
                    const double ref = bilinearRef(normalized, sw, sh, channels, c, u, v, s.modeX, s.modeY);
                    const double err = std::fabs((double)f[((size_t)y * dw + x) * channels + c] - ref);
                    if (std::isnan(err) || err > maxErr) maxErr = err;   // a NaN sticks
                }
            }
        }
        const bool ok = maxErr < kTolerance;
        fprintf(stderr, "%s %s: max |gpu - ref| = %.3e\n", title, s.name, maxErr);
        printf("  %s: fnv1a 0x%08x, within %.0e of the reference: %s\n", s.name,
               fnv1aFloats(f, (size_t)dw * dh * channels), kTolerance, ok ? "yes" : "no");
        for (int y = 0; y < dh; y += sampleStep) {
            printf("    y=%2d:", y);
            for (int x = 0; x < dw; x += sampleStep) {
                printf(" ");
                for (int c = 0; c < channels; c++)
                    printf("%s%08x", c ? "," : "", bitsOf(f[((size_t)y * dw + x) * channels + c]));
            }
            printf("\n");
        }
        allOk = allOk && ok;
    }
    return allOk;
}

}   // namespace

int main(int argc, char** argv) {
    printf("[tex_bilinear_resize] - Starting...\n");
    findCudaDevice(argc, argv);

    // A float image of multiples of 1/1024 in [0, 1): a diagonal ramp plus noise, so that neighbouring
    // texels differ by at most about 0.26 (0.7 across the wrapped edges).
    Lcg rng(31337);
    std::vector<float> img((size_t)kSrcW * kSrcH);
    std::vector<double> imgRef(img.size());
    for (int y = 0; y < kSrcH; y++)
        for (int x = 0; x < kSrcW; x++) {
            const int k = x * 7 + y * 5 + rng.below(256);
            img[(size_t)y * kSrcW + x] = (float)k / 1024.0f;
            imgRef[(size_t)y * kSrcW + x] = k / 1024.0;
        }

    const std::vector<Sampler> floatSamplers = {
        {"clamp/clamp", cudaAddressModeClamp, cudaAddressModeClamp, 1.0f, 1.0f, 0.0f, 0.0f},
        {"wrap/wrap", cudaAddressModeWrap, cudaAddressModeWrap, 1.5f, 1.5f, -0.25f, -0.25f},
        {"mirror/mirror", cudaAddressModeMirror, cudaAddressModeMirror, 1.5f, 1.5f, -0.25f, -0.25f},
        {"mirror/border", cudaAddressModeMirror, cudaAddressModeBorder, 1.5f, 1.25f, -0.25f, -0.125f},
    };
    bool ok = runResize<float, float>("float image", img, imgRef, kSrcW, kSrcH, kDstW, kDstH, floatSamplers,
                                      cudaReadModeElementType, 7);

    // Two 16-bit unsigned channels, read as v / 65535.
    std::vector<ushort2> img2((size_t)kSrc2W * kSrc2H);
    std::vector<double> img2Ref(img2.size() * 2);
    for (int y = 0; y < kSrc2H; y++)
        for (int x = 0; x < kSrc2W; x++) {
            const int a = x * 1000 + y * 600 + rng.below(8192);
            const int b = x * x * 20 + y * y * 30 + rng.below(8192);
            img2[(size_t)y * kSrc2W + x] = make_ushort2((unsigned short)a, (unsigned short)b);
            img2Ref[((size_t)y * kSrc2W + x) * 2 + 0] = a / 65535.0;
            img2Ref[((size_t)y * kSrc2W + x) * 2 + 1] = b / 65535.0;
        }
    const std::vector<Sampler> ushortSamplers = {
        {"wrap/clamp", cudaAddressModeWrap, cudaAddressModeClamp, 1.25f, 1.25f, -0.125f, -0.125f},
    };
    ok = runResize<ushort2, float2>("ushort2 image", img2, img2Ref, kSrc2W, kSrc2H, kDst2W, kDst2H, ushortSamplers,
                                    cudaReadModeNormalizedFloat, 9) &&
         ok;

    printf("tex_bilinear_resize: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
