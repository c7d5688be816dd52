// kernel feature: the control flow a kernel's threads run together (the CPU backend's lockstep copy,
// cpu/tools/lockstep.h): loops all threads run with divergent branches inside, early returns, break and
// continue in loops of different lengths per thread, do-while, changed parameters, per-thread arrays,
// device functions that read threadIdx, blocks whose rows do not fill a warp, and barriers in loops.
// Every result is compared with the same computation on the host.
#include <assert.h>
#include <stdlib.h>
#include "check.h"

__device__ int thread_tag(void) { return threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z; }

// the naive matrix multiply, on a size that leaves blocks partly outside the matrix
__global__ void matmul(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

// early return, then a loop for all threads with a branch (unrolled as nvcc spells it), break-free; a changed
// parameter; an index declared auto
__global__ void weighted(const int *in, int *out, int n, int scale)
{
    auto i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    scale += i % 3;
    int acc = 0;
#pragma unroll 4
    for (int k = 0; k < 8; k++) {
        if ((in[i] + k) % 2) acc += scale * k;
        else acc -= k;
    }
    out[i] = acc;
}

// loops whose length depends on the thread: while, break, continue, do-while, return from inside
__global__ void steps(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i], count = 0;
        while (v != 1) {
            v = v % 2 ? 3 * v + 1 : v / 2;
            count++;
            if (count > 500) break;
        }
        int odd = 0;
        for (int k = 0; k < in[i] % 17; k++) {
            if (k % 3 == 0) continue;
            odd += k;
            if (odd > 40) break;
        }
        int d = 0;
        do { d++; } while (d < in[i] % 5);
        for (int k = 0; k < 10; k++)
            if (k == in[i] % 7) {
                out[i] = count * 10000 + odd * 100 + d * 10 + k;
                return;
            }
        out[i] = -1;
    }
}

// a per-thread array, a device function reading threadIdx, a 3-D block of 5 x 3 x 2 threads
__global__ void arrays(int *out)
{
    int acc[4];
    for (int j = 0; j < 4; j++) acc[j] = j * thread_tag();
    int total = 0;
    for (int j = 0; j < 4; j++) total += acc[j];
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    out[blockIdx.x * 30 + t] = total + thread_tag();
}

// the tiled multiply (barriers in a loop all threads run), on a size the tiles do not divide
#define TILE 16
__global__ void tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < n && ac < n ? a[row * n + ac] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = br < n && col < n ? b[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}

// a block reduction: a grid-stride loop, then the halving tree with a barrier per step (blocks of 96)
__global__ void reduce(const int *in, long long *out, int n)
{
    __shared__ long long part[96];
    unsigned tid = threadIdx.x;
    long long s = 0;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) s += in[i];
    part[tid] = s;
    __syncthreads();
    if (tid < 32) part[tid] += part[tid + 32] + part[tid + 64];
    __syncthreads();
    for (unsigned half = 16; half > 0; half >>= 1) {
        if (tid < half) part[tid] += part[tid + half];
        __syncthreads();
    }
    if (tid == 0) atomicAdd((unsigned long long *)out, (unsigned long long)part[0]);
}

// a loop for all threads around a grid-stride loop whose body the lockstep copy does not parse (switch)
__global__ void tally(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int pass = 0; pass < 2; pass++) {
        for (int j = i; j < n; j += blockDim.x * gridDim.x) {
            switch (in[j] % 3) {
            case 0: atomicAdd(&out[pass * 3], 1); break;
            case 1: atomicAdd(&out[pass * 3 + 1], 2); break;
            default:
                if (in[j] % 2) continue;
                atomicAdd(&out[pass * 3 + 2], 3);
            }
        }
    }
}

// a barrier inside a device function the kernel calls (its lanes cannot run together), and threads that
// leave before the barriers of another kernel
__device__ void publish(int *slot, int v) { *slot = v; __syncthreads(); }
__global__ void neighbours(const int *in, int *out, int n)
{
    __shared__ int s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    publish(&s[threadIdx.x], i < n ? in[i] : 0);
    for (int k = 0; k < 2; k++)
        if (i < n) out[i] = s[(threadIdx.x + 1 + k) % 64] - s[threadIdx.x];
}
__global__ void neighbours_early_exit(const int *in, int *out, int n)
{
    __shared__ int s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    if (threadIdx.x >= 48) return;
    __syncthreads();
    for (int k = 0; k < 2; k++) out[i] = s[threadIdx.x + 1 + k] - s[threadIdx.x];
}

// statements that begin or hold a macro from a system header (assert, NULL: the preprocessor puts line
// markers there), as the body of an if without braces, in a loop all threads run
__global__ void guarded(int *out, const int *maybe, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 2; k++) {
        if (i % 2 == 0) assert(i % 2 == 0);
        if (i < n && maybe != NULL) out[i] += maybe[i];
        else if (i < n) out[i] += 1000;
    }
}

static int host_steps(int x)
{
    int v = x, count = 0;
    while (v != 1) {
        v = v % 2 ? 3 * v + 1 : v / 2;
        count++;
        if (count > 500) break;
    }
    int odd = 0;
    for (int k = 0; k < x % 17; k++) {
        if (k % 3 == 0) continue;
        odd += k;
        if (odd > 40) break;
    }
    int d = 0;
    do { d++; } while (d < x % 5);
    for (int k = 0; k < 10; k++)
        if (k == x % 7) return count * 10000 + odd * 100 + d * 10 + k;
    return -1;
}

