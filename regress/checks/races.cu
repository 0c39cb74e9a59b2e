// Classic races and their corrected forms, for --racecheck (regress/CMakeLists.txt runs them: the
// corrected kernels must give no report, each mistake its own). Built with: nvcc -ptx
// -arch=compute_75 -lineinfo races.cu (the PTX is committed beside this file).

// A tree reduction in shared memory that forgot the barrier inside its loop.
extern "C" __global__ void reduce_missing_sync(const float* in, float* out) {
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_ok(const float* in, float* out) {
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Each thread reads its neighbour's shared value, before the barrier that would make it ready.
extern "C" __global__ void neighbour_early(const float* in, float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    out[i] = s[(t + 1) % blockDim.x];
}

extern "C" __global__ void neighbour_ok(const float* in, float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[(t + 1) % blockDim.x];
}

// Block 0 zeroes the bins while the other blocks already add to them.
extern "C" __global__ void histogram_zeroed_late(const unsigned* data, unsigned* bins, int bin_count) {
    if (blockIdx.x == 0 && threadIdx.x < bin_count) bins[threadIdx.x] = 0;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&bins[data[i] % bin_count], 1u);
}

// The bins are zeroed by the host before the launch; the kernel only adds.
extern "C" __global__ void histogram_ok(const unsigned* data, unsigned* bins, int bin_count) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&bins[data[i] % bin_count], 1u);
}

// threadFenceReduction's last-block pattern: each block writes its partial sum, and the block that
// finishes last adds them up. The fence makes each partial sum visible before the count says so.
__device__ void last_block_sum(const float* in, float* partial, unsigned* count, float* out, bool fence) {
    __shared__ float s[256];
    __shared__ bool last;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        if (fence) __threadfence();
        last = atomicInc(count, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        float sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
        out[0] = sum;
    }
}

extern "C" __global__ void fence_reduction(const float* in, float* partial, unsigned* count, float* out) {
    last_block_sum(in, partial, count, out, true);
}

extern "C" __global__ void fence_reduction_unfenced(const float* in, float* partial, unsigned* count, float* out) {
    last_block_sum(in, partial, count, out, false);
}
