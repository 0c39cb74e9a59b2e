// All-pairs gravitational n-body (640 bodies, 2 leapfrog-style steps) in the style of NVIDIA's nbody
// sample, written as modern C++: float4 positions (w = mass), tiles of bodies staged in shared memory,
// rsqrtf with Plummer softening, a class with __device__ methods, RAII device arrays and templates.
// Checked against a double-precision CPU reference with a tolerance (rsqrtf is approximate).

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

namespace {

constexpr int kBodies = 640;       // 5 tiles of 128; ~640^2 interactions per step keeps the work small
constexpr int kBlockSize = 128;
constexpr int kSteps = 2;
constexpr float kSoftening2 = 0.01f;
constexpr float kDt = 0.005f;
constexpr float kDamping = 0.999f;

// Owns a device allocation; move-only.
template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(size_t n) : n_(n) { checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&ptr_), n * sizeof(T))); }
    ~DeviceArray() {
        if (ptr_) cudaFree(ptr_);
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& o) noexcept : ptr_(o.ptr_), n_(o.n_) { o.ptr_ = nullptr; }

    T* get() const { return ptr_; }
    size_t size() const { return n_; }
    void upload(const std::vector<T>& h) { checkCudaErrors(cudaMemcpy(ptr_, h.data(), n_ * sizeof(T), cudaMemcpyHostToDevice)); }
    std::vector<T> download() const {
        std::vector<T> h(n_);
        checkCudaErrors(cudaMemcpy(h.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
        return h;
    }

private:
    T* ptr_ = nullptr;
    size_t n_ = 0;
};

// The physics, usable from device code.
class Gravity {
public:
    __device__ __forceinline__ static float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj) {
        float3 r;
        r.x = bj.x - bi.x;
        r.y = bj.y - bi.y;
        r.z = bj.z - bi.z;
        float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + kSoftening2;
        float invDist = rsqrtf(distSqr);
        float invDistCube = invDist * invDist * invDist;
        float s = bj.w * invDistCube;
        ai.x += r.x * s;
        ai.y += r.y * s;
        ai.z += r.z * s;
        return ai;
    }

    template <int TILE>
    __device__ static float3 tileAcceleration(float4 myPos, const float4* sharedPos, float3 accel) {
#pragma unroll 8
        for (int j = 0; j < TILE; ++j) accel = bodyBodyInteraction(accel, myPos, sharedPos[j]);
        return accel;
    }
};

template <int BLOCK>
__global__ void integrateBodies(float4* __restrict__ newPos, float4* __restrict__ vel, const float4* __restrict__ oldPos,
                                int n, float dt, float damping) {
    __shared__ float4 shPos[BLOCK];
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    const float4 myPos = (i < n) ? oldPos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 acc = make_float3(0.f, 0.f, 0.f);

    const int numTiles = (n + BLOCK - 1) / BLOCK;
    for (int tile = 0; tile < numTiles; ++tile) {
        const int j = tile * BLOCK + threadIdx.x;
        // Bodies past the end get zero mass and contribute nothing.
        shPos[threadIdx.x] = (j < n) ? oldPos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        acc = Gravity::tileAcceleration<BLOCK>(myPos, shPos, acc);
        __syncthreads();
    }

    if (i < n) {
        float4 v = vel[i];
        v.x = (v.x + acc.x * dt) * damping;
        v.y = (v.y + acc.y * dt) * damping;
        v.z = (v.z + acc.z * dt) * damping;
        float4 p = myPos;
        p.x += v.x * dt;
        p.y += v.y * dt;
        p.z += v.z * dt;
        newPos[i] = p;
        vel[i] = v;
    }
}

struct HostBody {
    double p[3], v[3], m;
};

