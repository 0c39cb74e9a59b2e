// Ray marching through a 32 x 32 x 16 volume of bytes in the style of NVIDIA's volumeRender sample:
// the volume goes into a 3D cudaArray (cudaMalloc3DArray, cudaMemcpy3D with make_cudaPitchedPtr and
// make_cudaExtent) read by two texture objects with trilinear filtering, normalized coordinates and
// cudaReadModeNormalizedFloat, one with clamp and one with border addressing. A 64 x 64 image of
// slightly oblique parallel rays, each starting and ending outside the volume, accumulates a maximum
// intensity projection and an average along each ray through both. A 16 x 16 x 3 layered float array
// (cudaArrayLayered) is then sampled with tex2DLayered<float> and bilinear filtering past its edges,
// and the volume is copied back out of its array into pitched linear memory from cudaMalloc3D, summed
// per slice by a kernel walking the pitch, and copied to the host with cudaMemcpy3D for an exact
// comparison. Exercises tex.3d.v4.f32.f32, tex.a2d.v4.f32.f32 and 3D copies between arrays, pitched
// device memory and the host. The texture unit interpolates with 8-bit fractional weights, so the
// filtered results are checked against a double-precision reference within 1e-2; the hex bits
// printed are what a real GPU returns, for an exact comparison.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned char VolumeType;

#define VOLUME_W 32
#define VOLUME_H 32
#define VOLUME_D 16
#define IMAGE_W 64
#define IMAGE_H 64
#define RAY_STEPS 48

#define LAYER_W 16
#define LAYER_H 16
#define LAYERS 3
#define LAYER_OUT_W 24
#define LAYER_OUT_H 24

static const double kTolerance = 1e-2;

////////////////////////////////////////////////////////////////////////////////
// Ray marching: ray (x, y) starts at (1.2 u - 0.1, 1.2 v - 0.1, -0.1) in normalized volume
// coordinates and takes RAY_STEPS steps of `step`, sampling at the middle of each step.
////////////////////////////////////////////////////////////////////////////////
__global__ void d_render(float4 *d_output, uint imageW, uint imageH, float3 step, cudaTextureObject_t texClamp,
                         cudaTextureObject_t texBorder) {
    const uint x = blockIdx.x * blockDim.x + threadIdx.x;
    const uint y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= imageW || y >= imageH) return;

    const float u = ((float)x + 0.5f) / (float)imageW;
    const float v = ((float)y + 0.5f) / (float)imageH;
    const float3 eye = make_float3(u * 1.2f - 0.1f, v * 1.2f - 0.1f, -0.1f);

    float maxClamp = 0.0f, sumClamp = 0.0f, maxBorder = 0.0f, sumBorder = 0.0f;
    for (int i = 0; i < RAY_STEPS; i++) {
        const float t = (float)i + 0.5f;
        const float px = eye.x + t * step.x;
        const float py = eye.y + t * step.y;
        const float pz = eye.z + t * step.z;
        const float sc = tex3D<float>(texClamp, px, py, pz);
        const float sb = tex3D<float>(texBorder, px, py, pz);
        maxClamp = fmaxf(maxClamp, sc);
        sumClamp += sc;
        maxBorder = fmaxf(maxBorder, sb);
        sumBorder += sb;
    }
    d_output[y * imageW + x] =
        make_float4(maxClamp, sumClamp / (float)RAY_STEPS, maxBorder, sumBorder / (float)RAY_STEPS);
}

////////////////////////////////////////////////////////////////////////////////
// Layered texture: blockIdx.z picks the layer; unnormalized coordinates (x + 0.5) * scale + offset.
////////////////////////////////////////////////////////////////////////////////
__global__ void d_sampleLayers(float *d_output, int outW, int outH, float scale, float offset,
                               cudaTextureObject_t texLayers) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int layer = blockIdx.z;
    if (x >= outW || y >= outH) return;
    const float fx = ((float)x + 0.5f) * scale + offset;
    const float fy = ((float)y + 0.5f) * scale + offset;
    d_output[(layer * outH + y) * outW + x] = tex2DLayered<float>(texLayers, fx, fy, layer);
}

