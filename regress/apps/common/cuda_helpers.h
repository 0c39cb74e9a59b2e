// Helpers in the style most CUDA sample code carries around: an error-check macro that names the
// failing call, a device picker that ranks every GPU by its attributes, and small timers.
// Written for gpusim's corpus of real-world-style programs (regress/apps); device-specific facts
// (names, clocks, SM counts) go to stderr so that stdout is the same on any correct GPU.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

template <typename T>
void check_cuda(T result, const char* what, const char* file, int line) {
    if (result) {
        std::fprintf(stdout, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, static_cast<int>(result),
                     cudaGetErrorName(result), what);
        std::exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) check_cuda((val), #val, __FILE__, __LINE__)

inline void last_cuda_error(const char* msg, const char* file, int line) {
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        std::fprintf(stdout, "%s(%d) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line, msg,
                     static_cast<int>(err), cudaGetErrorString(err));
        std::exit(EXIT_FAILURE);
    }
}
#define getLastCudaError(msg) last_cuda_error(msg, __FILE__, __LINE__)

// CUDA cores per SM for a compute capability, as sample code tabulates it.
inline int cores_per_sm(int major, int minor) {
    struct Entry { int sm; int cores; };
    static const Entry table[] = {{0x10, 8},   {0x11, 8},   {0x12, 8},   {0x13, 8},  {0x20, 32}, {0x21, 48},
                                  {0x30, 192}, {0x35, 192}, {0x37, 192}, {0x50, 128}, {0x52, 128}, {0x60, 64},
                                  {0x61, 128}, {0x70, 64},  {0x75, 64},  {0x80, 64}, {0x86, 128}, {0x89, 128},
                                  {0x90, 128}, {0xa0, 128}, {0xc0, 128}, {-1, -1}};
    int key = (major << 4) + minor;
    for (int i = 0; table[i].sm != -1; ++i)
        if (table[i].sm == key) return table[i].cores;
    std::fprintf(stderr, "cores_per_sm: SM %d.%d is not in the table, assuming 128\n", major, minor);
    return 128;
}

// The device with the highest peak throughput, skipping prohibited ones, as samples pick it:
// everything comes from cudaDeviceGetAttribute.
inline int max_gflops_device() {
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (count == 0) {
        std::fprintf(stdout, "max_gflops_device: no devices supporting CUDA\n");
        std::exit(EXIT_FAILURE);
    }
    int best = -1;
    unsigned long long best_perf = 0;
    int prohibited = 0;
    for (int dev = 0; dev < count; ++dev) {
        int mode = 0, major = 0, minor = 0, sms = 0, clock_khz = 0;
        checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        cudaError_t e = cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev);
        if (e == cudaErrorInvalidValue) clock_khz = 1;   // some drivers no longer report it
        else checkCudaErrors(e);
        if (mode == cudaComputeModeProhibited) {
            ++prohibited;
            continue;
        }
        unsigned long long perf = (unsigned long long)sms * cores_per_sm(major, minor) * clock_khz;
        if (perf > best_perf || best < 0) {
            best_perf = perf;
            best = dev;
        }
    }
    if (prohibited == count) {
        std::fprintf(stdout, "max_gflops_device: all devices have compute mode prohibited\n");
        std::exit(EXIT_FAILURE);
    }
    return best;
}

// "-device=N" on the command line, or the fastest device. Prints the choice on stderr.
inline int findCudaDevice(int argc, char** argv) {
    int dev = -1;
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "-device=", 8) == 0) dev = std::atoi(argv[i] + 8);
    if (dev < 0) dev = max_gflops_device();
    checkCudaErrors(cudaSetDevice(dev));
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    std::fprintf(stderr, "GPU Device %d: \"%s\" with compute capability %d.%d\n", dev, prop.name, prop.major, prop.minor);
    return dev;
}

// A fixed-seed generator, so that inputs are the same on every machine (rand() is not).
struct Lcg {
    unsigned long long state;
    explicit Lcg(unsigned long long seed) : state(seed) {}
    unsigned next() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<unsigned>(state >> 33);
    }
    float uniform() { return (next() & 0xffffff) / 16777216.0f; }   // [0, 1)
    int below(int n) { return static_cast<int>(next() % static_cast<unsigned>(n)); }
};
