// Surface load/store on CUDA arrays in the style of NVIDIA's simpleSurfaceWrite sample: a 100 x 60
// float array and a 1000-element 1D int array allocated with cudaArraySurfaceLoadStore, transformed in
// place through surface objects (surf2Dread/surf2Dwrite and surf1Dread/surf1Dwrite, x as a byte
// offset), read out of bounds with cudaBoundaryModeZero and cudaBoundaryModeClamp, written out of
// bounds with cudaBoundaryModeZero (the stores must be dropped), copied array to array with
// cudaMemcpy2DArrayToArray (whole and a sub-rectangle), and read back with cudaMemcpy2DFromArray and
// the legacy cudaMemcpyToArray/cudaMemcpyFromArray. cudaArrayGetInfo, cudaGetChannelDesc and
// cudaGetSurfaceObjectResourceDesc are printed. Exercises suld.b.1d/2d and sust.b.1d/2d in the trap,
// zero and clamp modes. Every value is compared exactly: the transforms are exact in IEEE arithmetic.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

#define WIDTH 100
#define HEIGHT 60
#define HOST_PITCH_FLOATS (WIDTH + 7)
#define INT_COUNT 1000

// The sub-rectangle copied from the transformed array into the second array.
#define SUB_SRC_X 10
#define SUB_SRC_Y 5
#define SUB_DST_X 50
#define SUB_DST_Y 30
#define SUB_W 30
#define SUB_H 20

static const float kDroppedValue = -777.0f;

////////////////////////////////////////////////////////////////////////////////
// In-place transform of the float array: v -> 2v - y + 1/4 (exact for the inputs used).
////////////////////////////////////////////////////////////////////////////////
__global__ void surfaceTransformKernel(cudaSurfaceObject_t surf, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float data;
        surf2Dread(&data, surf, x * 4, y);
        data = data * 2.0f - (float)y + 0.25f;
        surf2Dwrite(data, surf, x * 4, y);
    }
}

////////////////////////////////////////////////////////////////////////////////
// Reads one texel outside every edge: rowProbe[4y..] = zero left, zero right, clamp left, clamp
// right of row y; colProbe[4x..] = zero above, zero below, clamp above, clamp below column x;
// corner[] = zero and clamp at (-1,-1) and (width,height).
////////////////////////////////////////////////////////////////////////////////
__global__ void surfaceProbeKernel(cudaSurfaceObject_t surf, int width, int height, float *rowProbe,
                                   float *colProbe, float *corner) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < height) {
        rowProbe[4 * i + 0] = surf2Dread<float>(surf, -1 * 4, i, cudaBoundaryModeZero);
        rowProbe[4 * i + 1] = surf2Dread<float>(surf, width * 4, i, cudaBoundaryModeZero);
        rowProbe[4 * i + 2] = surf2Dread<float>(surf, -1 * 4, i, cudaBoundaryModeClamp);
        rowProbe[4 * i + 3] = surf2Dread<float>(surf, width * 4, i, cudaBoundaryModeClamp);
    }
    if (i < width) {
        float v;
        surf2Dread(&v, surf, i * 4, -1, cudaBoundaryModeZero);
        colProbe[4 * i + 0] = v;
        surf2Dread(&v, surf, i * 4, height, cudaBoundaryModeZero);
        colProbe[4 * i + 1] = v;
        surf2Dread(&v, surf, i * 4, -1, cudaBoundaryModeClamp);
        colProbe[4 * i + 2] = v;
        surf2Dread(&v, surf, i * 4, height, cudaBoundaryModeClamp);
        colProbe[4 * i + 3] = v;
    }
    if (i == 0) {
        corner[0] = surf2Dread<float>(surf, -1 * 4, -1, cudaBoundaryModeZero);
        corner[1] = surf2Dread<float>(surf, width * 4, height, cudaBoundaryModeZero);
        corner[2] = surf2Dread<float>(surf, -1 * 4, -1, cudaBoundaryModeClamp);
        corner[3] = surf2Dread<float>(surf, width * 4, height, cudaBoundaryModeClamp);
    }
}

