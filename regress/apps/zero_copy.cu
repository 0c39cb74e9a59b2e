/*
 * zero_copy: a vector add whose kernel reads and writes host memory directly, in the style of the
 * simpleZeroCopy sample: canMapHostMemory check, cudaSetDeviceFlags(cudaDeviceMapHost), mapped
 * cudaHostAlloc buffers and cudaHostGetDevicePointer, then malloc'd memory aligned by hand and pinned with
 * cudaHostRegister(cudaHostRegisterMapped); cudaHostGetFlags on both kinds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <cuda_runtime.h>

#define NELEM (1 << 16)
#define BLOCK_SIZE 256
#define MEMORY_ALIGNMENT 4096
#define ALIGN_UP(x, size) (((size_t)(x) + ((size) - 1)) & (~((size_t)(size) - 1)))

#define CUDA_SAFE_CALL(call)                                                                              \
    do {                                                                                                  \
        cudaError_t err = (call);                                                                         \
        if (err != cudaSuccess) {                                                                         \
            printf("Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
            exit(EXIT_FAILURE);                                                                           \
        }                                                                                                 \
    } while (0)

/* host arrays, C style */
static float *a_h, *b_h, *c_h;      /* cudaHostAlloc'd, mapped */
static float *a_d, *b_d, *c_d;      /* their device aliases */
static unsigned int lcg_state = 12345u;

static float next_value(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)(lcg_state >> 8) / (float)(1 << 24);
}

__global__ void vectorAddGPU(const float *a, const float *b, float *c, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) c[idx] = a[idx] + b[idx];
}

static int check_sum(const float *a, const float *b, const float *c, int n) {
    int errors = 0, i;
    for (i = 0; i < n; i++) {
        float ref = a[i] + b[i];
        if (c[i] != ref) errors++;
    }
    return errors;
}

