// Modern C++ inside kernels, as application code (not samples) tends to write it: kernels templated
// over element types and functors, Vec3/Complex value classes with __host__ __device__ operators,
// constexpr functions, virtual dispatch on objects built in device memory with placement new,
// a __device__ function-pointer table, recursion, std::/cuda::std::numeric_limits, device lambdas,
// variadic folds, and RAII device buffers on the host. Every result is an integer compared exactly.

#include <cuda/std/limits>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define CUDA_CHECK(expr)                                                                                   \
    do {                                                                                                   \
        cudaError_t err_ = (expr);                                                                         \
        if (err_ != cudaSuccess)                                                                           \
            throw std::runtime_error(std::string(#expr) + " failed: " + cudaGetErrorString(err_));        \
    } while (0)

// ---------------------------------------------------------------------------------------------
// host-side RAII
// ---------------------------------------------------------------------------------------------
template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t n) : n_(n) { CUDA_CHECK(cudaMalloc(&ptr_, n * sizeof(T))); }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_(std::exchange(o.n_, 0)) {}

    T* get() const { return ptr_; }
    size_t size() const { return n_; }
    void upload(const std::vector<T>& host) {
        CUDA_CHECK(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        CUDA_CHECK(cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }

private:
    T* ptr_ = nullptr;
    size_t n_ = 0;
};

inline void sync_check(const char* what) {
    CUDA_CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

constexpr unsigned blocks_for(size_t n, unsigned block) { return static_cast<unsigned>((n + block - 1) / block); }

// ---------------------------------------------------------------------------------------------
// 1. kernels templated over element type and functor
// ---------------------------------------------------------------------------------------------
template <typename T, typename F>
__global__ void transform_kernel(const T* __restrict__ in, T* __restrict__ out, size_t n, F f) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(blockDim.x) * gridDim.x) out[i] = f(in[i]);
}

struct Plus {
    template <typename T>
    __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct Maximum {
    template <typename T>
    __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

template <typename T>
struct AffineMod {   // (a*x + b) mod m, all integral
    T a, b, m;
    __host__ __device__ T operator()(T x) const { return (a * x + b) % m; }
};

struct CollatzSteps {
    __host__ __device__ int operator()(int x) const {
        int steps = 0;
        long long v = x;
        while (v > 1 && steps < 200) {
            v = (v & 1) ? 3 * v + 1 : v / 2;
            ++steps;
        }
        return steps;
    }
};

// Block-wide reduction templated over the type, the operator and the block size.
template <typename T, typename Op, unsigned BLOCK>
__global__ void reduce_kernel(const T* in, T* partial, size_t n, Op op, T identity) {
    __shared__ T smem[BLOCK];
    T acc = identity;
    for (size_t i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += size_t(BLOCK) * gridDim.x) acc = op(acc, in[i]);
    smem[threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) smem[threadIdx.x] = op(smem[threadIdx.x], smem[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = smem[0];
}

template <typename T, typename Op>
T reduce_on_device(const std::vector<T>& host, Op op, T identity) {
    constexpr unsigned kBlock = 128;
    const unsigned grid = 8;
    DeviceBuffer<T> in(host);
    DeviceBuffer<T> partial(grid);
    reduce_kernel<T, Op, kBlock><<<grid, kBlock>>>(in.get(), partial.get(), host.size(), op, identity);
    sync_check("reduce_kernel");
    auto parts = partial.download();
    return std::accumulate(parts.begin(), parts.end(), identity, op);
}

// ---------------------------------------------------------------------------------------------
// 2. value classes with __host__ __device__ members and operators
// ---------------------------------------------------------------------------------------------
template <typename T>
struct Vec3 {
    T x, y, z;
    __host__ __device__ constexpr Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ constexpr Vec3(T x_, T y_, T z_) : x(x_), y(y_), z(z_) {}
    __host__ __device__ constexpr Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
    __host__ __device__ constexpr Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    __host__ __device__ constexpr Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
    __host__ __device__ constexpr Vec3 operator-() const { return {-x, -y, -z}; }
    __host__ __device__ Vec3& operator+=(const Vec3& o) {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __host__ __device__ constexpr T dot(const Vec3& o) const { return x * o.x + y * o.y + z * o.z; }
    __host__ __device__ constexpr Vec3 cross(const Vec3& o) const {
        return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x};
    }
    __host__ __device__ T& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
    __host__ __device__ constexpr bool operator==(const Vec3& o) const { return x == o.x && y == o.y && z == o.z; }
};
template <typename T>
__host__ __device__ constexpr Vec3<T> operator*(T s, const Vec3<T>& v) { return v * s; }

static_assert(Vec3<int>(1, 0, 0).cross(Vec3<int>(0, 1, 0)) == Vec3<int>(0, 0, 1), "x cross y is z");

template <typename T>
class Complex {
public:
    __host__ __device__ constexpr Complex(T re = T(), T im = T()) : re_(re), im_(im) {}
    __host__ __device__ constexpr T real() const { return re_; }
    __host__ __device__ constexpr T imag() const { return im_; }
    __host__ __device__ constexpr Complex operator+(const Complex& o) const { return {re_ + o.re_, im_ + o.im_}; }
    __host__ __device__ constexpr Complex operator*(const Complex& o) const {
        return {re_ * o.re_ - im_ * o.im_, re_ * o.im_ + im_ * o.re_};
    }
    __host__ __device__ Complex& operator*=(const Complex& o) { return *this = *this * o; }
    __host__ __device__ constexpr Complex conj() const { return {re_, -im_}; }
    __host__ __device__ constexpr T norm2() const { return re_ * re_ + im_ * im_; }

private:
    T re_, im_;
};

struct VecResult {
    Vec3<int> v;
    int d;
};

__global__ void vec3_kernel(const Vec3<int>* a, const Vec3<int>* b, VecResult* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Vec3<int> p = a[i], q = b[i];
    Vec3<int> r = p.cross(q) + 2 * p - q;
    r += -Vec3<int>(1, 1, 1);
    int idx = i % 3;
    r[idx] = r[idx] * 3;
    out[i] = {r, p.dot(q) - r.dot(r) % 1000};
}

// (re + i im)^k with Gaussian integers, plus |z|^2k == |z^k|^2 as a self-check
__global__ void complex_power_kernel(const int* re, const int* im, const int* k, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    using C = Complex<long long>;
    C z(re[i], im[i]);
    C acc(1, 0);
    for (int e = 0; e < k[i]; ++e) acc *= z;
    long long nz = z.norm2(), p = 1;
    for (int e = 0; e < k[i]; ++e) p *= nz;
    out[3 * i + 0] = acc.real();
    out[3 * i + 1] = acc.imag();
    out[3 * i + 2] = (acc * acc.conj()).real() - p;   // zero
}

// ---------------------------------------------------------------------------------------------
// 3. constexpr functions shared by host and device
// ---------------------------------------------------------------------------------------------
__host__ __device__ constexpr unsigned long long factorial(unsigned n) { return n <= 1 ? 1ull : n * factorial(n - 1); }
__host__ __device__ constexpr int ipow(int base, unsigned e) {
    int r = 1;
    while (e--) r *= base;
    return r;
}
__host__ __device__ constexpr unsigned popcount_constexpr(unsigned v) { return v ? (v & 1u) + popcount_constexpr(v >> 1) : 0u; }

static_assert(factorial(10) == 3628800ull, "10!");
static_assert(ipow(3, 4) == 81, "3^4");
static_assert(popcount_constexpr(0xF0F0u) == 8, "popcount");

// a __constant__ table filled by constant evaluation
__constant__ unsigned long long c_factorials[13] = {factorial(0), factorial(1), factorial(2),  factorial(3),  factorial(4),
                                                     factorial(5), factorial(6), factorial(7),  factorial(8),  factorial(9),
                                                     factorial(10), factorial(11), factorial(12)};

__global__ void constexpr_kernel(unsigned long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = i % 13;
    constexpr unsigned long long f5 = factorial(5);   // folded at compile time
    out[i] = c_factorials[k] / factorial(k > 0 ? k - 1 : 0) + ipow(i % 7, i % 5) + popcount_constexpr(i) + f5;
}

// ---------------------------------------------------------------------------------------------
// 4. virtual functions on objects constructed in device memory
// ---------------------------------------------------------------------------------------------
class Shape {
public:
    __device__ virtual ~Shape() {}
    __device__ virtual long long twiceArea() const = 0;
    __device__ virtual int sides() const = 0;
    __device__ virtual int kind() const { return 0; }
    __device__ long long describe() const { return twiceArea() * 100 + sides() * 10 + kind(); }   // non-virtual
};

class Rect : public Shape {
public:
    __device__ Rect(int w, int h) : w_(w), h_(h) {}
    __device__ long long twiceArea() const override { return 2ll * w_ * h_; }
    __device__ int sides() const override { return 4; }
    __device__ int kind() const override { return 1; }

protected:
    int w_, h_;
};

class Square final : public Rect {
public:
    __device__ explicit Square(int s) : Rect(s, s) {}
    __device__ int kind() const override { return 2; }
};

class Triangle : public Shape {
public:
    __device__ Triangle(int base, int height) : b_(base), h_(height) {}
    __device__ long long twiceArea() const override { return 1ll * b_ * h_; }
    __device__ int sides() const override { return 3; }

private:
    int b_, h_;
};

class RegularPolygonApprox : public Shape {   // twice the area of an n-gon from a fan of triangles
public:
    __device__ RegularPolygonApprox(int n, int apothem2) : n_(n), a2_(apothem2) {}
    __device__ long long twiceArea() const override { return 1ll * n_ * a2_; }
    __device__ int sides() const override { return n_; }
    __device__ int kind() const override { return 3; }

private:
    int n_, a2_;
};

template <typename... Ts>
constexpr size_t max_sizeof() {
    size_t s = 0;
    ((s = sizeof(Ts) > s ? sizeof(Ts) : s), ...);
    return s;
}
constexpr size_t kShapeSlot = (max_sizeof<Rect, Square, Triangle, RegularPolygonApprox>() + 15) / 16 * 16;

__global__ void build_shapes(unsigned char* storage, Shape** shapes, const int* params, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    void* slot = storage + size_t(i) * kShapeSlot;
    int a = params[2 * i], b = params[2 * i + 1];
    Shape* s = nullptr;
    switch (i % 4) {
        case 0: s = new (slot) Rect(a, b); break;
        case 1: s = new (slot) Square(a); break;
        case 2: s = new (slot) Triangle(a, b); break;
        default: s = new (slot) RegularPolygonApprox(5 + a % 4, b); break;
    }
    shapes[i] = s;
}

__global__ void use_shapes(Shape* const* shapes, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // neighbours in a warp hit different overrides: divergent indirect calls
    const Shape* s = shapes[(i * 7) % n];
    out[i] = s->describe();
}

__global__ void destroy_shapes(Shape** shapes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    shapes[i]->~Shape();
    shapes[i] = nullptr;
}

// ---------------------------------------------------------------------------------------------
// 5. function pointers: a table in __device__ memory and a pointer fetched by the host
// ---------------------------------------------------------------------------------------------
using BinOp = int (*)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
__device__ int op_max(int a, int b) { return a > b ? a : b; }

__device__ BinOp d_op_table[4] = {op_add, op_sub, op_mul, op_xor};
__device__ BinOp d_selected_op = op_max;   // read back by the host as in the FunctionPointers sample

__global__ void apply_table(const int* a, const int* b, const int* code, int* out, int n, BinOp extra) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = d_op_table[code[i] & 3](a[i], b[i]);
    out[i] = extra(r, a[i]);
}

// ---------------------------------------------------------------------------------------------
// 6. recursion
// ---------------------------------------------------------------------------------------------
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int gcd_rec(int a, int b) { return b == 0 ? a : gcd_rec(b, a % b); }
__device__ __noinline__ int ackermann_small(int m, int n) {   // m <= 2 keeps the depth small
    if (m == 0) return n + 1;
    if (n == 0) return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

__global__ void recursion_kernel(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i + 0] = fib(i % 13);
    out[3 * i + 1] = gcd_rec(1071 + 17 * i, 462 + 3 * i);
    out[3 * i + 2] = ackermann_small(i % 3, i % 5);
}

// ---------------------------------------------------------------------------------------------
// 7. numeric limits, lambdas and folds in device code
// ---------------------------------------------------------------------------------------------
// std::numeric_limits' member functions are constexpr __host__ only, so device code takes their
// values through namespace-scope constants, uses the static data members directly, and calls
// cuda::std::numeric_limits (libcu++) where it needs the functions.
constexpr int kIntMax = std::numeric_limits<int>::max();
constexpr int kIntMin = std::numeric_limits<int>::min();
constexpr float kFloatInf = std::numeric_limits<float>::infinity();

template <typename T>
__device__ T saturating_add(T a, T b) {
    using L = cuda::std::numeric_limits<T>;
    if (b > 0 && a > L::max() - b) return L::max();
    if constexpr (L::is_signed) {
        if (b < 0 && a < L::lowest() - b) return L::lowest();
    }
    return static_cast<T>(a + b);
}

template <typename... Ts>
__device__ constexpr auto sum_all(Ts... xs) { return (xs + ... + 0); }

template <typename F>
__device__ int apply_twice(F f, int v) { return f(f(v)); }

__global__ void limits_lambda_kernel(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    int s = saturating_add(x, y);
    unsigned short us = saturating_add<unsigned short>(static_cast<unsigned short>(x & 0xFFFF),
                                                       static_cast<unsigned short>(y & 0xFFFF));
    int wide = (x == kIntMax || x == kIntMin) ? -1 : 1;
    float inf_check = (__int_as_float(0x7f800000) == kFloatInf) ? 1.0f : 0.0f;
    int digits = std::numeric_limits<unsigned char>::digits + std::numeric_limits<int>::is_signed;   // 8 + 1

    int bias = i & 15;
    auto add_bias = [bias](int v) { return v + bias; };            // capture by value
    auto mix = [&](auto p, auto q) { return (p ^ q) + add_bias(0); };   // generic, by reference
    int l = apply_twice([](int v) { return v * 3 + 1; }, x & 1023);

    out[6 * i + 0] = s;
    out[6 * i + 1] = us;
    out[6 * i + 2] = wide * static_cast<int>(inf_check) * digits;
    out[6 * i + 3] = mix(x & 0xFFF, y & 0xFFF);
    out[6 * i + 4] = l;
    out[6 * i + 5] = sum_all(bias, 2, 3L, static_cast<short>(4));
}

// ---------------------------------------------------------------------------------------------
// host side
// ---------------------------------------------------------------------------------------------
struct Rng {   // xorshift64*
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint32_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return static_cast<uint32_t>((s * 0x2545F4914F6CDD1Dull) >> 32);
    }
    int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint32_t>(hi - lo + 1)); }
};

static int failures = 0;
static void report(const char* what, bool ok) {
    std::printf("%-52s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) ++failures;
}

// host mirrors of the device-only helpers
static int fib_h(int n) { return n < 2 ? n : fib_h(n - 1) + fib_h(n - 2); }
static int gcd_h(int a, int b) { return b == 0 ? a : gcd_h(b, a % b); }
static int ack_h(int m, int n) { return m == 0 ? n + 1 : (n == 0 ? ack_h(m - 1, 1) : ack_h(m - 1, ack_h(m, n - 1))); }

int main() {
    try {
        int dev = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        cudaDeviceProp prop{};
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        std::fprintf(stderr, "device %d: %s, cc %d.%d\n", dev, prop.name, prop.major, prop.minor);
        std::printf("cpp_kernels: modern C++ device code\n");

        Rng rng(0xC0FFEE);
        constexpr int N = 2048;
        constexpr unsigned kBlock = 128;

        // 1. templated transforms and reductions
        {
            std::vector<int> in(N);
            std::generate(in.begin(), in.end(), [&] { return rng.range(1, 5000); });
            DeviceBuffer<int> d_in(in), d_out(N);
            AffineMod<int> affine{37, 11, 1009};
            transform_kernel<<<8, kBlock>>>(d_in.get(), d_out.get(), in.size(), affine);
            sync_check("transform AffineMod");
            auto got = d_out.download();
            std::vector<int> want(N);
            std::transform(in.begin(), in.end(), want.begin(), affine);
            report("transform<int, AffineMod>", got == want);

            transform_kernel<<<blocks_for(N, kBlock), kBlock>>>(d_in.get(), d_out.get(), in.size(), CollatzSteps{});
            sync_check("transform Collatz");
            got = d_out.download();
            std::transform(in.begin(), in.end(), want.begin(), CollatzSteps{});
            report("transform<int, CollatzSteps>", got == want);
            long long steps = std::accumulate(got.begin(), got.end(), 0ll);
            std::printf("  total Collatz steps: %lld\n", steps);

            std::vector<long long> big(N);
            std::transform(in.begin(), in.end(), big.begin(), [](int v) { return 1000003ll * v; });
            long long gsum = reduce_on_device(big, Plus{}, 0ll);
            long long hsum = std::accumulate(big.begin(), big.end(), 0ll);
            int gmax = reduce_on_device(in, Maximum{}, cuda::std::numeric_limits<int>::lowest());
            int hmax = *std::max_element(in.begin(), in.end());
            unsigned gumax = reduce_on_device(std::vector<unsigned>(in.begin(), in.end()), Maximum{}, 0u);
            std::printf("  reduce<long long, Plus> = %lld, reduce<int, Maximum> = %d\n", gsum, gmax);
            report("reduce_kernel<T, Op, 128> (3 instantiations)", gsum == hsum && gmax == hmax && gumax == (unsigned)hmax);
        }

        // 2. Vec3 and Complex
        {
            std::vector<Vec3<int>> a(N), b(N);
            for (int i = 0; i < N; ++i) {
                a[i] = {rng.range(-50, 50), rng.range(-50, 50), rng.range(-50, 50)};
                b[i] = {rng.range(-50, 50), rng.range(-50, 50), rng.range(-50, 50)};
            }
            DeviceBuffer<Vec3<int>> da(a), db(b);
            DeviceBuffer<VecResult> dout(N);
            vec3_kernel<<<blocks_for(N, kBlock), kBlock>>>(da.get(), db.get(), dout.get(), N);
            sync_check("vec3_kernel");
            auto got = dout.download();
            bool ok = true;
            long long check = 0;
            for (int i = 0; i < N; ++i) {
                Vec3<int> r = a[i].cross(b[i]) + 2 * a[i] - b[i];
                r += -Vec3<int>(1, 1, 1);
                r[i % 3] *= 3;
                int d = a[i].dot(b[i]) - r.dot(r) % 1000;
                ok = ok && got[i].v == r && got[i].d == d;
                check += got[i].v.x * 3 + got[i].v.y * 5 + got[i].v.z * 7 + got[i].d;
            }
            std::printf("  Vec3 checksum: %lld\n", check);
            report("Vec3<int> operators (cross, dot, +=, [], unary -)", ok);

            constexpr int M = 512;
            std::vector<int> re(M), im(M), k(M);
            for (int i = 0; i < M; ++i) {
                re[i] = rng.range(-9, 9);
                im[i] = rng.range(-9, 9);
                k[i] = rng.range(0, 8);
            }
            DeviceBuffer<int> dre(re), dim_(im), dk(k);
            DeviceBuffer<long long> dpow(3 * M);
            complex_power_kernel<<<blocks_for(M, kBlock), kBlock>>>(dre.get(), dim_.get(), dk.get(), dpow.get(), M);
            sync_check("complex_power_kernel");
            auto pw = dpow.download();
            ok = true;
            long long csum = 0;
            for (int i = 0; i < M; ++i) {
                Complex<long long> z(re[i], im[i]), acc(1, 0);
                for (int e = 0; e < k[i]; ++e) acc *= z;
                ok = ok && pw[3 * i] == acc.real() && pw[3 * i + 1] == acc.imag() && pw[3 * i + 2] == 0;
                csum += pw[3 * i] - 3 * pw[3 * i + 1];
            }
            std::printf("  Gaussian integer powers checksum: %lld\n", csum);
            report("Complex<long long> powers and conjugates", ok);
        }

        // 3. constexpr
        {
            DeviceBuffer<unsigned long long> dout(N);
            constexpr_kernel<<<blocks_for(N, kBlock), kBlock>>>(dout.get(), N);
            sync_check("constexpr_kernel");
            auto got = dout.download();
            bool ok = true;
            for (int i = 0; i < N; ++i) {
                unsigned k = i % 13;
                unsigned long long want =
                    factorial(k) / factorial(k > 0 ? k - 1 : 0) + ipow(i % 7, i % 5) + popcount_constexpr(i) + factorial(5);
                ok = ok && got[i] == want;
            }
            report("constexpr functions and a constant-evaluated table", ok);
        }

        // 4. virtual dispatch
        {
            constexpr int S = 1024;
            std::vector<int> params(2 * S);
            for (auto& p : params) p = rng.range(1, 40);
            DeviceBuffer<int> dparams(params);
            DeviceBuffer<unsigned char> storage(S * kShapeSlot);
            DeviceBuffer<Shape*> shapes(S);
            DeviceBuffer<long long> dout(S);
            build_shapes<<<blocks_for(S, kBlock), kBlock>>>(storage.get(), shapes.get(), dparams.get(), S);
            sync_check("build_shapes");
            use_shapes<<<blocks_for(S, kBlock), kBlock>>>(shapes.get(), dout.get(), S);
            sync_check("use_shapes");
            destroy_shapes<<<blocks_for(S, kBlock), kBlock>>>(shapes.get(), S);
            sync_check("destroy_shapes");
            auto got = dout.download();
            bool ok = true;
            long long total = 0;
            for (int i = 0; i < S; ++i) {
                int j = (i * 7) % S;
                int a = params[2 * j], b = params[2 * j + 1];
                long long area2 = 0;
                int sides = 0, kind = 0;
                switch (j % 4) {
                    case 0: area2 = 2ll * a * b; sides = 4; kind = 1; break;
                    case 1: area2 = 2ll * a * a; sides = 4; kind = 2; break;
                    case 2: area2 = 1ll * a * b; sides = 3; kind = 0; break;
                    default: sides = 5 + a % 4; area2 = 1ll * sides * b; kind = 3; break;
                }
                ok = ok && got[i] == area2 * 100 + sides * 10 + kind;
                total += got[i];
            }
            auto ptrs = shapes.download();
            bool cleared = std::all_of(ptrs.begin(), ptrs.end(), [](Shape* p) { return p == nullptr; });
            std::printf("  virtual describe() total: %lld\n", total);
            report("virtual calls on placement-new objects", ok && cleared);
        }

        // 5. function pointers
        {
            std::vector<int> a(N), b(N), code(N);
            for (int i = 0; i < N; ++i) {
                a[i] = rng.range(-1000, 1000);
                b[i] = rng.range(-1000, 1000);
                code[i] = static_cast<int>(rng.next() & 3);
            }
            BinOp h_max = nullptr;
            CUDA_CHECK(cudaMemcpyFromSymbol(&h_max, d_selected_op, sizeof(BinOp)));
            DeviceBuffer<int> da(a), db(b), dc(code), dout(N);
            apply_table<<<blocks_for(N, kBlock), kBlock>>>(da.get(), db.get(), dc.get(), dout.get(), N, h_max);
            sync_check("apply_table");
            auto got = dout.download();
            bool ok = true;
            for (int i = 0; i < N; ++i) {
                int r = 0;
                switch (code[i]) {
                    case 0: r = a[i] + b[i]; break;
                    case 1: r = a[i] - b[i]; break;
                    case 2: r = a[i] * b[i]; break;
                    default: r = a[i] ^ b[i]; break;
                }
                ok = ok && got[i] == std::max(r, a[i]);
            }
            report("__device__ function-pointer table + host-fetched pointer", ok);
        }

        // 6. recursion
        {
            constexpr int R = 256;
            DeviceBuffer<int> dout(3 * R);
            recursion_kernel<<<blocks_for(R, 64), 64>>>(dout.get(), R);
            sync_check("recursion_kernel");
            auto got = dout.download();
            bool ok = true;
            for (int i = 0; i < R; ++i)
                ok = ok && got[3 * i] == fib_h(i % 13) && got[3 * i + 1] == gcd_h(1071 + 17 * i, 462 + 3 * i) &&
                     got[3 * i + 2] == ack_h(i % 3, i % 5);
            std::printf("  fib(12) = %d, ackermann(2, 4) = %d\n", got[3 * 12], got[3 * 14 + 2]);
            report("recursive device functions (fib, gcd, ackermann)", ok);
        }

        // 7. limits, lambdas, folds
        {
            std::vector<int> a(N), b(N);
            for (int i = 0; i < N; ++i) {
                a[i] = static_cast<int>(rng.next());
                b[i] = static_cast<int>(rng.next());
            }
            a[0] = kIntMax;
            b[0] = 5;
            a[1] = kIntMin;
            b[1] = -5;
            a[2] = 0xFFFF;
            b[2] = 0x0002;
            DeviceBuffer<int> da(a), db(b), dout(6 * N);
            limits_lambda_kernel<<<blocks_for(N, kBlock), kBlock>>>(da.get(), db.get(), dout.get(), N);
            sync_check("limits_lambda_kernel");
            auto got = dout.download();
            auto sat = [](long long v, long long lo, long long hi) { return v < lo ? lo : (v > hi ? hi : v); };
            bool ok = true;
            for (int i = 0; i < N; ++i) {
                int x = a[i], y = b[i];
                int s = static_cast<int>(sat(1ll * x + y, kIntMin, kIntMax));
                int us = static_cast<int>(sat((x & 0xFFFF) + (y & 0xFFFF), 0, 0xFFFF));
                int wide = (x == kIntMax || x == kIntMin) ? -1 : 1;
                int bias = i & 15;
                auto f = [](int v) { return v * 3 + 1; };
                int want[6] = {s, us, wide * 9, ((x & 0xFFF) ^ (y & 0xFFF)) + bias, f(f(x & 1023)), bias + 9};
                for (int j = 0; j < 6; ++j) ok = ok && got[6 * i + j] == want[j];
            }
            std::printf("  saturating_add(INT_MAX, 5) = %d, saturating_add(INT_MIN, -5) = %d, u16 0xffff+2 = %d\n", got[0],
                        got[6], got[12 + 1]);
            report("numeric_limits, device lambdas, fold expressions", ok);
        }
    } catch (const std::exception& e) {
        std::printf("exception: %s\n", e.what());
        return EXIT_FAILURE;
    }

    std::printf("cpp_kernels: %s\n", failures == 0 ? "PASSED" : "FAILED");
    return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
