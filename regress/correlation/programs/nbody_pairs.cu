// nbody_pairs.cu -- all-pairs gravitational n-body in the style of NVIDIA's CUDA samples (nbody):
// float4 bodies (xyz = position, w = mass), tiles of bodies staged in shared memory, rsqrtf with
// Plummer softening, a separate integration kernel. 4096 bodies, two time steps.
//
// Kernels:
//   body_forces       one thread per body; the block loads 128 bodies at a time into shared memory
//                     and every thread accumulates their pull (LDS.128 broadcast, FMA chains and
//                     one rsqrtf per pair): compute bound, but only 32 blocks of 128 threads for
//                     the chip's 132 SMs. 2 launches.
//   integrate_bodies  semi-implicit Euler with damping over float4 arrays through a grid-stride
//                     loop, launched as a single block of 64 threads: an under-filled,
//                     memory-latency-bound launch (64 round trips to memory per thread). 2 launches.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

namespace {

constexpr int kBodies = 4096;
constexpr int kTile = 128;            // bodies per shared tile = threads per block of body_forces
constexpr int kSteps = 2;
constexpr int kIntegrateThreads = 64;  // integrate_bodies runs as one block of two warps
constexpr float kSoftening2 = 0.01f;
constexpr float kDt = 0.01f;
constexpr float kDamping = 0.995f;

static_assert(kBodies % kTile == 0, "the bodies must fill the tiles");

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            std::printf("nbody_pairs: %s failed at line %d: %s\n", #call, __LINE__,       \
                        cudaGetErrorString(err_));                                         \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

void checkLaunch(const char* kernel)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        std::printf("nbody_pairs: kernel %s failed: %s\n", kernel, cudaGetErrorString(err));
        std::exit(1);
    }
}

class Lcg {
public:
    explicit Lcg(uint32_t seed) : state_(seed) {}
    float uniform(float lo, float hi)
    {
        state_ = state_ * 1664525u + 1013904223u;
        return lo + (hi - lo) * static_cast<float>(state_ >> 8) * (1.0f / 16777216.0f);
    }

private:
    uint32_t state_;
};

}  // namespace

// ------------------------------------------------------------------ device code
// (the kernels stay outside the anonymous namespace so that their names do not depend on the build)

static __device__ __forceinline__ float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj)
{
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

__global__ void body_forces(int n, const float4* __restrict__ pos, float4* __restrict__ accel)
{
    __shared__ float4 tile[kTile];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = pos[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);

    for (int base = 0; base < n; base += kTile) {
        tile[threadIdx.x] = pos[base + threadIdx.x];
        __syncthreads();
#pragma unroll 8
        for (int j = 0; j < kTile; ++j)
            acc = bodyBodyInteraction(acc, me, tile[j]);
        __syncthreads();
    }
    accel[i] = make_float4(acc.x, acc.y, acc.z, 0.0f);
}

__global__ void integrate_bodies(int n, float dt, float damping, float4* pos, float4* vel, const float4* accel)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float4 p = pos[i];
        float4 v = vel[i];
        float4 a = accel[i];
        v.x = (v.x + a.x * dt) * damping;
        v.y = (v.y + a.y * dt) * damping;
        v.z = (v.z + a.z * dt) * damping;
        p.x += v.x * dt;
        p.y += v.y * dt;
        p.z += v.z * dt;
        pos[i] = p;
        vel[i] = v;
    }
}

// ------------------------------------------------------------------ host reference

namespace {

struct RefBody {
    double p[3], v[3], m;
};

// One step as the GPU does it; also returns, per body, the accelerations and the sum of the
// magnitudes of the pairwise terms (the scale of the rounding error of the GPU's sum).
void referenceStep(std::vector<RefBody>& b, std::vector<double>& acc, std::vector<double>& scale)
{
    const int n = static_cast<int>(b.size());
    for (int i = 0; i < n; ++i) {
        double a[3] = {0.0, 0.0, 0.0}, s = 0.0;
        for (int j = 0; j < n; ++j) {
            double r[3] = {b[j].p[0] - b[i].p[0], b[j].p[1] - b[i].p[1], b[j].p[2] - b[i].p[2]};
            double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + kSoftening2;
            double inv = 1.0 / std::sqrt(d2);
            double f = b[j].m * inv * inv * inv;
            for (int k = 0; k < 3; ++k) {
                a[k] += r[k] * f;
                s += std::fabs(r[k] * f);
            }
        }
        for (int k = 0; k < 3; ++k) acc[3 * i + k] = a[k];
        scale[i] = s;
    }
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            b[i].v[k] = (b[i].v[k] + acc[3 * i + k] * kDt) * kDamping;
            b[i].p[k] += b[i].v[k] * kDt;
        }
}

}  // namespace

