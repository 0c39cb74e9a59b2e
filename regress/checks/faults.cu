// Kernels that fault on purpose, one per kind of device fault the model names (regress/CMakeLists.txt
// runs each through faults_*.json and checks the report). Built with: nvcc -ptx -arch=compute_75
// -lineinfo faults.cu (the PTX is committed beside this file).
#include <cassert>

// Reads one element past the end: inside the allocation's last page, so a GPU does not notice;
// --memcheck does.
extern "C" __global__ void read_past_end(const float* a, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[i] = a[i];
}

// Far past the end of the buffer, in unmapped memory.
extern "C" __global__ void write_far(float* a, int offset) { a[offset + threadIdx.x] = 1.0f; }

// Before the start of the buffer.
extern "C" __global__ void write_before(float* a) { a[int(threadIdx.x) - 256] = 2.0f; }

// A 4-byte store at an address that is not a multiple of 4.
extern "C" __global__ void misaligned(int* a) { *reinterpret_cast<int*>(reinterpret_cast<char*>(a) + 2) = 1; }

// A null pointer from the host.
extern "C" __global__ void null_pointer(int* p) { p[threadIdx.x] = 3; }

// Recursion deep enough to run off the per-thread stack.
__device__ int depth(int n, volatile int* sink) {
    int frame[32];
    for (int k = 0; k < 32; ++k) frame[k] = n + k;
    sink[0] = frame[n & 31];
    return n == 0 ? 0 : depth(n - 1, sink) + frame[(n * 7) & 31];
}
extern "C" __global__ void deep_recursion(int n, int* out) { out[threadIdx.x] = depth(n, out); }

// A local array indexed far out of its range.
extern "C" __global__ void local_out_of_range(int i, int* out) {
    int buf[16];
    for (int k = 0; k < 16; ++k) buf[k] = k * out[k];
    buf[i] = 7;
    out[threadIdx.x] = buf[threadIdx.x & 15];
}

// A shared array indexed far out of its range.
extern "C" __global__ void shared_out_of_range(int i, int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = int(threadIdx.x);
    __syncthreads();
    s[i] = 1;
    out[threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void trap_kernel(int* out) {
    if (threadIdx.x == 5) asm volatile("trap;");
    out[threadIdx.x] = 1;
}

extern "C" __global__ void assert_kernel(const int* in) { assert(in[threadIdx.x] < 10); }