void cpuStep(std::vector<HostBody>& bodies, double dt, double damping) {
    const size_t n = bodies.size();
    std::vector<double> acc(3 * n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) {
            double r[3];
            for (int d = 0; d < 3; ++d) r[d] = bodies[j].p[d] - bodies[i].p[d];
            double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + kSoftening2;
            double inv = 1.0 / std::sqrt(d2);
            double s = bodies[j].m * inv * inv * inv;
            for (int d = 0; d < 3; ++d) acc[3 * i + d] += r[d] * s;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        for (int d = 0; d < 3; ++d) {
            bodies[i].v[d] = (bodies[i].v[d] + acc[3 * i + d] * dt) * damping;
            bodies[i].p[d] += bodies[i].v[d] * dt;
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::printf("nbody: %d bodies, %d steps, block size %d\n", kBodies, kSteps, kBlockSize);
    findCudaDevice(argc, argv);

    // Bodies in a unit-ish cube with a slow rotation.
    Lcg rng(1234567);
    std::vector<float4> hPos(kBodies), hVel(kBodies);
    for (int i = 0; i < kBodies; ++i) {
        float x = 2.0f * rng.uniform() - 1.0f;
        float y = 2.0f * rng.uniform() - 1.0f;
        float z = 2.0f * rng.uniform() - 1.0f;
        float m = 0.5f + rng.uniform();
        hPos[i] = make_float4(x, y, z, m / kBodies);
        hVel[i] = make_float4(-0.1f * y, 0.1f * x, 0.0f, 0.0f);
    }

    std::vector<HostBody> ref(kBodies);
    for (int i = 0; i < kBodies; ++i) {
        ref[i] = HostBody{{hPos[i].x, hPos[i].y, hPos[i].z}, {hVel[i].x, hVel[i].y, hVel[i].z}, hPos[i].w};
    }

    DeviceArray<float4> dPos[2] = {DeviceArray<float4>(kBodies), DeviceArray<float4>(kBodies)};
    DeviceArray<float4> dVel(kBodies);
    dPos[0].upload(hPos);
    dVel.upload(hVel);

    const int blocks = (kBodies + kBlockSize - 1) / kBlockSize;
    int cur = 0;
    for (int step = 0; step < kSteps; ++step) {
        integrateBodies<kBlockSize><<<blocks, kBlockSize>>>(dPos[1 - cur].get(), dVel.get(), dPos[cur].get(), kBodies, kDt,
                                                           kDamping);
        getLastCudaError("integrateBodies failed");
        cur = 1 - cur;
    }
    checkCudaErrors(cudaDeviceSynchronize());

    const std::vector<float4> gpuPos = dPos[cur].download();
    const std::vector<float4> gpuVel = dVel.download();

    for (int step = 0; step < kSteps; ++step) cpuStep(ref, kDt, kDamping);

    auto maxRelError = [&](auto getGpu, auto getRef) {
        double maxDiff = 0.0, maxMag = 0.0;
        for (int i = 0; i < kBodies; ++i) {
            for (int d = 0; d < 3; ++d) {
                double g = getGpu(i, d), r = getRef(i, d);
                maxDiff = std::fmax(maxDiff, std::fabs(g - r));
                maxMag = std::fmax(maxMag, std::fabs(r));
            }
        }
        return maxDiff / (maxMag > 0.0 ? maxMag : 1.0);
    };
    auto comp = [](const float4& f, int d) { return d == 0 ? f.x : (d == 1 ? f.y : f.z); };
    const double posErr = maxRelError([&](int i, int d) { return (double)comp(gpuPos[i], d); },
                                      [&](int i, int d) { return ref[i].p[d]; });
    const double velErr = maxRelError([&](int i, int d) { return (double)comp(gpuVel[i], d); },
                                      [&](int i, int d) { return ref[i].v[d]; });
    std::fprintf(stderr, "max relative error: positions %.3e, velocities %.3e\n", posErr, velErr);

    const bool posOk = posErr < 1e-4;
    const bool velOk = velErr < 1e-3;
    std::printf("positions match CPU reference (rel. error < 1e-4): %s\n", posOk ? "yes" : "no");
    std::printf("velocities match CPU reference (rel. error < 1e-3): %s\n", velOk ? "yes" : "no");
    const bool ok = posOk && velOk;
    std::printf("nbody: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