////////////////////////////////////////////////////////////////////////////////
// Per-slice byte sums of a volume in pitched linear memory: one block per slice.
////////////////////////////////////////////////////////////////////////////////
__global__ void d_sliceSums(cudaPitchedPtr volume, int width, int height, uint *d_sums) {
    const int z = blockIdx.x;
    const char *slice = (const char *)volume.ptr + (size_t)z * volume.pitch * height;
    uint s = 0;
    for (int y = threadIdx.y; y < height; y += blockDim.y) {
        const uchar *row = (const uchar *)(slice + (size_t)y * volume.pitch);
        for (int x = threadIdx.x; x < width; x += blockDim.x) s += row[x];
    }
    atomicAdd(&d_sums[z], s);
}

////////////////////////////////////////////////////////////////////////////////
// Host reference: filtering with exact weights, address modes applied to texel indices.
////////////////////////////////////////////////////////////////////////////////
static int addressTexel(int i, int n, cudaTextureAddressMode mode) {
    if (mode == cudaAddressModeBorder) return (i < 0 || i >= n) ? -1 : i;
    return i < 0 ? 0 : (i >= n ? n - 1 : i);   // clamp
}

static double volumeTexel(const VolumeType *vol, int i, int j, int k, cudaTextureAddressMode mode) {
    i = addressTexel(i, VOLUME_W, mode);
    j = addressTexel(j, VOLUME_H, mode);
    k = addressTexel(k, VOLUME_D, mode);
    if (i < 0 || j < 0 || k < 0) return 0.0;
    return vol[((size_t)k * VOLUME_H + j) * VOLUME_W + i] / 255.0;
}

static double trilinearRef(const VolumeType *vol, double u, double v, double w, cudaTextureAddressMode mode) {
    const double xb = u * VOLUME_W - 0.5, yb = v * VOLUME_H - 0.5, zb = w * VOLUME_D - 0.5;
    const double fx = floor(xb), fy = floor(yb), fz = floor(zb);
    const double a = xb - fx, b = yb - fy, c = zb - fz;
    const int i = (int)fx, j = (int)fy, k = (int)fz;
    double r = 0.0;
    for (int dk = 0; dk < 2; dk++)
        for (int dj = 0; dj < 2; dj++)
            for (int di = 0; di < 2; di++) {
                const double wgt = (di ? a : 1 - a) * (dj ? b : 1 - b) * (dk ? c : 1 - c);
                r += wgt * volumeTexel(vol, i + di, j + dj, k + dk, mode);
            }
    return r;
}

static double layerRef(const float *layers, int layer, double x, double y) {
    const double xb = x - 0.5, yb = y - 0.5;
    const double fx = floor(xb), fy = floor(yb);
    const double a = xb - fx, b = yb - fy;
    const int i = (int)fx, j = (int)fy;
    double r = 0.0;
    for (int dj = 0; dj < 2; dj++)
        for (int di = 0; di < 2; di++) {
            const int ii = addressTexel(i + di, LAYER_W, cudaAddressModeClamp);
            const int jj = addressTexel(j + dj, LAYER_H, cudaAddressModeClamp);
            r += (di ? a : 1 - a) * (dj ? b : 1 - b) * layers[((size_t)layer * LAYER_H + jj) * LAYER_W + ii];
        }
    return r;
}

