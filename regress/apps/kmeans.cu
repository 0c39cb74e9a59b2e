/* K-means clustering in the style of Rodinia's kmeans (CUDA version): 4096 points with 6 integer-valued
 * features in 5 blobs, features transposed on the GPU (invert_mapping), cluster centres in __constant__
 * memory refreshed with cudaMemcpyToSymbol each iteration, nearest-centre assignment on the GPU into a
 * membership array, centre update and change count on the host, until few points move (max 10 rounds). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define THREADS_PER_DIM 16
#define BLOCKS_PER_DIM 16
#define THREADS_PER_BLOCK (THREADS_PER_DIM * THREADS_PER_DIM)

#define ASSUMED_NR_CLUSTERS 32
#define MAX_FEATURES 16

#define NPOINTS 4096
#define NFEATURES 6
#define NCLUSTERS 5
#define NBLOBS 5
#define MAX_LOOPS 10
#define THRESHOLD 0.001f

#define CHECK(call)                                                                              \
    {                                                                                            \
        cudaError_t e = (call);                                                                  \
        if (e != cudaSuccess) {                                                                  \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__);      \
            exit(1);                                                                             \
        }                                                                                        \
    }

__constant__ float c_clusters[ASSUMED_NR_CLUSTERS * MAX_FEATURES];

/* host globals, as in the original */
float *feature;           /* [npoints][nfeatures] row-major */
float **clusters;         /* [nclusters][nfeatures] */
int *membership;          /* host copy of the assignment */
int *membership_new;
float *feature_flipped_d; /* device: staging copy in the host layout [npoints][nfeatures] */
float *feature_d;         /* device: transposed [nfeatures][npoints], read by kmeansPoint */
int *membership_d;
int num_blocks;

static unsigned int seed = 31337u;
static int rand_int(int n) {
    seed = seed * 1103515245u + 12345u;
    return (int)((seed >> 8) % (unsigned int)n);
}

