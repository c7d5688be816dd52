// matmul.cu: the CPU backend's matrix-multiply speed (issue 13, "Speed"), run by bench/run.sh.
// Usage: matmul N [naive|tiled|all] [noplain]. Multiplies two N x N float matrices (N a multiple of 16) with the two
// kernels lessons and courses write: one thread per output element in 16 x 16 blocks, the inner loop striding
// down a column of B ("naive"), and the 16 x 16 shared-memory tiled one ("tiled"); then the same two loops in
// plain C, in the same process (not with "noplain": at 8192 the naive loop in plain C takes hours). Prints
// "matmul_naive N backend_s plain_s" and "matmul_tiled N backend_s plain_s" (plain_s 0 when skipped), and checks
// a few elements of each result against a double-precision dot product.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TILE 16

__global__ void matmul_naive(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

__global__ void matmul_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

// the plain C baselines: the naive kernel's loop (row, column, then down the column of B) and the tiled one's
// (the same tiles, copied to local arrays), noinline so the compiler cannot fold them into main
__attribute__((noinline)) static void plain_naive(const float *a, const float *b, float *c, int n)
{
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            float sum = 0.0f;
            for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
            c[row * n + col] = sum;
        }
}

__attribute__((noinline)) static void plain_tiled(const float *a, const float *b, float *c, int n)
{
    static float ta[TILE][TILE], tb[TILE][TILE];
    for (int bi = 0; bi < n; bi += TILE)
        for (int bj = 0; bj < n; bj += TILE) {
            float sum[TILE][TILE] = {{0}};
            for (int t = 0; t < n; t += TILE) {
                for (int y = 0; y < TILE; y++)
                    for (int x = 0; x < TILE; x++) {
                        ta[y][x] = a[(bi + y) * n + t + x];
                        tb[y][x] = b[(t + y) * n + bj + x];
                    }
                for (int y = 0; y < TILE; y++)
                    for (int x = 0; x < TILE; x++)
                        for (int k = 0; k < TILE; k++) sum[y][x] += ta[y][k] * tb[k][x];
            }
            for (int y = 0; y < TILE; y++)
                for (int x = 0; x < TILE; x++) c[(bi + y) * n + bj + x] = sum[y][x];
        }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// a few elements of c against a double-precision dot product (float sums of n terms: relative 1e-3)
static int check(const float *a, const float *b, const float *c, int n, const char *what)
{
    for (int s = 0; s < 16; s++) {
        int i = (int)((s * 7919L) % n), j = (int)((s * 104729L + 13) % n);
        double want = 0;
        for (int k = 0; k < n; k++) want += (double)a[(size_t)i * n + k] * b[(size_t)k * n + j];
        if (fabs(c[(size_t)i * n + j] - want) > 1e-3 * fabs(want) + 1e-3) {
            fprintf(stderr, "matmul: %s: c[%d][%d] = %f, want %f\n", what, i, j, c[(size_t)i * n + j], want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512;
    const char *which = argc > 2 ? argv[2] : "all";
    int plain = !(argc > 3 && strcmp(argv[3], "noplain") == 0);
    if (n < TILE || n % TILE) { fprintf(stderr, "usage: matmul N [naive|tiled|all] (N a multiple of 16)\n"); return 2; }
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        h_a[i] = (float)(i % 17) / 16.0f - 0.5f;
        h_b[i] = (float)(i % 13) / 12.0f - 0.25f;
    }
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMalloc(&d_c, bytes);
    cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
    int failed = 0;
    for (int tiled = 0; tiled < 2; tiled++) {
        if (strcmp(which, "all") && strcmp(which, tiled ? "tiled" : "naive")) continue;
        cudaMemset(d_c, 0, bytes);
        double t0 = now();
        if (tiled) matmul_tiled<<<grid, block>>>(d_a, d_b, d_c, n);
        else matmul_naive<<<grid, block>>>(d_a, d_b, d_c, n);
        cudaError_t e = cudaDeviceSynchronize();
        double t1 = now();
        cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) { fprintf(stderr, "matmul: %s\n", cudaGetErrorString(e)); return 1; }
        failed |= check(h_a, h_b, h_c, n, tiled ? "tiled kernel" : "naive kernel");
        double t2 = 0, t3 = 0;
        if (plain) {
            memset(h_c, 0, bytes);
            t2 = now();
            if (tiled) plain_tiled(h_a, h_b, h_c, n);
            else plain_naive(h_a, h_b, h_c, n);
            t3 = now();
            failed |= check(h_a, h_b, h_c, n, tiled ? "tiled plain C" : "naive plain C");
        }
        printf("matmul_%s %d %.6f %.6f\n", tiled ? "tiled" : "naive", n, t1 - t0, t3 - t2);
        fflush(stdout);
    }
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    free(h_a); free(h_b); free(h_c);
    return failed;
}