static uint floatBits(float f) {
    uint u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static uint fnv1a(const void *data, size_t bytes) {
    const uchar *p = (const uchar *)data;
    uint h = 2166136261u;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

// Two soft blobs over a little noise: neighbouring voxels differ by less than half the range.
static void makeVolume(VolumeType *vol) {
    Lcg rng(777);
    for (int z = 0; z < VOLUME_D; z++)
        for (int y = 0; y < VOLUME_H; y++)
            for (int x = 0; x < VOLUME_W; x++) {
                const int dA = (x - 10) * (x - 10) + (y - 12) * (y - 12) + 4 * (z - 6) * (z - 6);
                const int dB = (x - 22) * (x - 22) + (y - 20) * (y - 20) + 2 * (z - 10) * (z - 10);
                int v = 230 - 3 * dA;
                if (180 - 2 * dB > v) v = 180 - 2 * dB;
                if (v < 0) v = 0;
                v += rng.below(8);
                if (v > 255) v = 255;
                vol[((size_t)z * VOLUME_H + y) * VOLUME_W + x] = (VolumeType)v;
            }
}

static cudaTextureObject_t makeVolumeTexture(cudaArray_t array, cudaTextureAddressMode mode) {
    cudaResourceDesc texRes;
    memset(&texRes, 0, sizeof(cudaResourceDesc));
    texRes.resType = cudaResourceTypeArray;
    texRes.res.array.array = array;

    cudaTextureDesc texDescr;
    memset(&texDescr, 0, sizeof(cudaTextureDesc));   // border colour 0
    texDescr.normalizedCoords = true;
    texDescr.filterMode = cudaFilterModeLinear;   // trilinear
    texDescr.addressMode[0] = mode;
    texDescr.addressMode[1] = mode;
    texDescr.addressMode[2] = mode;
    texDescr.readMode = cudaReadModeNormalizedFloat;

    cudaTextureObject_t tex = 0;
    checkCudaErrors(cudaCreateTextureObject(&tex, &texRes, &texDescr, NULL));
    return tex;
}

int main(int argc, char **argv) {
    printf("[tex_volume_sampler] - Starting...\n");
    findCudaDevice(argc, argv);

    const cudaExtent volumeSize = make_cudaExtent(VOLUME_W, VOLUME_H, VOLUME_D);
    const size_t volumeBytes = VOLUME_W * VOLUME_H * VOLUME_D * sizeof(VolumeType);
    VolumeType *h_volume = (VolumeType *)malloc(volumeBytes);
    makeVolume(h_volume);
    printf("Volume %d x %d x %d bytes, image %d x %d, %d steps per ray\n", VOLUME_W, VOLUME_H, VOLUME_D, IMAGE_W,
           IMAGE_H, RAY_STEPS);

    // create the 3D array and copy the data into it
    cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc<VolumeType>();
    cudaArray_t d_volumeArray = 0;
    checkCudaErrors(cudaMalloc3DArray(&d_volumeArray, &channelDesc, volumeSize));

    cudaMemcpy3DParms copyParams = {};
    copyParams.srcPtr = make_cudaPitchedPtr(h_volume, volumeSize.width * sizeof(VolumeType), volumeSize.width,
                                            volumeSize.height);
    copyParams.dstArray = d_volumeArray;
    copyParams.extent = volumeSize;
    copyParams.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaMemcpy3D(&copyParams));

    cudaTextureObject_t texClamp = makeVolumeTexture(d_volumeArray, cudaAddressModeClamp);
    cudaTextureObject_t texBorder = makeVolumeTexture(d_volumeArray, cudaAddressModeBorder);

    // --- ray marching ---
    const float3 step = make_float3(0.20f / RAY_STEPS, -0.15f / RAY_STEPS, 1.20f / RAY_STEPS);
    float4 *d_image = NULL;
    checkCudaErrors(cudaMalloc((void **)&d_image, IMAGE_W * IMAGE_H * sizeof(float4)));
    checkCudaErrors(cudaMemset(d_image, 0, IMAGE_W * IMAGE_H * sizeof(float4)));
    dim3 blockSize(16, 16);
    dim3 gridSize((IMAGE_W + blockSize.x - 1) / blockSize.x, (IMAGE_H + blockSize.y - 1) / blockSize.y);

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start));
    d_render<<<gridSize, blockSize>>>(d_image, IMAGE_W, IMAGE_H, step, texClamp, texBorder);
    getLastCudaError("d_render execution failed");
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "d_render: %.3f ms\n", ms);

    float4 *h_image = (float4 *)malloc(IMAGE_W * IMAGE_H * sizeof(float4));
    checkCudaErrors(cudaMemcpy(h_image, d_image, IMAGE_W * IMAGE_H * sizeof(float4), cudaMemcpyDeviceToHost));

    double maxErr[4] = {0, 0, 0, 0};
    for (int y = 0; y < IMAGE_H; y++) {
        for (int x = 0; x < IMAGE_W; x++) {
            const double u = (x + 0.5) / IMAGE_W, v = (y + 0.5) / IMAGE_H;
            const double ex = u * 1.2 - 0.1, ey = v * 1.2 - 0.1, ez = -0.1;
            double ref[4] = {0, 0, 0, 0};
            for (int i = 0; i < RAY_STEPS; i++) {
                const double t = i + 0.5;
                const double px = ex + t * step.x, py = ey + t * step.y, pz = ez + t * step.z;
                const double sc = trilinearRef(h_volume, px, py, pz, cudaAddressModeClamp);
                const double sb = trilinearRef(h_volume, px, py, pz, cudaAddressModeBorder);
                if (sc > ref[0]) ref[0] = sc;
                ref[1] += sc;
                if (sb > ref[2]) ref[2] = sb;
                ref[3] += sb;
            }
            ref[1] /= RAY_STEPS;
            ref[3] /= RAY_STEPS;
            const float4 g = h_image[y * IMAGE_W + x];
            const float got[4] = {g.x, g.y, g.z, g.w};
            for (int c = 0; c < 4; c++) {
                const double e = fabs((double)got[c] - ref[c]);
                if (std::isnan(e) || e > maxErr[c]) maxErr[c] = e;   // a NaN sticks
            }
        }
    }

    static const char *names[4] = {"max intensity, clamp", "average, clamp", "max intensity, border",
                                   "average, border"};
    bool renderOk = true;
    for (int c = 0; c < 4; c++) {
        const bool ok = maxErr[c] < kTolerance;
        renderOk = renderOk && ok;
        fprintf(stderr, "%s: max |gpu - ref| = %.3e\n", names[c], maxErr[c]);
        printf("%s: within %.0e of the reference: %s\n", names[c], kTolerance, ok ? "yes" : "no");
        for (int y = 4; y < IMAGE_H; y += 9) {
            printf("  y=%2d:", y);
            for (int x = 4; x < IMAGE_W; x += 9) {
                const float4 g = h_image[y * IMAGE_W + x];
                const float f = c == 0 ? g.x : c == 1 ? g.y : c == 2 ? g.z : g.w;
                printf(" %08x", floatBits(f));
            }
            printf("\n");
        }
    }
    printf("rendered image: fnv1a 0x%08x\n", fnv1a(h_image, IMAGE_W * IMAGE_H * sizeof(float4)));

    // --- layered 2D texture ---
    const size_t layerBytes = LAYER_W * LAYER_H * LAYERS * sizeof(float);
    float *h_layers = (float *)malloc(layerBytes);
    Lcg rng(99);
    for (int l = 0; l < LAYERS; l++)
        for (int y = 0; y < LAYER_H; y++)
            for (int x = 0; x < LAYER_W; x++) {
                int k;
                if (l == 0) k = x * 8 + y * 7;                 // ramp
                else if (l == 1) k = ((x + y) & 1) ? 255 : 0;   // checkerboard
                else k = rng.below(256);                        // noise
                h_layers[((size_t)l * LAYER_H + y) * LAYER_W + x] = (float)k / 512.0f;
            }

    cudaChannelFormatDesc floatDesc = cudaCreateChannelDesc<float>();
    cudaArray_t d_layerArray = 0;
    checkCudaErrors(
        cudaMalloc3DArray(&d_layerArray, &floatDesc, make_cudaExtent(LAYER_W, LAYER_H, LAYERS), cudaArrayLayered));
    cudaMemcpy3DParms layerCopy = {};
    layerCopy.srcPtr = make_cudaPitchedPtr(h_layers, LAYER_W * sizeof(float), LAYER_W, LAYER_H);
    layerCopy.dstArray = d_layerArray;
    layerCopy.extent = make_cudaExtent(LAYER_W, LAYER_H, LAYERS);
    layerCopy.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaMemcpy3D(&layerCopy));

    cudaResourceDesc layerRes;
    memset(&layerRes, 0, sizeof(layerRes));
    layerRes.resType = cudaResourceTypeArray;
    layerRes.res.array.array = d_layerArray;
    cudaTextureDesc layerTexDesc;
    memset(&layerTexDesc, 0, sizeof(layerTexDesc));
    layerTexDesc.normalizedCoords = false;
    layerTexDesc.filterMode = cudaFilterModeLinear;
    layerTexDesc.addressMode[0] = cudaAddressModeClamp;
    layerTexDesc.addressMode[1] = cudaAddressModeClamp;
    layerTexDesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t texLayers = 0;
    checkCudaErrors(cudaCreateTextureObject(&texLayers, &layerRes, &layerTexDesc, NULL));

    // 24 samples across 18 texels starting one texel before the edge: both clamped edges are read
    const float layerScale = 0.75f, layerOffset = -1.0f;
    const size_t layerOutCount = LAYER_OUT_W * LAYER_OUT_H * LAYERS;
    float *d_layerOut = NULL;
    checkCudaErrors(cudaMalloc((void **)&d_layerOut, layerOutCount * sizeof(float)));
    dim3 layerBlock(8, 8);
    dim3 layerGrid((LAYER_OUT_W + 7) / 8, (LAYER_OUT_H + 7) / 8, LAYERS);
    d_sampleLayers<<<layerGrid, layerBlock>>>(d_layerOut, LAYER_OUT_W, LAYER_OUT_H, layerScale, layerOffset,
                                              texLayers);
    getLastCudaError("d_sampleLayers execution failed");
    float *h_layerOut = (float *)malloc(layerOutCount * sizeof(float));
    checkCudaErrors(cudaMemcpy(h_layerOut, d_layerOut, layerOutCount * sizeof(float), cudaMemcpyDeviceToHost));

    double layerErr = 0.0;
    for (int l = 0; l < LAYERS; l++)
        for (int y = 0; y < LAYER_OUT_H; y++)
            for (int x = 0; x < LAYER_OUT_W; x++) {
                const double ref = layerRef(h_layers, l, (x + 0.5) * layerScale + layerOffset,
                                            (y + 0.5) * layerScale + layerOffset);
                const double e = fabs((double)h_layerOut[(l * LAYER_OUT_H + y) * LAYER_OUT_W + x] - ref);
                if (std::isnan(e) || e > layerErr) layerErr = e;
            }
    const bool layerOk = layerErr < kTolerance;
    fprintf(stderr, "layered: max |gpu - ref| = %.3e\n", layerErr);
    printf("layered texture %d x %d x %d layers, bilinear: within %.0e of the reference: %s\n", LAYER_W, LAYER_H,
           LAYERS, kTolerance, layerOk ? "yes" : "no");
    for (int l = 0; l < LAYERS; l++)
        for (int y = 0; y < LAYER_OUT_H; y += 5) {
            printf("  layer %d y=%2d:", l, y);
            for (int x = 0; x < LAYER_OUT_W; x += 5)
                printf(" %08x", floatBits(h_layerOut[(l * LAYER_OUT_H + y) * LAYER_OUT_W + x]));
            printf("\n");
        }
    printf("layered samples: fnv1a 0x%08x\n", fnv1a(h_layerOut, layerOutCount * sizeof(float)));

    // --- the volume back out of its array: array -> pitched device memory -> host ---
    cudaPitchedPtr d_pitched;
    checkCudaErrors(cudaMalloc3D(&d_pitched, make_cudaExtent(VOLUME_W * sizeof(VolumeType), VOLUME_H, VOLUME_D)));
    fprintf(stderr, "cudaMalloc3D pitch %zu bytes for rows of %d\n", d_pitched.pitch, VOLUME_W);
    checkCudaErrors(cudaMemset3D(d_pitched, 0xA5, make_cudaExtent(VOLUME_W, VOLUME_H, VOLUME_D)));

    cudaMemcpy3DParms backParams = {};
    backParams.srcArray = d_volumeArray;
    backParams.dstPtr = d_pitched;
    backParams.extent = volumeSize;
    backParams.kind = cudaMemcpyDeviceToDevice;
    checkCudaErrors(cudaMemcpy3D(&backParams));

    uint *d_sums = NULL;
    checkCudaErrors(cudaMalloc((void **)&d_sums, VOLUME_D * sizeof(uint)));
    checkCudaErrors(cudaMemset(d_sums, 0, VOLUME_D * sizeof(uint)));
    d_sliceSums<<<VOLUME_D, dim3(32, 8)>>>(d_pitched, VOLUME_W, VOLUME_H, d_sums);
    getLastCudaError("d_sliceSums execution failed");
    uint h_sums[VOLUME_D];
    checkCudaErrors(cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost));

    VolumeType *h_back = (VolumeType *)malloc(volumeBytes);
    memset(h_back, 0, volumeBytes);
    cudaMemcpy3DParms hostParams = {};
    hostParams.srcPtr = d_pitched;
    hostParams.dstPtr = make_cudaPitchedPtr(h_back, VOLUME_W * sizeof(VolumeType), VOLUME_W, VOLUME_H);
    hostParams.extent = make_cudaExtent(VOLUME_W * sizeof(VolumeType), VOLUME_H, VOLUME_D);
    hostParams.kind = cudaMemcpyDeviceToHost;
    checkCudaErrors(cudaMemcpy3D(&hostParams));

    const bool backOk = memcmp(h_back, h_volume, volumeBytes) == 0;
    bool sumsOk = true;
    printf("slice sums:");
    for (int z = 0; z < VOLUME_D; z++) {
        uint ref = 0;
        for (int i = 0; i < VOLUME_W * VOLUME_H; i++) ref += h_volume[(size_t)z * VOLUME_W * VOLUME_H + i];
        sumsOk = sumsOk && ref == h_sums[z];
        printf(" %u", h_sums[z]);
    }
    printf("\n");
    printf("volume read back through pitched memory: %s, slice sums match the host: %s, fnv1a 0x%08x\n",
           backOk ? "identical" : "DIFFERENT", sumsOk ? "yes" : "no", fnv1a(h_back, volumeBytes));

    checkCudaErrors(cudaDestroyTextureObject(texClamp));
    checkCudaErrors(cudaDestroyTextureObject(texBorder));
    checkCudaErrors(cudaDestroyTextureObject(texLayers));
    checkCudaErrors(cudaFreeArray(d_volumeArray));
    checkCudaErrors(cudaFreeArray(d_layerArray));
    checkCudaErrors(cudaFree(d_image));
    checkCudaErrors(cudaFree(d_layerOut));
    checkCudaErrors(cudaFree(d_pitched.ptr));
    checkCudaErrors(cudaFree(d_sums));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    free(h_volume);
    free(h_image);
    free(h_layers);
    free(h_layerOut);
    free(h_back);

    const bool ok = renderOk && layerOk && backOk && sumsOk;
    printf("tex_volume_sampler: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