/* Transpose points so that consecutive threads read consecutive addresses. */
__global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures) {
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    int i;
    if (point_id < npoints) {
        for (i = 0; i < nfeatures; i++) output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}

/* Assign every point to its nearest centre (squared euclidean distance, lowest index wins ties). */
__global__ void kmeansPoint(float *features, int nfeatures, int npoints, int nclusters, int *membership) {
    unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
    unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
    int index = -1;

    if (point_id < (unsigned int)npoints) {
        int i, j;
        float min_dist = 3.4e38f;
        float dist;
        for (i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures;
            float ans = 0.0f;
            for (j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints;
                float diff = features[addr] - c_clusters[cluster_base_index + j];
                ans += diff * diff;
            }
            dist = ans;
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
        membership[point_id] = index;
    }
}

static void allocateMemory(int npoints, int nfeatures) {
    num_blocks = (npoints + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    CHECK(cudaMalloc((void **)&feature_flipped_d, npoints * nfeatures * sizeof(float)));
    CHECK(cudaMalloc((void **)&feature_d, npoints * nfeatures * sizeof(float)));
    CHECK(cudaMemcpy(feature_flipped_d, feature, npoints * nfeatures * sizeof(float), cudaMemcpyHostToDevice));
    invert_mapping<<<num_blocks, THREADS_PER_BLOCK>>>(feature_flipped_d, feature_d, npoints, nfeatures);
    CHECK(cudaGetLastError());
    CHECK(cudaMalloc((void **)&membership_d, npoints * sizeof(int)));
}

static void deallocateMemory(void) {
    CHECK(cudaFree(feature_d));
    CHECK(cudaFree(feature_flipped_d));
    CHECK(cudaFree(membership_d));
}

/* One GPU assignment pass; returns how many points changed cluster, and accumulates the new centres. */
static int kmeansCuda(int npoints, int nfeatures, int nclusters, float **new_centers, int *new_centers_len) {
    int i, j, delta = 0;
    CHECK(cudaMemcpyToSymbol(c_clusters, clusters[0], nclusters * nfeatures * sizeof(float), 0, cudaMemcpyHostToDevice));

    int num_blocks_perdim = (int)sqrt((double)num_blocks);
    while (num_blocks_perdim * num_blocks_perdim < num_blocks) num_blocks_perdim++;
    dim3 grid(num_blocks_perdim, num_blocks_perdim);
    dim3 threads(THREADS_PER_BLOCK);

    kmeansPoint<<<grid, threads>>>(feature_d, nfeatures, npoints, nclusters, membership_d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(membership_new, membership_d, npoints * sizeof(int), cudaMemcpyDeviceToHost));

    for (i = 0; i < npoints; i++) {
        int cluster_id = membership_new[i];
        new_centers_len[cluster_id]++;
        if (membership_new[i] != membership[i]) {
            delta++;
            membership[i] = membership_new[i];
        }
        for (j = 0; j < nfeatures; j++) new_centers[cluster_id][j] += feature[i * nfeatures + j];
    }
    return delta;
}

/* CPU check of one assignment pass against the same centres. A differing choice is accepted only when
 * the two distances tie to within rounding (the GPU may contract diff*diff+ans into an FMA). */
static int check_assignment(int npoints, int nfeatures, int nclusters) {
    int bad = 0;
    for (int p = 0; p < npoints; p++) {
        float best = 3.4e38f, chosen = 0.0f;
        int best_i = -1;
        for (int c = 0; c < nclusters; c++) {
            float ans = 0.0f;
            for (int f = 0; f < nfeatures; f++) {
                float diff = feature[p * nfeatures + f] - clusters[c][f];
                ans += diff * diff;
            }
            if (ans < best) {
                best = ans;
                best_i = c;
            }
            if (c == membership_new[p]) chosen = ans;
        }
        if (best_i != membership_new[p]) {
            if (membership_new[p] < 0 || membership_new[p] >= nclusters || fabsf(chosen - best) > 1e-4f * best + 1e-3f) bad++;
        }
    }
    return bad;
}

int main(int argc, char **argv) {
    int npoints = NPOINTS, nfeatures = NFEATURES, nclusters = NCLUSTERS;
    int i, j, loop = 0, bad = 0;
    float delta;
    float blob[NBLOBS][NFEATURES];
    (void)argc;
    (void)argv;

    /* Integer-valued points around NBLOBS integer centres. */
    feature = (float *)malloc(npoints * nfeatures * sizeof(float));
    for (i = 0; i < NBLOBS; i++)
        for (j = 0; j < nfeatures; j++) blob[i][j] = (float)(rand_int(200));
    for (i = 0; i < npoints; i++) {
        int b = rand_int(NBLOBS);
        for (j = 0; j < nfeatures; j++) feature[i * nfeatures + j] = blob[b][j] + (float)(rand_int(41) - 20);
    }

    clusters = (float **)malloc(nclusters * sizeof(float *));
    clusters[0] = (float *)malloc(nclusters * nfeatures * sizeof(float));
    for (i = 1; i < nclusters; i++) clusters[i] = clusters[i - 1] + nfeatures;
    /* Initial centres: the first nclusters points, as the original does. */
    for (i = 0; i < nclusters; i++)
        for (j = 0; j < nfeatures; j++) clusters[i][j] = feature[i * nfeatures + j];

    membership = (int *)malloc(npoints * sizeof(int));
    membership_new = (int *)malloc(npoints * sizeof(int));
    for (i = 0; i < npoints; i++) membership[i] = -1;

    float **new_centers = (float **)malloc(nclusters * sizeof(float *));
    new_centers[0] = (float *)calloc(nclusters * nfeatures, sizeof(float));
    for (i = 1; i < nclusters; i++) new_centers[i] = new_centers[i - 1] + nfeatures;
    int *new_centers_len = (int *)calloc(nclusters, sizeof(int));

    printf("I/O completed\n");
    printf("Number of objects: %d\n", npoints);
    printf("Number of features: %d\n", nfeatures);
    printf("Number of clusters: %d\n", nclusters);

    allocateMemory(npoints, nfeatures);

    do {
        int changed = kmeansCuda(npoints, nfeatures, nclusters, new_centers, new_centers_len);
        bad += check_assignment(npoints, nfeatures, nclusters);
        delta = (float)changed;
        printf("iteration %d: %d points changed cluster\n", loop + 1, changed);

        /* Replace old centres with the means of their members (an empty cluster keeps its centre). */
        for (i = 0; i < nclusters; i++) {
            for (j = 0; j < nfeatures; j++) {
                if (new_centers_len[i] > 0) clusters[i][j] = new_centers[i][j] / new_centers_len[i];
                new_centers[i][j] = 0.0f;
            }
            new_centers_len[i] = 0;
        }
        loop++;
    } while ((delta / npoints > THRESHOLD) && (loop < MAX_LOOPS));

    int sizes[NCLUSTERS];
    unsigned int checksum = 0;
    memset(sizes, 0, sizeof(sizes));
    for (i = 0; i < npoints; i++) {
        sizes[membership[i]]++;
        checksum = checksum * 7u + (unsigned int)membership[i];
    }
    printf("iterations: %d\n", loop);
    printf("cluster sizes:");
    for (i = 0; i < nclusters; i++) printf(" %d", sizes[i]);
    printf("\n");
    printf("membership checksum: %u\n", checksum);
    printf("assignments disagreeing with CPU: %d\n", bad);

    deallocateMemory();
    free(feature);
    free(clusters[0]);
    free(clusters);
    free(membership);
    free(membership_new);
    free(new_centers[0]);
    free(new_centers);
    free(new_centers_len);

    printf("kmeans: %s\n", bad == 0 ? "PASSED" : "FAILED");
    return bad == 0 ? 0 : 1;
}