int main()
{
    Lcg rng(777u);
    std::vector<float4> hPos(kBodies), hVel(kBodies);
    for (int i = 0; i < kBodies; ++i) {
        hPos[i] = make_float4(rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f),
                              rng.uniform(0.5f, 1.5f) / kBodies);
        hVel[i] = make_float4(rng.uniform(-0.1f, 0.1f), rng.uniform(-0.1f, 0.1f), rng.uniform(-0.1f, 0.1f), 0.0f);
    }

    const size_t bytes = kBodies * sizeof(float4);
    float4 *dPos, *dVel, *dAcc;
    CUDA_CHECK(cudaMalloc(&dPos, bytes));
    CUDA_CHECK(cudaMalloc(&dVel, bytes));
    CUDA_CHECK(cudaMalloc(&dAcc, bytes));
    CUDA_CHECK(cudaMemcpy(dPos, hPos.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dVel, hVel.data(), bytes, cudaMemcpyHostToDevice));

    for (int step = 0; step < kSteps; ++step) {
        body_forces<<<kBodies / kTile, kTile>>>(kBodies, dPos, dAcc);
        checkLaunch("body_forces");
        integrate_bodies<<<1, kIntegrateThreads>>>(kBodies, kDt, kDamping, dPos, dVel, dAcc);
        checkLaunch("integrate_bodies");
    }

    std::vector<float4> gPos(kBodies), gVel(kBodies), gAcc(kBodies);
    CUDA_CHECK(cudaMemcpy(gPos.data(), dPos, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gVel.data(), dVel, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gAcc.data(), dAcc, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dPos));
    CUDA_CHECK(cudaFree(dVel));
    CUDA_CHECK(cudaFree(dAcc));

    std::vector<RefBody> ref(kBodies);
    for (int i = 0; i < kBodies; ++i) {
        ref[i] = {{hPos[i].x, hPos[i].y, hPos[i].z}, {hVel[i].x, hVel[i].y, hVel[i].z}, hPos[i].w};
    }
    std::vector<double> acc(3 * kBodies), scale(kBodies);
    for (int step = 0; step < kSteps; ++step) referenceStep(ref, acc, scale);

    // The last step's accelerations: error relative to the sum of the magnitudes of the terms.
    // Positions and velocities after both steps: a small absolute error (they are O(1) and O(0.1)).
    int bad = 0;
    for (int i = 0; i < kBodies; ++i) {
        const float ga[3] = {gAcc[i].x, gAcc[i].y, gAcc[i].z};
        const float gp[3] = {gPos[i].x, gPos[i].y, gPos[i].z};
        const float gv[3] = {gVel[i].x, gVel[i].y, gVel[i].z};
        for (int k = 0; k < 3; ++k) {
            bool ok = std::fabs(ga[k] - acc[3 * i + k]) <= 1e-4 * scale[i] &&
                      std::fabs(gp[k] - ref[i].p[k]) <= 1e-5 && std::fabs(gv[k] - ref[i].v[k]) <= 1e-5;
            if (!ok) {
                if (bad < 5)
                    std::printf("nbody_pairs: body %d axis %d: accel %.7g (expected %.7g), pos %.7g (%.7g), "
                                "vel %.7g (%.7g)\n",
                                i, k, ga[k], acc[3 * i + k], gp[k], ref[i].p[k], gv[k], ref[i].v[k]);
                ++bad;
            }
        }
    }
    if (bad) {
        std::printf("nbody_pairs: %d values differ\nnbody_pairs: FAILED\n", bad);
        return 1;
    }
    std::printf("nbody_pairs: PASSED\n");
    return 0;
}
