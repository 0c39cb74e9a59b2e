// Sparse matrix-vector product y = A*x on a generated 2048 x 2048 CSR matrix (skewed row lengths,
// empty rows, one very long row), in modern C++ in the style of CUSP/"Efficient SpMV" code: a scalar
// kernel (one thread per row) and a vector kernel (one warp per row, __shfl_down_sync reduction),
// templated on value type and warp size, RAII device buffers, a stream, lambdas for checking.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "common/cuda_helpers.h"

namespace {

constexpr int kRows = 2048;
constexpr int kCols = 2048;
constexpr int kWarpSize = 32;
constexpr int kScalarBlock = 128;
constexpr int kVectorBlock = 256;   // 8 rows per block

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(const std::vector<T>& host) : count_(host.size()) {
        checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
        checkCudaErrors(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
    }
    explicit DeviceBuffer(size_t count) : count_(count) {
        checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
    }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), count_(other.count_) {
        other.data_ = nullptr;
        other.count_ = 0;
    }

    void reset() {
        if (data_) cudaFree(data_);
        data_ = nullptr;
        count_ = 0;
    }
    T* data() { return data_; }
    const T* data() const { return data_; }
    size_t bytes() const { return count_ * sizeof(T); }

    void fillZeroAsync(cudaStream_t s) { checkCudaErrors(cudaMemsetAsync(data_, 0, bytes(), s)); }
    std::vector<T> toHost(cudaStream_t s) const {
        std::vector<T> h(count_);
        checkCudaErrors(cudaMemcpyAsync(h.data(), data_, bytes(), cudaMemcpyDeviceToHost, s));
        checkCudaErrors(cudaStreamSynchronize(s));
        return h;
    }

private:
    T* data_ = nullptr;
    size_t count_ = 0;
};