////////////////////////////////////////////////////////////////////////////////
// Stores just outside every edge with cudaBoundaryModeZero: all of them must be dropped.
////////////////////////////////////////////////////////////////////////////////
__global__ void surfaceDroppedStoreKernel(cudaSurfaceObject_t surf, int width, int height, float value) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < height) {
        surf2Dwrite(value, surf, -1 * 4, i, cudaBoundaryModeZero);
        surf2Dwrite(value, surf, width * 4, i, cudaBoundaryModeZero);
    }
    if (i < width) {
        surf2Dwrite(value, surf, i * 4, -1, cudaBoundaryModeZero);
        surf2Dwrite(value, surf, i * 4, height, cudaBoundaryModeZero);
    }
}

////////////////////////////////////////////////////////////////////////////////
// 1D int surface: in-place v -> 3v + (i ^ 0x55), then probes just outside both ends.
////////////////////////////////////////////////////////////////////////////////
__global__ void surface1DTransformKernel(cudaSurfaceObject_t surf, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = surf1Dread<int>(surf, i * 4);
        v = v * 3 + (i ^ 0x55);
        surf1Dwrite(v, surf, i * 4);
    }
}

__global__ void surface1DProbeKernel(cudaSurfaceObject_t surf, int n, int *probe) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        surf1Dread(&probe[0], surf, -1 * 4, cudaBoundaryModeZero);
        surf1Dread(&probe[1], surf, n * 4, cudaBoundaryModeZero);
        surf1Dread(&probe[2], surf, -1 * 4, cudaBoundaryModeClamp);
        surf1Dread(&probe[3], surf, n * 4, cudaBoundaryModeClamp);
    }
}

