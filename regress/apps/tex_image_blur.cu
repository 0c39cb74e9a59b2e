// 5x5 box blur of a 256 x 192 RGBA8 image read through a texture object, in the style of NVIDIA's
// boxFilter and imageDenoising samples: the image lives in a 2D cudaArray (cudaMallocArray with
// cudaCreateChannelDesc<uchar4>(), filled by cudaMemcpy2DToArray from a padded host buffer), read by a
// texture object with point filtering, clamp addressing and unnormalized coordinates. One object reads
// cudaReadModeNormalizedFloat (tex2D<float4>, texels as v / 255) for the blur, a second object on the
// same array reads cudaReadModeElementType (tex2D<uchar4>) for a shifted copy whose clamped edges are
// checked texel for texel. Exercises tex.2d.v4.f32.f32 and tex.2d.v4.u32.f32, cudaCreateTextureObject,
// cudaGetTextureObjectResourceDesc and cudaDestroyTextureObject. Every output byte is compared exactly
// with the CPU: the blur rounds 255 * (sum of 25 normalized texels) / 25 to the nearest byte, and since a
// sum of 25 bytes over 25 is never within 0.02 of a half, float rounding in the sum cannot change a byte.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

#define BLOCKDIM_X 16
#define BLOCKDIM_Y 16
#define FILTER_RADIUS 2
#define FILTER_AREA ((2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1))

// The shifted copy reads source texel (x + COPY_SHIFT_X, y + COPY_SHIFT_Y), clamped to the image.
#define COPY_SHIFT_X (-3)
#define COPY_SHIFT_Y 2

typedef unsigned char uchar;

static const int kImageW = 256;
static const int kImageH = 192;

////////////////////////////////////////////////////////////////////////////////
// Float to byte as the sample's rgbaFloatToInt does it, with the arithmetic spelled out so that the
// host reference performs the same IEEE operations in the same order.
////////////////////////////////////////////////////////////////////////////////
__device__ inline uchar floatSumToByte(float sum) {
    float v = __fadd_rn(__fdiv_rn(__fmul_rn(sum, 255.0f), (float)FILTER_AREA), 0.5f);
    v = fminf(fmaxf(v, 0.0f), 255.0f);
    return (uchar)v;
}

static uchar floatSumToByteCPU(float sum) {
    float v = sum * 255.0f;
    v = v / (float)FILTER_AREA;
    v = v + 0.5f;
    if (v < 0.0f) v = 0.0f;
    if (v > 255.0f) v = 255.0f;
    return (uchar)v;
}

////////////////////////////////////////////////////////////////////////////////
// Box filter: every thread sums the (2R+1)^2 neighbourhood of its pixel, texel centres at +0.5.
// Clamp addressing supplies the edge texels for the neighbours outside the image.
////////////////////////////////////////////////////////////////////////////////
__global__ void d_boxFilterRGBA(uchar4 *d_dst, int w, int h, cudaTextureObject_t tex) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;

    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int dy = -FILTER_RADIUS; dy <= FILTER_RADIUS; dy++) {
#pragma unroll
        for (int dx = -FILTER_RADIUS; dx <= FILTER_RADIUS; dx++) {
            float4 t = tex2D<float4>(tex, (float)(x + dx) + 0.5f, (float)(y + dy) + 0.5f);
            sum.x = __fadd_rn(sum.x, t.x);
            sum.y = __fadd_rn(sum.y, t.y);
            sum.z = __fadd_rn(sum.z, t.z);
            sum.w = __fadd_rn(sum.w, t.w);
        }
    }
    d_dst[y * w + x] = make_uchar4(floatSumToByte(sum.x), floatSumToByte(sum.y), floatSumToByte(sum.z),
                                   floatSumToByte(sum.w));
}

////////////////////////////////////////////////////////////////////////////////
// Shifted copy through the element-type object: raw bytes, no conversion.
////////////////////////////////////////////////////////////////////////////////
__global__ void d_shiftCopyRGBA(uchar4 *d_dst, int w, int h, cudaTextureObject_t texRaw) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    d_dst[y * w + x] = tex2D<uchar4>(texRaw, (float)(x + COPY_SHIFT_X) + 0.5f, (float)(y + COPY_SHIFT_Y) + 0.5f);
}

////////////////////////////////////////////////////////////////////////////////
// CPU references
////////////////////////////////////////////////////////////////////////////////
static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void boxFilterRGBA_CPU(uchar4 *dst, const uchar4 *src, int w, int h) {
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float sx = 0.0f, sy = 0.0f, sz = 0.0f, sw = 0.0f;
            for (int dy = -FILTER_RADIUS; dy <= FILTER_RADIUS; dy++) {
                for (int dx = -FILTER_RADIUS; dx <= FILTER_RADIUS; dx++) {
                    const uchar4 t = src[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
                    sx = sx + (float)t.x / 255.0f;
                    sy = sy + (float)t.y / 255.0f;
                    sz = sz + (float)t.z / 255.0f;
                    sw = sw + (float)t.w / 255.0f;
                }
            }
            dst[y * w + x] = make_uchar4(floatSumToByteCPU(sx), floatSumToByteCPU(sy), floatSumToByteCPU(sz),
                                         floatSumToByteCPU(sw));
        }
    }
}

