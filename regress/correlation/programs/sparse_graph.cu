// sparse_graph: irregular, gather-heavy kernels in the style of SHOC's Spmv and Rodinia's bfs.
// Kernels:
//   spmv_csr_scalar    y = A*x for a CSR matrix of 128 K rows and ~2 M nonzeros, one thread per
//                      row: uncoalesced loads of values and column indices, divergent trip counts
//                      (rows of 6..22 nonzeros plus 1 in 64 long rows of 64..159).
//   spmv_csr_vector    the same product with a warp per row: coalesced row segments, a
//                      warp-shuffle reduction, mostly idle lanes on short rows.
//   bfs_expand_level   level-synchronous breadth-first search of a random undirected graph of
//                      128 K nodes (average degree ~8): one launch per level over every node, the
//                      frontier as a flag array (swapped with the next level's each launch),
//                      random gathers of neighbour costs; the host reads a "changed" flag back
//                      after each level.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <vector>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ != cudaSuccess) {                                                        \
            std::printf("sparse_graph: %s failed: %s\n", #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                                 \
        }                                                                                 \
    } while (0)
#define CHECK_LAUNCH(name)                                                                            \
    do {                                                                                              \
        cudaError_t err_ = cudaGetLastError();                                                        \
        if (err_ != cudaSuccess) {                                                                    \
            std::printf("sparse_graph: launch of %s failed: %s\n", name, cudaGetErrorString(err_)); \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

static const int kRows = 128 * 1024;
static const int kNodes = 128 * 1024;
static const int kMaxLevels = 30;

// ---- SpMV -------------------------------------------------------------------------------------

__global__ void spmv_csr_scalar(const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x,
                                float* __restrict__ y, int rows) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    const int end = row_ptr[row + 1];
    for (int k = row_ptr[row]; k < end; ++k) sum += vals[k] * x[cols[k]];
    y[row] = sum;
}

__global__ void spmv_csr_vector(const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x,
                                float* __restrict__ y, int rows) {
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;  // whole warps leave together
    const int begin = row_ptr[row], end = row_ptr[row + 1];
    float sum = 0.0f;
    for (int k = begin + lane; k < end; k += 32) sum += vals[k] * x[cols[k]];
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
}

// ---- BFS --------------------------------------------------------------------------------------

// Expands every node flagged in `frontier` (clearing its flag): unvisited neighbours get cost
// level + 1 and a flag in `next`. Threads that race on one neighbour write the same values.
__global__ void bfs_expand_level(const int* __restrict__ adj_ptr, const int* __restrict__ adj,
                                 unsigned char* __restrict__ frontier, unsigned char* __restrict__ next,
                                 int* __restrict__ cost, int level, int* __restrict__ changed, int nodes) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nodes || !frontier[v]) return;
    frontier[v] = 0;
    bool found = false;
    const int end = adj_ptr[v + 1];
    for (int e = adj_ptr[v]; e < end; ++e) {
        int u = adj[e];
        if (cost[u] < 0) {
            cost[u] = level + 1;
            next[u] = 1;
            found = true;
        }
    }
    if (found) *changed = 1;
}

// ---- host -------------------------------------------------------------------------------------

static unsigned lcg_state = 777u;
static unsigned lcg() {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;  // the low bits of an LCG are weak
}