class Stream {
public:
    Stream() { checkCudaErrors(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
    ~Stream() { cudaStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    operator cudaStream_t() const { return s_; }

private:
    cudaStream_t s_{};
};

template <typename T>
struct CsrMatrix {
    int rows = 0, cols = 0;
    std::vector<int> rowPtr, colIdx;
    std::vector<T> values;
    int nnz() const { return static_cast<int>(values.size()); }
};

template <typename T>
CsrMatrix<T> makeMatrix(int rows, int cols, Lcg& rng) {
    CsrMatrix<T> m;
    m.rows = rows;
    m.cols = cols;
    m.rowPtr.reserve(rows + 1);
    m.rowPtr.push_back(0);
    for (int r = 0; r < rows; ++r) {
        int len = rng.below(32);              // 0..31 entries, some rows empty
        if (r % 97 == 13) len = 0;            // a few guaranteed-empty rows
        if (r == 700) len = 600;              // one long row
        int col = rng.below(cols / 16);
        for (int k = 0; k < len && col < cols; ++k) {
            m.colIdx.push_back(col);
            m.values.push_back(static_cast<T>(2.0f * rng.uniform() - 1.0f));
            col += 1 + rng.below(len > 100 ? 3 : 120);
        }
        m.rowPtr.push_back(static_cast<int>(m.values.size()));
    }
    return m;
}

template <typename T>
__global__ void spmvCsrScalar(int rows, const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                              const T* __restrict__ values, const T* __restrict__ x, T* __restrict__ y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    T sum = T(0);
    const int end = rowPtr[row + 1];
    for (int j = rowPtr[row]; j < end; ++j) sum += values[j] * x[colIdx[j]];
    y[row] = sum;
}

template <typename T, int WARP>
__device__ __forceinline__ T warpReduceSum(T v) {
#pragma unroll
    for (int offset = WARP / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <typename T, int WARP>
__global__ void spmvCsrVector(int rows, const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                              const T* __restrict__ values, const T* __restrict__ x, T* __restrict__ y) {
    const int lane = threadIdx.x & (WARP - 1);
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;   // uniform across the warp
    if (row >= rows) return;

    const int begin = rowPtr[row];
    const int end = rowPtr[row + 1];
    T sum = T(0);
    for (int j = begin + lane; j < end; j += WARP) sum += values[j] * x[colIdx[j]];
    sum = warpReduceSum<T, WARP>(sum);
    if (lane == 0) y[row] = sum;
}

}  // namespace

int main(int argc, char** argv) {
    std::printf("spmv_csr: sparse matrix-vector multiply (CSR)\n");
    findCudaDevice(argc, argv);

    Lcg rng(777);
    const CsrMatrix<float> A = makeMatrix<float>(kRows, kCols, rng);
    std::vector<float> x(kCols);
    for (auto& v : x) v = 2.0f * rng.uniform() - 1.0f;

    int emptyRows = 0, longest = 0;
    for (int r = 0; r < A.rows; ++r) {
        const int len = A.rowPtr[r + 1] - A.rowPtr[r];
        emptyRows += (len == 0);
        longest = std::max(longest, len);
    }
    std::printf("matrix %d x %d, nnz = %d, empty rows = %d, longest row = %d\n", A.rows, A.cols, A.nnz(), emptyRows,
                longest);

    // CPU reference in double, plus the magnitude sum |a_ij * x_j| per row for a relative tolerance.
    std::vector<double> yRef(A.rows), yMag(A.rows);
    for (int r = 0; r < A.rows; ++r) {
        double s = 0.0, m = 0.0;
        for (int j = A.rowPtr[r]; j < A.rowPtr[r + 1]; ++j) {
            const double p = static_cast<double>(A.values[j]) * x[A.colIdx[j]];
            s += p;
            m += std::fabs(p);
        }
        yRef[r] = s;
        yMag[r] = m;
    }

    Stream stream;
    DeviceBuffer<int> dRowPtr(A.rowPtr), dColIdx(A.colIdx);
    DeviceBuffer<float> dValues(A.values), dX(x), dY(static_cast<size_t>(A.rows));

    auto check = [&](const std::string& name, const std::vector<float>& y) {
        double worst = 0.0;
        for (int r = 0; r < A.rows; ++r) {
            const double err = std::fabs(static_cast<double>(y[r]) - yRef[r]) / (yMag[r] + 1e-30);
            worst = std::max(worst, yMag[r] == 0.0 ? std::fabs(static_cast<double>(y[r])) : err);
        }
        std::fprintf(stderr, "%s: worst scaled error %.3e\n", name.c_str(), worst);
        const bool ok = worst < 1e-4;
        std::printf("%s kernel: scaled error below 1e-4: %s\n", name.c_str(), ok ? "yes" : "no");
        return ok;
    };

    // Scalar kernel.
    dY.fillZeroAsync(stream);
    {
        const int blocks = (A.rows + kScalarBlock - 1) / kScalarBlock;
        spmvCsrScalar<float><<<blocks, kScalarBlock, 0, stream>>>(A.rows, dRowPtr.data(), dColIdx.data(), dValues.data(),
                                                                  dX.data(), dY.data());
        getLastCudaError("spmvCsrScalar launch failed");
    }
    const bool scalarOk = check("scalar", dY.toHost(stream));

    // Vector kernel.
    dY.fillZeroAsync(stream);
    {
        constexpr int rowsPerBlock = kVectorBlock / kWarpSize;
        const int blocks = (A.rows + rowsPerBlock - 1) / rowsPerBlock;
        spmvCsrVector<float, kWarpSize><<<blocks, kVectorBlock, 0, stream>>>(A.rows, dRowPtr.data(), dColIdx.data(),
                                                                             dValues.data(), dX.data(), dY.data());
        getLastCudaError("spmvCsrVector launch failed");
    }
    const bool vectorOk = check("vector", dY.toHost(stream));

    const bool ok = scalarOk && vectorOk;
    std::printf("spmv_csr: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