// The same blur in integers only: round(k / 25) for the byte total k of the neighbourhood.
static uchar boxByteExact(int k) { return (uchar)((k + FILTER_AREA / 2) / FILTER_AREA); }

static unsigned fnv1a(const void *data, size_t bytes) {
    const uchar *p = (const uchar *)data;
    unsigned h = 2166136261u;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static unsigned long long byteSum(const uchar4 *img, int n) {
    unsigned long long s = 0;
    for (int i = 0; i < n; i++) s += (unsigned)img[i].x + img[i].y + img[i].z + img[i].w;
    return s;
}

int main(int argc, char **argv) {
    printf("[tex_image_blur] - Starting...\n");
    findCudaDevice(argc, argv);

    const int w = kImageW, h = kImageH;
    const int hostPitchPixels = w + 8;   // a padded host image, as a loader might hand it over
    printf("Image %d x %d RGBA8, %dx%d box filter, point sampling, clamp addressing\n", w, h,
           2 * FILTER_RADIUS + 1, 2 * FILTER_RADIUS + 1);

    uchar4 *h_src = (uchar4 *)malloc(sizeof(uchar4) * hostPitchPixels * h);
    uchar4 *h_blurGPU = (uchar4 *)malloc(sizeof(uchar4) * w * h);
    uchar4 *h_blurCPU = (uchar4 *)malloc(sizeof(uchar4) * w * h);
    uchar4 *h_copyGPU = (uchar4 *)malloc(sizeof(uchar4) * w * h);

    // A test card: colour ramps, a bright disc and noise, the padding filled with a marker.
    Lcg rng(4242);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < hostPitchPixels; x++) {
            uchar4 p;
            if (x >= w) {
                p = make_uchar4(0xEE, 0xEE, 0xEE, 0xEE);
            } else {
                int dx = x - 170, dy = y - 80;
                bool disc = dx * dx + dy * dy < 40 * 40;
                p.x = (uchar)((x * 255) / (w - 1));
                p.y = (uchar)((y * 255) / (h - 1));
                p.z = disc ? 250 : (uchar)rng.below(256);
                p.w = (uchar)(((x / 8 + y / 8) & 1) ? 255 : 16 + rng.below(32));
            }
            h_src[y * hostPitchPixels + x] = p;
        }
    }

    // The cudaArray and the two texture objects on it.
    cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t d_array;
    checkCudaErrors(cudaMallocArray(&d_array, &channelDesc, w, h));
    checkCudaErrors(cudaMemcpy2DToArray(d_array, 0, 0, h_src, sizeof(uchar4) * hostPitchPixels, sizeof(uchar4) * w,
                                        h, cudaMemcpyHostToDevice));

    cudaResourceDesc texRes;
    memset(&texRes, 0, sizeof(cudaResourceDesc));
    texRes.resType = cudaResourceTypeArray;
    texRes.res.array.array = d_array;

    cudaTextureDesc texDescr;
    memset(&texDescr, 0, sizeof(cudaTextureDesc));
    texDescr.normalizedCoords = false;
    texDescr.filterMode = cudaFilterModePoint;
    texDescr.addressMode[0] = cudaAddressModeClamp;
    texDescr.addressMode[1] = cudaAddressModeClamp;
    texDescr.readMode = cudaReadModeNormalizedFloat;

    cudaTextureObject_t texImage = 0, texRaw = 0;
    checkCudaErrors(cudaCreateTextureObject(&texImage, &texRes, &texDescr, NULL));
    texDescr.readMode = cudaReadModeElementType;
    checkCudaErrors(cudaCreateTextureObject(&texRaw, &texRes, &texDescr, NULL));

    cudaResourceDesc queried;
    memset(&queried, 0, sizeof(queried));
    checkCudaErrors(cudaGetTextureObjectResourceDesc(&queried, texImage));
    bool resOk = queried.resType == cudaResourceTypeArray && queried.res.array.array == d_array;
    printf("texture object resource: %s, same array: %s\n",
           queried.resType == cudaResourceTypeArray ? "cudaResourceTypeArray" : "other",
           queried.res.array.array == d_array ? "yes" : "no");

    uchar4 *d_blur = NULL, *d_copy = NULL;
    checkCudaErrors(cudaMalloc((void **)&d_blur, sizeof(uchar4) * w * h));
    checkCudaErrors(cudaMalloc((void **)&d_copy, sizeof(uchar4) * w * h));
    checkCudaErrors(cudaMemset(d_blur, 0, sizeof(uchar4) * w * h));
    checkCudaErrors(cudaMemset(d_copy, 0, sizeof(uchar4) * w * h));

    dim3 threads(BLOCKDIM_X, BLOCKDIM_Y);
    dim3 grid((w + BLOCKDIM_X - 1) / BLOCKDIM_X, (h + BLOCKDIM_Y - 1) / BLOCKDIM_Y);

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start));
    d_boxFilterRGBA<<<grid, threads>>>(d_blur, w, h, texImage);
    getLastCudaError("d_boxFilterRGBA execution failed");
    d_shiftCopyRGBA<<<grid, threads>>>(d_copy, w, h, texRaw);
    getLastCudaError("d_shiftCopyRGBA execution failed");
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "boxFilter + copy: %.3f ms\n", ms);

    checkCudaErrors(cudaMemcpy(h_blurGPU, d_blur, sizeof(uchar4) * w * h, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(h_copyGPU, d_copy, sizeof(uchar4) * w * h, cudaMemcpyDeviceToHost));

    // Compact the padded source for the references.
    uchar4 *h_img = (uchar4 *)malloc(sizeof(uchar4) * w * h);
    for (int y = 0; y < h; y++) memcpy(h_img + y * w, h_src + y * hostPitchPixels, sizeof(uchar4) * w);

    boxFilterRGBA_CPU(h_blurCPU, h_img, w, h);

    // The float reference must agree with the integer rounding everywhere (a check of the argument
    // in the header), and the GPU with both.
    int blurMismatch = 0, refDisagree = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int kx = 0, ky = 0, kz = 0, kw = 0;
            for (int dy = -FILTER_RADIUS; dy <= FILTER_RADIUS; dy++)
                for (int dx = -FILTER_RADIUS; dx <= FILTER_RADIUS; dx++) {
                    const uchar4 t = h_img[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
                    kx += t.x;
                    ky += t.y;
                    kz += t.z;
                    kw += t.w;
                }
            const uchar4 c = h_blurCPU[y * w + x];
            const uchar4 g = h_blurGPU[y * w + x];
            if (c.x != boxByteExact(kx) || c.y != boxByteExact(ky) || c.z != boxByteExact(kz) ||
                c.w != boxByteExact(kw))
                refDisagree++;
            if (g.x != c.x || g.y != c.y || g.z != c.z || g.w != c.w) blurMismatch++;
        }
    }

    int copyMismatch = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const uchar4 e = h_img[clampi(y + COPY_SHIFT_Y, 0, h - 1) * w + clampi(x + COPY_SHIFT_X, 0, w - 1)];
            const uchar4 g = h_copyGPU[y * w + x];
            if (g.x != e.x || g.y != e.y || g.z != e.z || g.w != e.w) copyMismatch++;
        }
    }

    printf("box filter: %d of %d pixels differ from the CPU (float and integer references disagree on %d)\n",
           blurMismatch, w * h, refDisagree);
    printf("shifted copy (%d, %d): %d of %d pixels differ from the source\n", COPY_SHIFT_X, COPY_SHIFT_Y,
           copyMismatch, w * h);
    printf("blurred image: byte sum %llu, fnv1a 0x%08x\n", byteSum(h_blurGPU, w * h),
           fnv1a(h_blurGPU, sizeof(uchar4) * w * h));
    printf("shifted copy:  byte sum %llu, fnv1a 0x%08x\n", byteSum(h_copyGPU, w * h),
           fnv1a(h_copyGPU, sizeof(uchar4) * w * h));

    const int samples[][2] = {{0, 0}, {1, 1}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}, {170, 80}, {131, 97}, {7, 150}};
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        const int x = samples[i][0], y = samples[i][1];
        const uchar4 b = h_blurGPU[y * w + x];
        const uchar4 c = h_copyGPU[y * w + x];
        printf("pixel (%3d,%3d): blur %3u %3u %3u %3u  copy %3u %3u %3u %3u\n", x, y, b.x, b.y, b.z, b.w, c.x, c.y,
               c.z, c.w);
    }

    checkCudaErrors(cudaDestroyTextureObject(texImage));
    checkCudaErrors(cudaDestroyTextureObject(texRaw));
    checkCudaErrors(cudaFreeArray(d_array));
    checkCudaErrors(cudaFree(d_blur));
    checkCudaErrors(cudaFree(d_copy));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    free(h_src);
    free(h_img);
    free(h_blurGPU);
    free(h_blurCPU);
    free(h_copyGPU);

    const bool ok = resOk && blurMismatch == 0 && refDisagree == 0 && copyMismatch == 0;
    printf("tex_image_blur: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
