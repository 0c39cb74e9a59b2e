/* Breadth-first search in the style of Rodinia's bfs: a generated random undirected graph (4096 nodes,
 * average degree 6, fixed seed) in CSR-like Node/edge arrays, one thread per node, mask /
 * updating-mask / visited bool arrays, and a host do { ... } while (stop) loop that copies a bool flag
 * back every level. Exercises bool device arrays, 1-byte memcpys, many small launches, benign races. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define MAX_THREADS_PER_BLOCK 256
#define NUM_NODES 4096
#define EDGES_PER_NODE 3   /* each node adds 3 undirected edges: average degree 6 */
#define SOURCE_NODE 0

#define CUDA_SAFE_CALL(call)                                                                      \
    do {                                                                                          \
        cudaError_t err_ = (call);                                                                \
        if (err_ != cudaSuccess) {                                                                \
            printf("Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__,             \
                   cudaGetErrorString(err_));                                                     \
            exit(EXIT_FAILURE);                                                                   \
        }                                                                                         \
    } while (0)

struct Node {
    int starting;
    int no_of_edges;
};

/* host data */
int no_of_nodes;
int edge_list_size;
Node *h_graph_nodes;
int *h_graph_edges;
bool *h_graph_mask;
bool *h_updating_graph_mask;
bool *h_graph_visited;
int *h_cost;
int *h_cost_ref;

static unsigned long long lcg_state = 0x5eedULL;
static unsigned int lcg_next(void) {
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned int)(lcg_state >> 33);
}

__global__ void Kernel(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask, bool *g_updating_graph_mask,
                       bool *g_graph_visited, int *g_cost, int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited, bool *g_over,
                        int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}

/* Random graph: every node picks EDGES_PER_NODE random partners (no self loops); each pick is stored
 * in both adjacency lists. */
static void generate_graph(void) {
    int i, j;
    int npairs = NUM_NODES * EDGES_PER_NODE;
    int *src = (int *)malloc(sizeof(int) * npairs);
    int *dst = (int *)malloc(sizeof(int) * npairs);
    int *fill = (int *)malloc(sizeof(int) * NUM_NODES);

    no_of_nodes = NUM_NODES;
    h_graph_nodes = (Node *)malloc(sizeof(Node) * no_of_nodes);
    for (i = 0; i < no_of_nodes; i++) h_graph_nodes[i].no_of_edges = 0;

    for (i = 0; i < no_of_nodes; i++) {
        for (j = 0; j < EDGES_PER_NODE; j++) {
            int k = i * EDGES_PER_NODE + j;
            int other;
            do {
                other = (int)(lcg_next() % (unsigned int)no_of_nodes);
            } while (other == i);
            src[k] = i;
            dst[k] = other;
            h_graph_nodes[i].no_of_edges++;
            h_graph_nodes[other].no_of_edges++;
        }
    }

    edge_list_size = 0;
    for (i = 0; i < no_of_nodes; i++) {
        h_graph_nodes[i].starting = edge_list_size;
        edge_list_size += h_graph_nodes[i].no_of_edges;
        fill[i] = 0;
    }
    h_graph_edges = (int *)malloc(sizeof(int) * edge_list_size);
    for (i = 0; i < npairs; i++) {
        int a = src[i], b = dst[i];
        h_graph_edges[h_graph_nodes[a].starting + fill[a]++] = b;
        h_graph_edges[h_graph_nodes[b].starting + fill[b]++] = a;
    }
    free(src);
    free(dst);
    free(fill);
}

static void bfs_cpu(int source, int *cost) {
    int *queue = (int *)malloc(sizeof(int) * no_of_nodes);
    int head = 0, tail = 0;
    for (int i = 0; i < no_of_nodes; i++) cost[i] = -1;
    cost[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int u = queue[head++];
        for (int e = h_graph_nodes[u].starting; e < h_graph_nodes[u].starting + h_graph_nodes[u].no_of_edges; e++) {
            int v = h_graph_edges[e];
            if (cost[v] < 0) {
                cost[v] = cost[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

void BFSGraph(void) {
    int num_of_blocks = 1;
    int num_of_threads_per_block = no_of_nodes;

    /* Make execution parameters according to the number of nodes; distribute threads across blocks. */
    if (no_of_nodes > MAX_THREADS_PER_BLOCK) {
        num_of_blocks = (int)((no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK);
        num_of_threads_per_block = MAX_THREADS_PER_BLOCK;
    }

    h_graph_mask = (bool *)malloc(sizeof(bool) * no_of_nodes);
    h_updating_graph_mask = (bool *)malloc(sizeof(bool) * no_of_nodes);
    h_graph_visited = (bool *)malloc(sizeof(bool) * no_of_nodes);
    for (int i = 0; i < no_of_nodes; i++) {
        h_graph_mask[i] = false;
        h_updating_graph_mask[i] = false;
        h_graph_visited[i] = false;
    }
    h_graph_mask[SOURCE_NODE] = true;
    h_graph_visited[SOURCE_NODE] = true;

    h_cost = (int *)malloc(sizeof(int) * no_of_nodes);
    for (int i = 0; i < no_of_nodes; i++) h_cost[i] = -1;
    h_cost[SOURCE_NODE] = 0;

    printf("Generated random graph (seed 0x5eed)\n");
    printf("nodes: %d, directed edge entries: %d\n", no_of_nodes, edge_list_size);

    Node *d_graph_nodes;
    int *d_graph_edges;
    bool *d_graph_mask, *d_updating_graph_mask, *d_graph_visited, *d_over;
    int *d_cost;
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_graph_nodes, sizeof(Node) * no_of_nodes));
    CUDA_SAFE_CALL(cudaMemcpy(d_graph_nodes, h_graph_nodes, sizeof(Node) * no_of_nodes, cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_graph_edges, sizeof(int) * edge_list_size));
    CUDA_SAFE_CALL(cudaMemcpy(d_graph_edges, h_graph_edges, sizeof(int) * edge_list_size, cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_graph_mask, sizeof(bool) * no_of_nodes));
    CUDA_SAFE_CALL(cudaMemcpy(d_graph_mask, h_graph_mask, sizeof(bool) * no_of_nodes, cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_updating_graph_mask, sizeof(bool) * no_of_nodes));
    CUDA_SAFE_CALL(cudaMemcpy(d_updating_graph_mask, h_updating_graph_mask, sizeof(bool) * no_of_nodes, cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_graph_visited, sizeof(bool) * no_of_nodes));
    CUDA_SAFE_CALL(cudaMemcpy(d_graph_visited, h_graph_visited, sizeof(bool) * no_of_nodes, cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_cost, sizeof(int) * no_of_nodes));
    CUDA_SAFE_CALL(cudaMemcpy(d_cost, h_cost, sizeof(int) * no_of_nodes, cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_over, sizeof(bool)));

    printf("Copied Everything to GPU memory\n");

    dim3 grid(num_of_blocks, 1, 1);
    dim3 threads(num_of_threads_per_block, 1, 1);

    int k = 0;
    bool stop;
    printf("Start traversing the tree\n");
    /* Call the kernels until no node is updated. */
    do {
        stop = false;
        CUDA_SAFE_CALL(cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice));
        Kernel<<<grid, threads, 0>>>(d_graph_nodes, d_graph_edges, d_graph_mask, d_updating_graph_mask, d_graph_visited,
                                     d_cost, no_of_nodes);
        CUDA_SAFE_CALL(cudaGetLastError());
        Kernel2<<<grid, threads, 0>>>(d_graph_mask, d_updating_graph_mask, d_graph_visited, d_over, no_of_nodes);
        CUDA_SAFE_CALL(cudaGetLastError());
        CUDA_SAFE_CALL(cudaMemcpy(&stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost));
        k++;
    } while (stop);

    /* The loop runs once per BFS level plus once to find an empty frontier. */
    printf("Kernel Executed %d times\n", k);

    CUDA_SAFE_CALL(cudaMemcpy(h_cost, d_cost, sizeof(int) * no_of_nodes, cudaMemcpyDeviceToHost));

    h_cost_ref = (int *)malloc(sizeof(int) * no_of_nodes);
    bfs_cpu(SOURCE_NODE, h_cost_ref);

    int mismatches = 0, reached = 0, max_cost = -1;
    unsigned int checksum = 0;
    for (int i = 0; i < no_of_nodes; i++) {
        if (h_cost[i] != h_cost_ref[i]) {
            if (mismatches < 5) printf("mismatch at node %d: gpu %d cpu %d\n", i, h_cost[i], h_cost_ref[i]);
            mismatches++;
        }
        if (h_cost[i] >= 0) {
            reached++;
            if (h_cost[i] > max_cost) max_cost = h_cost[i];
        }
        checksum = checksum * 131u + (unsigned int)(h_cost[i] + 1);
    }
    printf("levels: %d\n", max_cost + 1);
    printf("reached nodes: %d of %d\n", reached, no_of_nodes);
    printf("cost checksum: %u\n", checksum);
    printf("mismatches against CPU BFS: %d\n", mismatches);

    free(h_graph_nodes);
    free(h_graph_edges);
    free(h_graph_mask);
    free(h_updating_graph_mask);
    free(h_graph_visited);
    free(h_cost);
    free(h_cost_ref);
    cudaFree(d_graph_nodes);
    cudaFree(d_graph_edges);
    cudaFree(d_graph_mask);
    cudaFree(d_updating_graph_mask);
    cudaFree(d_graph_visited);
    cudaFree(d_cost);
    cudaFree(d_over);

    printf("bfs: %s\n", mismatches == 0 ? "PASSED" : "FAILED");
    if (mismatches != 0) exit(EXIT_FAILURE);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    generate_graph();
    BFSGraph();
    return 0;
}