int main(void) {
    int device_count = 0, idev = 0, i, errors, ok = 1;
    size_t nbytes = NELEM * sizeof(float);
    unsigned int flags = 0;
    cudaDeviceProp deviceProp;

    printf("zero_copy: starting\n");
    CUDA_SAFE_CALL(cudaGetDeviceCount(&device_count));
    if (device_count < 1) {
        printf("no CUDA device\n");
        exit(EXIT_FAILURE);
    }
    CUDA_SAFE_CALL(cudaSetDevice(idev));
    CUDA_SAFE_CALL(cudaGetDeviceProperties(&deviceProp, idev));
    fprintf(stderr, "device %d: %s\n", idev, deviceProp.name);
    if (!deviceProp.canMapHostMemory) {
        printf("Device %d does not support mapping CPU host memory!\n", idev);
        exit(EXIT_FAILURE);
    }
    printf("device can map host memory: yes\n");
    CUDA_SAFE_CALL(cudaSetDeviceFlags(cudaDeviceMapHost));
    CUDA_SAFE_CALL(cudaGetDeviceFlags(&flags));
    printf("cudaDeviceMapHost set in the device flags: %s\n", (flags & cudaDeviceMapHost) ? "yes" : "no");

    /* part 1: cudaHostAlloc'd, mapped buffers */
    CUDA_SAFE_CALL(cudaHostAlloc((void **)&a_h, nbytes, cudaHostAllocMapped));
    CUDA_SAFE_CALL(cudaHostAlloc((void **)&b_h, nbytes, cudaHostAllocMapped | cudaHostAllocWriteCombined));
    CUDA_SAFE_CALL(cudaHostAlloc((void **)&c_h, nbytes, cudaHostAllocMapped | cudaHostAllocPortable));
    for (i = 0; i < NELEM; i++) {
        a_h[i] = next_value();
        b_h[i] = next_value();
        c_h[i] = -1.0f;
    }
    CUDA_SAFE_CALL(cudaHostGetDevicePointer((void **)&a_d, (void *)a_h, 0));
    CUDA_SAFE_CALL(cudaHostGetDevicePointer((void **)&b_d, (void *)b_h, 0));
    CUDA_SAFE_CALL(cudaHostGetDevicePointer((void **)&c_d, (void *)c_h, 0));

    dim3 block(BLOCK_SIZE);
    dim3 grid((unsigned)((NELEM + BLOCK_SIZE - 1) / BLOCK_SIZE));
    vectorAddGPU<<<grid, block>>>(a_d, b_d, c_d, NELEM);
    CUDA_SAFE_CALL(cudaGetLastError());
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    errors = check_sum(a_h, b_h, c_h, NELEM);
    printf("cudaHostAlloc mapped buffers: %d elements, %d errors\n", NELEM, errors);
    if (errors) ok = 0;

    CUDA_SAFE_CALL(cudaHostGetFlags(&flags, a_h));
    printf("cudaHostGetFlags(a, cudaHostAllocMapped) = 0x%x\n", flags);
    printf("a: mapped flag reported: %s\n", (flags & cudaHostAllocMapped) ? "yes" : "no");
    if (!(flags & cudaHostAllocMapped)) ok = 0;
    CUDA_SAFE_CALL(cudaHostGetFlags(&flags, b_h));
    printf("cudaHostGetFlags(b, cudaHostAllocMapped | cudaHostAllocWriteCombined) = 0x%x\n", flags);
    printf("b: mapped and write-combined flags reported: %s\n",
           ((flags & cudaHostAllocMapped) && (flags & cudaHostAllocWriteCombined)) ? "yes" : "no");
    if (!(flags & cudaHostAllocMapped) || !(flags & cudaHostAllocWriteCombined)) ok = 0;
    CUDA_SAFE_CALL(cudaHostGetFlags(&flags, c_h));
    /* CUDA 13 (driver 580) reports 0x2 here: the portable bit is not echoed back, so only mapped is required */
    printf("cudaHostGetFlags(c, cudaHostAllocMapped | cudaHostAllocPortable) = 0x%x\n", flags);
    printf("c: mapped flag reported: %s\n", (flags & cudaHostAllocMapped) ? "yes" : "no");
    if (!(flags & cudaHostAllocMapped)) ok = 0;

    /* part 2: malloc'd memory, aligned up to a page by hand, then registered and mapped */
    char *a_raw = (char *)malloc(nbytes + MEMORY_ALIGNMENT);
    char *b_raw = (char *)malloc(nbytes + MEMORY_ALIGNMENT);
    char *c_raw = (char *)malloc(nbytes + MEMORY_ALIGNMENT);
    float *a_reg = (float *)ALIGN_UP(a_raw, MEMORY_ALIGNMENT);
    float *b_reg = (float *)ALIGN_UP(b_raw, MEMORY_ALIGNMENT);
    float *c_reg = (float *)ALIGN_UP(c_raw, MEMORY_ALIGNMENT);
    for (i = 0; i < NELEM; i++) {
        a_reg[i] = next_value();
        b_reg[i] = next_value();
        c_reg[i] = -1.0f;
    }
    CUDA_SAFE_CALL(cudaHostRegister(a_reg, nbytes, cudaHostRegisterMapped));
    CUDA_SAFE_CALL(cudaHostRegister(b_reg, nbytes, cudaHostRegisterMapped));
    CUDA_SAFE_CALL(cudaHostRegister(c_reg, nbytes, cudaHostRegisterMapped));
    float *a_rd, *b_rd, *c_rd;
    CUDA_SAFE_CALL(cudaHostGetDevicePointer((void **)&a_rd, (void *)a_reg, 0));
    CUDA_SAFE_CALL(cudaHostGetDevicePointer((void **)&b_rd, (void *)b_reg, 0));
    CUDA_SAFE_CALL(cudaHostGetDevicePointer((void **)&c_rd, (void *)c_reg, 0));
    vectorAddGPU<<<grid, block>>>(a_rd, b_rd, c_rd, NELEM);
    CUDA_SAFE_CALL(cudaGetLastError());
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    errors = check_sum(a_reg, b_reg, c_reg, NELEM);
    printf("cudaHostRegister mapped buffers: %d elements, %d errors\n", NELEM, errors);
    if (errors) ok = 0;
    CUDA_SAFE_CALL(cudaHostGetFlags(&flags, c_reg));
    printf("cudaHostGetFlags(registered c, cudaHostRegisterMapped) = 0x%x\n", flags);
    printf("registered c: mapped flag reported: %s\n", (flags & cudaHostRegisterMapped) ? "yes" : "no");
    if (!(flags & cudaHostRegisterMapped)) ok = 0;

    /* mixed: a registered input, a cudaHostAlloc'd input and output */
    vectorAddGPU<<<grid, block>>>(a_rd, b_d, c_d, NELEM);
    CUDA_SAFE_CALL(cudaGetLastError());
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    errors = check_sum(a_reg, b_h, c_h, NELEM);
    printf("registered + allocated buffers: %d elements, %d errors\n", NELEM, errors);
    if (errors) ok = 0;

    CUDA_SAFE_CALL(cudaHostUnregister(a_reg));
    CUDA_SAFE_CALL(cudaHostUnregister(b_reg));
    CUDA_SAFE_CALL(cudaHostUnregister(c_reg));
    free(a_raw);
    free(b_raw);
    free(c_raw);
    CUDA_SAFE_CALL(cudaFreeHost(a_h));
    CUDA_SAFE_CALL(cudaFreeHost(b_h));
    CUDA_SAFE_CALL(cudaFreeHost(c_h));

    printf("zero_copy: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