static bool run_spmv() {
    // Matrix: rows of 6..22 nonzeros, 1 in 64 rows of 64..159; half the columns near the
    // diagonal, half anywhere. Values and x are multiples of 1/4 and 1/8 small enough that every
    // partial sum is exact in float, so any summation order gives the same y.
    std::vector<int> row_ptr(kRows + 1, 0), cols;
    std::vector<float> vals;
    for (int r = 0; r < kRows; ++r) {
        int len = (lcg() % 64 == 0) ? 64 + int(lcg() % 96) : 6 + int(lcg() % 17);
        std::vector<int> rc(len);
        for (int k = 0; k < len; ++k) {
            if (lcg() & 1)
                rc[k] = (r + int(lcg() % 257) - 128 + kRows) % kRows;
            else
                rc[k] = int(lcg() % kRows);
        }
        std::sort(rc.begin(), rc.end());
        for (int c : rc) {
            cols.push_back(c);
            vals.push_back(float(int(lcg() % 16) - 8) * 0.25f);
        }
        row_ptr[r + 1] = int(cols.size());
    }
    const int nnz = int(cols.size());
    std::vector<float> x(kRows), want(kRows);
    for (int i = 0; i < kRows; ++i) x[i] = float(lcg() % 32) * 0.125f;
    for (int r = 0; r < kRows; ++r) {
        float s = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += vals[k] * x[cols[k]];
        want[r] = s;
    }

    int *d_row_ptr, *d_cols;
    float *d_vals, *d_x, *d_y1, *d_y2;
    CHECK(cudaMalloc(&d_row_ptr, (kRows + 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_cols, nnz * sizeof(int)));
    CHECK(cudaMalloc(&d_vals, nnz * sizeof(float)));
    CHECK(cudaMalloc(&d_x, kRows * sizeof(float)));
    CHECK(cudaMalloc(&d_y1, kRows * sizeof(float)));
    CHECK(cudaMalloc(&d_y2, kRows * sizeof(float)));
    CHECK(cudaMemcpy(d_row_ptr, row_ptr.data(), (kRows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, x.data(), kRows * sizeof(float), cudaMemcpyHostToDevice));

    const int threads = 256;
    spmv_csr_scalar<<<(kRows + threads - 1) / threads, threads>>>(d_row_ptr, d_cols, d_vals, d_x, d_y1, kRows);
    CHECK_LAUNCH("spmv_csr_scalar");
    const int rows_per_block = threads / 32;
    spmv_csr_vector<<<(kRows + rows_per_block - 1) / rows_per_block, threads>>>(d_row_ptr, d_cols, d_vals, d_x,
                                                                                  d_y2, kRows);
    CHECK_LAUNCH("spmv_csr_vector");

    std::vector<float> y1(kRows), y2(kRows);
    CHECK(cudaMemcpy(y1.data(), d_y1, kRows * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y2.data(), d_y2, kRows * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < kRows; ++r) {
        if (y1[r] != want[r] && bad++ < 5) std::printf("sparse_graph: scalar y[%d] = %g, expected %g\n", r, y1[r], want[r]);
        if (y2[r] != want[r] && bad++ < 5) std::printf("sparse_graph: vector y[%d] = %g, expected %g\n", r, y2[r], want[r]);
    }
    CHECK(cudaFree(d_row_ptr));
    CHECK(cudaFree(d_cols));
    CHECK(cudaFree(d_vals));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y1));
    CHECK(cudaFree(d_y2));
    return bad == 0;
}

static bool run_bfs() {
    // Random undirected graph: each node picks 1..7 random neighbours; every edge is stored both
    // ways, so the average degree is ~8 and degrees vary.
    std::vector<std::pair<int, int>> edges;
    edges.reserve(size_t(kNodes) * 4);
    for (int v = 0; v < kNodes; ++v) {
        int k = 1 + int(lcg() % 7);
        for (int i = 0; i < k; ++i) {
            int u = int(lcg() % kNodes);
            if (u != v) edges.push_back({v, u});
        }
    }
    std::vector<int> adj_ptr(kNodes + 1, 0);
    for (auto& e : edges) {
        ++adj_ptr[e.first + 1];
        ++adj_ptr[e.second + 1];
    }
    for (int v = 0; v < kNodes; ++v) adj_ptr[v + 1] += adj_ptr[v];
    std::vector<int> adj(adj_ptr[kNodes]), fill(adj_ptr.begin(), adj_ptr.end() - 1);
    for (auto& e : edges) {
        adj[fill[e.first]++] = e.second;
        adj[fill[e.second]++] = e.first;
    }
    const int n_adj = int(adj.size());

    // Host reference: a queue-based BFS from node 0.
    std::vector<int> want(kNodes, -1);
    std::queue<int> q;
    want[0] = 0;
    q.push(0);
    while (!q.empty()) {
        int v = q.front();
        q.pop();
        for (int e = adj_ptr[v]; e < adj_ptr[v + 1]; ++e)
            if (want[adj[e]] < 0) {
                want[adj[e]] = want[v] + 1;
                q.push(adj[e]);
            }
    }

    int *d_adj_ptr, *d_adj, *d_cost, *d_changed;
    unsigned char *d_frontier, *d_next;
    CHECK(cudaMalloc(&d_adj_ptr, (kNodes + 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_adj, n_adj * sizeof(int)));
    CHECK(cudaMalloc(&d_cost, kNodes * sizeof(int)));
    CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CHECK(cudaMalloc(&d_frontier, kNodes));
    CHECK(cudaMalloc(&d_next, kNodes));
    CHECK(cudaMemcpy(d_adj_ptr, adj_ptr.data(), (kNodes + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_adj, adj.data(), n_adj * sizeof(int), cudaMemcpyHostToDevice));
    std::vector<int> cost(kNodes, -1);
    cost[0] = 0;
    CHECK(cudaMemcpy(d_cost, cost.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_frontier, 0, kNodes));
    CHECK(cudaMemset(d_next, 0, kNodes));
    const unsigned char one = 1;
    CHECK(cudaMemcpy(d_frontier, &one, 1, cudaMemcpyHostToDevice));

    const int threads = 256;
    int level = 0, changed = 1;
    while (changed) {
        if (level == kMaxLevels) {
            std::printf("sparse_graph: BFS did not finish in %d levels\n", kMaxLevels);
            return false;
        }
        changed = 0;
        CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
        bfs_expand_level<<<(kNodes + threads - 1) / threads, threads>>>(d_adj_ptr, d_adj, d_frontier, d_next, d_cost,
                                                                         level, d_changed, kNodes);
        CHECK_LAUNCH("bfs_expand_level");
        CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        std::swap(d_frontier, d_next);
        ++level;
    }

    CHECK(cudaMemcpy(cost.data(), d_cost, kNodes * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int v = 0; v < kNodes; ++v)
        if (cost[v] != want[v] && bad++ < 5) std::printf("sparse_graph: cost[%d] = %d, expected %d\n", v, cost[v], want[v]);
    CHECK(cudaFree(d_adj_ptr));
    CHECK(cudaFree(d_adj));
    CHECK(cudaFree(d_cost));
    CHECK(cudaFree(d_changed));
    CHECK(cudaFree(d_frontier));
    CHECK(cudaFree(d_next));
    return bad == 0;
}

int main() {
    bool ok = run_spmv();
    ok = run_bfs() && ok;
    if (!ok) {
        std::printf("sparse_graph: FAILED\n");
        return 1;
    }
    std::printf("sparse_graph: PASSED\n");
    return 0;
}