static void report(const char *name, long long bad) { check(name, bad, 0); }
#define CHECK(call) check(#call, (call), cudaSuccess)

int main(void)
{
    const int n = 75;  // not a multiple of 16 or 32
    float *a, *b, *c;
    CHECK(cudaMallocManaged(&a, n * n * sizeof(float)));
    CHECK(cudaMallocManaged(&b, n * n * sizeof(float)));
    CHECK(cudaMallocManaged(&c, n * n * sizeof(float)));
    for (int i = 0; i < n * n; i++) { a[i] = (float)(i % 7) - 3.0f; b[i] = (float)(i % 5) * 0.5f; }
    for (int pass = 0; pass < 2; pass++) {
        memset(c, 0, n * n * sizeof(float));
        dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
        if (pass == 0) matmul<<<grid, block>>>(a, b, c, n);
        else tiled<<<grid, block>>>(a, b, c, n);
        CHECK(cudaDeviceSynchronize());
        int bad = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float want = 0;  // small integers and halves: exact in any order
                for (int k = 0; k < n; k++) want += a[i * n + k] * b[k * n + j];
                bad += c[i * n + j] != want;
            }
        report(pass == 0 ? "matmul: elements that differ from the host's" : "tiled: elements that differ from the host's", bad);
    }

    const int m = 1000;
    int *in, *out;
    CHECK(cudaMallocManaged(&in, m * sizeof(int)));
    CHECK(cudaMallocManaged(&out, m * sizeof(int)));
    for (int i = 0; i < m; i++) in[i] = 1 + (i * 7919) % 997;
    weighted<<<(m + 127) / 128, 128>>>(in, out, m, 3);
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < m; i++) {
        int scale = 3 + i % 3, acc = 0;
        for (int k = 0; k < 8; k++) acc += (in[i] + k) % 2 ? scale * k : -k;
        bad += out[i] != acc;
    }
    report("weighted: elements that differ from the host's", bad);

    steps<<<(m + 63) / 64, 64>>>(in, out, m);
    CHECK(cudaDeviceSynchronize());
    bad = 0;
    for (int i = 0; i < m; i++) bad += out[i] != host_steps(in[i]);
    report("steps: elements that differ from the host's", bad);

    arrays<<<3, dim3(5, 3, 2)>>>(out);
    CHECK(cudaDeviceSynchronize());
    bad = 0;
    for (int blk = 0; blk < 3; blk++)
        for (int z = 0; z < 2; z++)
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 5; x++) {
                    int tag = x + 100 * y + 10000 * z;
                    bad += out[blk * 30 + x + 5 * (y + 3 * z)] != 6 * tag + tag;
                }
    report("arrays: elements that differ from the host's", bad);

    memset(out, 0, 6 * sizeof(int));
    tally<<<3, 64>>>(in, out, m);
    CHECK(cudaDeviceSynchronize());
    int want_tally[6] = {0};
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j < m; j++) {
            int r = in[j] % 3;
            if (r == 2 && in[j] % 2) continue;
            want_tally[pass * 3 + r] += r + 1;
        }
    bad = 0;
    for (int k = 0; k < 6; k++) bad += out[k] != want_tally[k];
    report("tally: counts that differ from the host's", bad);

    for (int early = 0; early < 2; early++) {
        for (int i = 0; i < m; i++) out[i] = -7;
        if (early) neighbours_early_exit<<<(m + 63) / 64, 64>>>(in, out, m);
        else neighbours<<<(m + 63) / 64, 64>>>(in, out, m);
        CHECK(cudaDeviceSynchronize());
        bad = 0;
        for (int i = 0; i < m; i++) {
            int t = i % 64, base = i - t, want;
            int next = early ? t + 2 : (t + 2) % 64;
            int v = base + next < m ? in[base + next] : 0;
            want = early && t >= 48 ? -7 : v - in[i];
            bad += out[i] != want;
        }
        report(early ? "neighbours_early_exit: elements that differ from the host's" : "neighbours: elements that differ from the host's", bad);
    }

    for (int i = 0; i < m; i++) out[i] = 0;
    guarded<<<(m + 127) / 128, 128>>>(out, in, m);
    guarded<<<(m + 127) / 128, 128>>>(out, NULL, m);
    CHECK(cudaDeviceSynchronize());
    bad = 0;
    for (int i = 0; i < m; i++) bad += out[i] != 2 * in[i] + 2000;
    report("guarded: elements that differ from the host's", bad);

    long long *sum;
    CHECK(cudaMallocManaged(&sum, sizeof(long long)));
    *sum = 0;
    reduce<<<4, 96>>>(in, sum, m);
    CHECK(cudaDeviceSynchronize());
    long long want = 0;
    for (int i = 0; i < m; i++) want += in[i];
    check("reduce: the sum", *sum, want);

    CHECK(cudaFree(a)); CHECK(cudaFree(b)); CHECK(cudaFree(c));
    CHECK(cudaFree(in)); CHECK(cudaFree(out)); CHECK(cudaFree(sum));
    return 0;
}
