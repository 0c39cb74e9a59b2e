// Thrust as an application uses it: sort (CUB's radix sort, whose digit masks are bmsk), sort by
// key, stable sort of floats, reduce, inclusive and exclusive scan, transform, and a counting
// iterator, on device vectors of a few hundred thousand elements. Everything checks itself on the
// host and prints what any correct GPU prints.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

namespace {

uint32_t next(uint32_t& s) {   // xorshift: the same inputs on every machine
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

struct Square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

int check(const char* what, bool ok) {
    std::printf("%-28s %s\n", what, ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}

} // namespace

int main() {
    const int n = 300000;
    uint32_t seed = 12345;
    std::vector<uint32_t> keys(n);
    std::vector<int> values(n);
    std::vector<float> floats(n);
    for (int i = 0; i < n; ++i) {
        keys[i] = next(seed);
        values[i] = i;
        floats[i] = float(int(next(seed) % 20001) - 10000) / 16.0f;
    }
    int failures = 0;

    thrust::device_vector<uint32_t> d_keys(keys.begin(), keys.end());
    thrust::sort(d_keys.begin(), d_keys.end());
    std::vector<uint32_t> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    thrust::host_vector<uint32_t> h_keys = d_keys;
    failures += check("sort u32", std::equal(sorted.begin(), sorted.end(), h_keys.begin()));

    thrust::device_vector<uint32_t> k2(keys.begin(), keys.end());
    thrust::device_vector<int> v2(values.begin(), values.end());
    thrust::sort_by_key(k2.begin(), k2.end(), v2.begin());
    thrust::host_vector<uint32_t> hk2 = k2;
    thrust::host_vector<int> hv2 = v2;
    bool pairs_ok = std::equal(sorted.begin(), sorted.end(), hk2.begin());
    for (int i = 0; i < n && pairs_ok; ++i) pairs_ok = keys[hv2[i]] == hk2[i];
    failures += check("sort_by_key u32 -> int", pairs_ok);

    thrust::device_vector<float> d_floats(floats.begin(), floats.end());
    thrust::stable_sort(d_floats.begin(), d_floats.end(), thrust::greater<float>());
    std::vector<float> fs = floats;
    std::stable_sort(fs.begin(), fs.end(), std::greater<float>());
    thrust::host_vector<float> h_floats = d_floats;
    failures += check("stable_sort f32 descending", std::equal(fs.begin(), fs.end(), h_floats.begin()));

    thrust::device_vector<int> d_values(values.begin(), values.end());
    const long long sum = thrust::reduce(d_values.begin(), d_values.end(), 0LL);
    failures += check("reduce", sum == (long long)n * (n - 1) / 2);
    std::printf("sum of 0..%d = %lld\n", n - 1, sum);

    thrust::device_vector<int> scanned(n);
    thrust::inclusive_scan(d_values.begin(), d_values.end(), scanned.begin());
    thrust::host_vector<int> h_scan = scanned;
    bool scan_ok = true;
    for (int i = 0; i < n && scan_ok; i += 997) scan_ok = h_scan[i] == (int)((long long)i * (i + 1) / 2);
    failures += check("inclusive_scan", scan_ok);
    thrust::exclusive_scan(d_values.begin(), d_values.begin() + 1000, scanned.begin(), 7);
    h_scan = scanned;
    failures += check("exclusive_scan", h_scan[0] == 7 && h_scan[999] == 7 + 998 * 999 / 2);

    thrust::device_vector<long long> squares(n);
    thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n), squares.begin(), Square());
    const long long sq = thrust::reduce(squares.begin(), squares.end(), 0LL);
    long long expect = 0;
    for (long long i = 0; i < n; ++i) expect += i * i;
    failures += check("transform and reduce", sq == expect);
    std::printf("sum of squares = %lld\n", sq);

    std::printf("%s\n", failures ? "FAILED" : "ALL PASSED");
    return failures ? 1 : 0;
}