////////////////////////////////////////////////////////////////////////////////
// Host helpers
////////////////////////////////////////////////////////////////////////////////
static unsigned fnv1a(const void *data, size_t bytes, unsigned h = 2166136261u) {
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static unsigned floatBits(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static const char *formatKindName(cudaChannelFormatKind f) {
    switch (f) {
    case cudaChannelFormatKindSigned: return "cudaChannelFormatKindSigned";
    case cudaChannelFormatKindUnsigned: return "cudaChannelFormatKindUnsigned";
    case cudaChannelFormatKindFloat: return "cudaChannelFormatKindFloat";
    case cudaChannelFormatKindNone: return "cudaChannelFormatKindNone";
    default: return "other";
    }
}

static void printArrayInfo(const char *label, cudaArray_t array) {
    cudaChannelFormatDesc desc;
    cudaExtent extent;
    unsigned int flags = 0;
    memset(&desc, 0, sizeof(desc));
    memset(&extent, 0, sizeof(extent));
    checkCudaErrors(cudaArrayGetInfo(&desc, &extent, &flags, array));
    printf("%s: cudaArrayGetInfo desc {%d, %d, %d, %d, %s}, extent %zu x %zu x %zu, flags 0x%x\n", label, desc.x,
           desc.y, desc.z, desc.w, formatKindName(desc.f), extent.width, extent.height, extent.depth, flags);
    cudaChannelFormatDesc desc2;
    memset(&desc2, 0, sizeof(desc2));
    checkCudaErrors(cudaGetChannelDesc(&desc2, array));
    printf("%s: cudaGetChannelDesc {%d, %d, %d, %d, %s}\n", label, desc2.x, desc2.y, desc2.z, desc2.w,
           formatKindName(desc2.f));
}

static cudaSurfaceObject_t makeSurface(cudaArray_t array) {
    cudaResourceDesc surfRes;
    memset(&surfRes, 0, sizeof(cudaResourceDesc));
    surfRes.resType = cudaResourceTypeArray;
    surfRes.res.array.array = array;
    cudaSurfaceObject_t surf = 0;
    checkCudaErrors(cudaCreateSurfaceObject(&surf, &surfRes));
    return surf;
}

int main(int argc, char **argv) {
    printf("[surf_writeback] - Starting...\n");
    findCudaDevice(argc, argv);
    bool ok = true;

    // ---------------- 2D float array ----------------
    const unsigned int size = WIDTH * HEIGHT * sizeof(float);
    float *h_data = (float *)malloc(HOST_PITCH_FLOATS * HEIGHT * sizeof(float));
    float *h_ref = (float *)malloc(size);
    float *h_out = (float *)malloc(size);
    Lcg rng(5150);
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < HOST_PITCH_FLOATS; x++)
            h_data[y * HOST_PITCH_FLOATS + x] = x < WIDTH ? (float)(rng.next() & 0xffff) / 256.0f : -1.0f;
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) h_ref[y * WIDTH + x] = h_data[y * HOST_PITCH_FLOATS + x] * 2.0f - (float)y + 0.25f;

    cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t cuArray;
    checkCudaErrors(cudaMallocArray(&cuArray, &channelDesc, WIDTH, HEIGHT, cudaArraySurfaceLoadStore));
    checkCudaErrors(cudaMemcpy2DToArray(cuArray, 0, 0, h_data, HOST_PITCH_FLOATS * sizeof(float),
                                        WIDTH * sizeof(float), HEIGHT, cudaMemcpyHostToDevice));
    printArrayInfo("float array", cuArray);

    cudaSurfaceObject_t surf = makeSurface(cuArray);
    cudaResourceDesc queried;
    memset(&queried, 0, sizeof(queried));
    checkCudaErrors(cudaGetSurfaceObjectResourceDesc(&queried, surf));
    const bool resOk = queried.resType == cudaResourceTypeArray && queried.res.array.array == cuArray;
    printf("surface object resource: %s, same array: %s\n",
           queried.resType == cudaResourceTypeArray ? "cudaResourceTypeArray" : "other",
           queried.res.array.array == cuArray ? "yes" : "no");
    ok = ok && resOk;

    dim3 dimBlock(8, 8, 1);
    dim3 dimGrid((WIDTH + dimBlock.x - 1) / dimBlock.x, (HEIGHT + dimBlock.y - 1) / dimBlock.y, 1);
    surfaceTransformKernel<<<dimGrid, dimBlock>>>(surf, WIDTH, HEIGHT);
    getLastCudaError("surfaceTransformKernel execution failed");

    float *d_rowProbe, *d_colProbe, *d_corner;
    checkCudaErrors(cudaMalloc((void **)&d_rowProbe, 4 * HEIGHT * sizeof(float)));
    checkCudaErrors(cudaMalloc((void **)&d_colProbe, 4 * WIDTH * sizeof(float)));
    checkCudaErrors(cudaMalloc((void **)&d_corner, 4 * sizeof(float)));
    const int probeThreads = WIDTH > HEIGHT ? WIDTH : HEIGHT;
    surfaceProbeKernel<<<(probeThreads + 63) / 64, 64>>>(surf, WIDTH, HEIGHT, d_rowProbe, d_colProbe, d_corner);
    getLastCudaError("surfaceProbeKernel execution failed");
    surfaceDroppedStoreKernel<<<(probeThreads + 63) / 64, 64>>>(surf, WIDTH, HEIGHT, kDroppedValue);
    getLastCudaError("surfaceDroppedStoreKernel execution failed");
    checkCudaErrors(cudaDeviceSynchronize());

    checkCudaErrors(cudaMemcpy2DFromArray(h_out, WIDTH * sizeof(float), cuArray, 0, 0, WIDTH * sizeof(float), HEIGHT,
                                          cudaMemcpyDeviceToHost));
    int mismatches = 0;
    for (int i = 0; i < WIDTH * HEIGHT; i++)
        if (floatBits(h_out[i]) != floatBits(h_ref[i])) mismatches++;
    printf("in-place transform: %d of %d texels differ, fnv1a 0x%08x\n", mismatches, WIDTH * HEIGHT,
           fnv1a(h_out, size));
    printf("  (0,0) %08x  (%d,%d) %08x  (37,21) %08x\n", floatBits(h_out[0]), WIDTH - 1, HEIGHT - 1,
           floatBits(h_out[WIDTH * HEIGHT - 1]), floatBits(h_out[21 * WIDTH + 37]));
    ok = ok && mismatches == 0;

    float h_rowProbe[4 * HEIGHT], h_colProbe[4 * WIDTH], h_corner[4];
    checkCudaErrors(cudaMemcpy(h_rowProbe, d_rowProbe, sizeof(h_rowProbe), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(h_colProbe, d_colProbe, sizeof(h_colProbe), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(h_corner, d_corner, sizeof(h_corner), cudaMemcpyDeviceToHost));
    int zeroBad = 0, clampBad = 0;
    for (int y = 0; y < HEIGHT; y++) {
        zeroBad += floatBits(h_rowProbe[4 * y + 0]) != 0u;
        zeroBad += floatBits(h_rowProbe[4 * y + 1]) != 0u;
        clampBad += floatBits(h_rowProbe[4 * y + 2]) != floatBits(h_ref[y * WIDTH + 0]);
        clampBad += floatBits(h_rowProbe[4 * y + 3]) != floatBits(h_ref[y * WIDTH + WIDTH - 1]);
    }
    for (int x = 0; x < WIDTH; x++) {
        zeroBad += floatBits(h_colProbe[4 * x + 0]) != 0u;
        zeroBad += floatBits(h_colProbe[4 * x + 1]) != 0u;
        clampBad += floatBits(h_colProbe[4 * x + 2]) != floatBits(h_ref[x]);
        clampBad += floatBits(h_colProbe[4 * x + 3]) != floatBits(h_ref[(HEIGHT - 1) * WIDTH + x]);
    }
    zeroBad += floatBits(h_corner[0]) != 0u;
    zeroBad += floatBits(h_corner[1]) != 0u;
    clampBad += floatBits(h_corner[2]) != floatBits(h_ref[0]);
    clampBad += floatBits(h_corner[3]) != floatBits(h_ref[WIDTH * HEIGHT - 1]);
    printf("out-of-bounds reads: %d of %d zero-mode reads not zero, %d of %d clamp-mode reads not the edge texel\n",
           zeroBad, 2 * (WIDTH + HEIGHT) + 2, clampBad, 2 * (WIDTH + HEIGHT) + 2);
    printf("  row 7: zero %08x %08x clamp %08x %08x; corners: zero %08x %08x clamp %08x %08x\n",
           floatBits(h_rowProbe[28]), floatBits(h_rowProbe[29]), floatBits(h_rowProbe[30]),
           floatBits(h_rowProbe[31]), floatBits(h_corner[0]), floatBits(h_corner[1]), floatBits(h_corner[2]),
           floatBits(h_corner[3]));
    printf("out-of-bounds stores in zero mode dropped: %s\n", mismatches == 0 ? "yes" : "no");
    ok = ok && zeroBad == 0 && clampBad == 0;

    // a sub-rectangle read back with offsets
    float h_part[40 * 10];
    checkCudaErrors(cudaMemcpy2DFromArray(h_part, 40 * sizeof(float), cuArray, 20 * sizeof(float), 10,
                                          40 * sizeof(float), 10, cudaMemcpyDeviceToHost));
    int partBad = 0;
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 40; x++) partBad += floatBits(h_part[y * 40 + x]) != floatBits(h_ref[(y + 10) * WIDTH + x + 20]);
    printf("cudaMemcpy2DFromArray of 40 x 10 at (20,10): %d differ\n", partBad);
    ok = ok && partBad == 0;

    // ---------------- array to array ----------------
    cudaArray_t cuArray2;
    checkCudaErrors(cudaMallocArray(&cuArray2, &channelDesc, WIDTH, HEIGHT));
    printArrayInfo("second float array", cuArray2);
    checkCudaErrors(cudaMemcpy2DArrayToArray(cuArray2, 0, 0, cuArray, 0, 0, WIDTH * sizeof(float), HEIGHT,
                                             cudaMemcpyDeviceToDevice));
    // now the transformed array once more, with the array restored to its input first
    checkCudaErrors(cudaMemcpy2DToArray(cuArray, 0, 0, h_data, HOST_PITCH_FLOATS * sizeof(float),
                                        WIDTH * sizeof(float), HEIGHT, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy2DArrayToArray(cuArray2, SUB_DST_X * sizeof(float), SUB_DST_Y, cuArray,
                                             SUB_SRC_X * sizeof(float), SUB_SRC_Y, SUB_W * sizeof(float), SUB_H,
                                             cudaMemcpyDeviceToDevice));
    float *h_out2 = (float *)malloc(size);
    checkCudaErrors(cudaMemcpy2DFromArray(h_out2, WIDTH * sizeof(float), cuArray2, 0, 0, WIDTH * sizeof(float),
                                          HEIGHT, cudaMemcpyDeviceToHost));
    int copyBad = 0;
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            const bool inSub = x >= SUB_DST_X && x < SUB_DST_X + SUB_W && y >= SUB_DST_Y && y < SUB_DST_Y + SUB_H;
            const float e = inSub ? h_data[(y - SUB_DST_Y + SUB_SRC_Y) * HOST_PITCH_FLOATS + (x - SUB_DST_X + SUB_SRC_X)]
                                  : h_ref[y * WIDTH + x];
            copyBad += floatBits(h_out2[y * WIDTH + x]) != floatBits(e);
        }
    printf("cudaMemcpy2DArrayToArray whole + %d x %d from (%d,%d) to (%d,%d): %d differ, fnv1a 0x%08x\n", SUB_W,
           SUB_H, SUB_SRC_X, SUB_SRC_Y, SUB_DST_X, SUB_DST_Y, copyBad, fnv1a(h_out2, size));
    ok = ok && copyBad == 0;

    // ---------------- 1D int array ----------------
    int *h_int = (int *)malloc(INT_COUNT * sizeof(int));
    int *h_intRef = (int *)malloc(INT_COUNT * sizeof(int));
    int *h_intOut = (int *)malloc(INT_COUNT * sizeof(int));
    for (int i = 0; i < INT_COUNT; i++) {
        h_int[i] = (int)(rng.next() & 0xffffff) - 0x800000;
        h_intRef[i] = h_int[i] * 3 + (i ^ 0x55);
    }
    cudaChannelFormatDesc intDesc = cudaCreateChannelDesc<int>();
    cudaArray_t intArray;
    checkCudaErrors(cudaMallocArray(&intArray, &intDesc, INT_COUNT, 0, cudaArraySurfaceLoadStore));
    printArrayInfo("1D int array", intArray);

    // the legacy 1D copies, as older code still writes them
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    checkCudaErrors(cudaMemcpyToArray(intArray, 0, 0, h_int, INT_COUNT * sizeof(int), cudaMemcpyHostToDevice));
#pragma GCC diagnostic pop

    cudaSurfaceObject_t surf1D = makeSurface(intArray);
    surface1DTransformKernel<<<(INT_COUNT + 127) / 128, 128>>>(surf1D, INT_COUNT);
    getLastCudaError("surface1DTransformKernel execution failed");
    int *d_intProbe;
    checkCudaErrors(cudaMalloc((void **)&d_intProbe, 4 * sizeof(int)));
    surface1DProbeKernel<<<1, 32>>>(surf1D, INT_COUNT, d_intProbe);
    getLastCudaError("surface1DProbeKernel execution failed");
    int h_intProbe[4];
    checkCudaErrors(cudaMemcpy(h_intProbe, d_intProbe, sizeof(h_intProbe), cudaMemcpyDeviceToHost));

    int h_intPart[100];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    checkCudaErrors(cudaMemcpyFromArray(h_intOut, intArray, 0, 0, INT_COUNT * sizeof(int), cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpyFromArray(h_intPart, intArray, 400 * sizeof(int), 0, sizeof(h_intPart),
                                        cudaMemcpyDeviceToHost));
#pragma GCC diagnostic pop
    int intBad = 0, intPartBad = 0;
    for (int i = 0; i < INT_COUNT; i++) intBad += h_intOut[i] != h_intRef[i];
    for (int i = 0; i < 100; i++) intPartBad += h_intPart[i] != h_intRef[400 + i];
    const bool intProbeOk = h_intProbe[0] == 0 && h_intProbe[1] == 0 && h_intProbe[2] == h_intRef[0] &&
                            h_intProbe[3] == h_intRef[INT_COUNT - 1];
    printf("1D surface transform: %d of %d differ, elements 400..499 read at an offset: %d differ, fnv1a 0x%08x\n",
           intBad, INT_COUNT, intPartBad, fnv1a(h_intOut, INT_COUNT * sizeof(int)));
    printf("  [0] %d  [1] %d  [999] %d; outside: zero %d %d, clamp %d %d (%s)\n", h_intOut[0], h_intOut[1],
           h_intOut[INT_COUNT - 1], h_intProbe[0], h_intProbe[1], h_intProbe[2], h_intProbe[3],
           intProbeOk ? "as expected" : "WRONG");
    ok = ok && intBad == 0 && intPartBad == 0 && intProbeOk;

    checkCudaErrors(cudaDestroySurfaceObject(surf));
    checkCudaErrors(cudaDestroySurfaceObject(surf1D));
    checkCudaErrors(cudaFreeArray(cuArray));
    checkCudaErrors(cudaFreeArray(cuArray2));
    checkCudaErrors(cudaFreeArray(intArray));
    checkCudaErrors(cudaFree(d_rowProbe));
    checkCudaErrors(cudaFree(d_colProbe));
    checkCudaErrors(cudaFree(d_corner));
    checkCudaErrors(cudaFree(d_intProbe));
    free(h_data);
    free(h_ref);
    free(h_out);
    free(h_out2);
    free(h_int);
    free(h_intRef);
    free(h_intOut);

    printf("surf_writeback: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
