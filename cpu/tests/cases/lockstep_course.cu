// kernel feature: kernels as CUDA courses write them, which the CPU backend runs in lockstep (cpu/README.md):
// a shared-memory histogram, a 1-D stencil with halo cells, a tiled transpose with padding, a reduction whose
// last warp is unrolled through a volatile pointer (warp-synchronous, as older courses teach it), the
// interleaved-address reduction, a matrix-vector product. Every result is compared with the host's.
#include <stdlib.h>
#include "check.h"

#define CUDA(call) check(#call, (call), cudaSuccess)

__global__ void histogram(const int *in, int n, int *bins)
{
    __shared__ int local[64];
    for (int i = threadIdx.x; i < 64; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[in[i] % 64], 1);
    __syncthreads();
    for (int i = threadIdx.x; i < 64; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

#define RADIUS 3
#define BLOCK 128
__global__ void stencil(const int *in, int *out, int n)
{
    __shared__ int s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
        s[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++) result += s[l + offset];
    if (g < n) out[g] = result;
}

#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transpose(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void reduce_unrolled(const float *in, float *out, int n)
{
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = 0;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float *vs = sdata;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_interleaved(const int *in, int *out)
{
    __shared__ int s[128];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void matvec(const float *a, const float *x, float *y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int j = 0; j < cols; j++) sum += a[row * cols + j] * x[j];
        y[row] = sum;
    }
}

int main(void)
{
    const int n = 5000;
    int *in, *out, *bins;
    CUDA(cudaMallocManaged(&in, n * sizeof(int)));
    CUDA(cudaMallocManaged(&out, n * sizeof(int)));
    CUDA(cudaMallocManaged(&bins, 64 * sizeof(int)));
    for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 1000;

    memset(bins, 0, 64 * sizeof(int));
    histogram<<<8, 96>>>(in, n, bins);
    CUDA(cudaDeviceSynchronize());
    int want[64] = {0}, bad = 0;
    for (int i = 0; i < n; i++) want[in[i] % 64]++;
    for (int b = 0; b < 64; b++) bad += bins[b] != want[b];
    check("histogram: bins that differ from the host's", bad, 0);

    stencil<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
    CUDA(cudaDeviceSynchronize());
    bad = 0;
    for (int i = 0; i < n; i++) {
        int r = 0;
        for (int o = -RADIUS; o <= RADIUS; o++) r += i + o >= 0 && i + o < n ? in[i + o] : 0;
        bad += out[i] != r;
    }
    check("stencil: elements that differ from the host's", bad, 0);

    const int w = 100, h = 70;
    float *src, *dst;
    CUDA(cudaMallocManaged(&src, w * h * sizeof(float)));
    CUDA(cudaMallocManaged(&dst, w * h * sizeof(float)));
    for (int i = 0; i < w * h; i++) src[i] = (float)i;
    transpose<<<dim3((w + TILE_DIM - 1) / TILE_DIM, (h + TILE_DIM - 1) / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(
        dst, src, w, h);
    CUDA(cudaDeviceSynchronize());
    bad = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) bad += dst[c * h + r] != src[r * w + c];
    check("transpose: elements that differ from the host's", bad, 0);

    float *fin, *partial;
    const int m = 256 * 2 * 6;
    CUDA(cudaMallocManaged(&fin, m * sizeof(float)));
    CUDA(cudaMallocManaged(&partial, 6 * sizeof(float)));
    for (int i = 0; i < m; i++) fin[i] = (float)(i % 9);
    reduce_unrolled<<<6, 256>>>(fin, partial, m);
    CUDA(cudaDeviceSynchronize());
    bad = 0;
    for (int b = 0; b < 6; b++) {
        float s = 0;  // small integers: exact in any order
        for (int i = b * 512; i < b * 512 + 512; i++) s += fin[i];
        bad += partial[b] != s;
    }
    check("reduce_unrolled: block sums that differ from the host's", bad, 0);

    reduce_interleaved<<<n / 128, 128>>>(in, out);
    CUDA(cudaDeviceSynchronize());
    bad = 0;
    for (int b = 0; b < n / 128; b++) {
        int s = 0;
        for (int i = b * 128; i < b * 128 + 128; i++) s += in[i];
        bad += out[b] != s;
    }
    check("reduce_interleaved: block sums that differ from the host's", bad, 0);

    const int rows = 300, cols = 77;
    float *a, *x, *y;
    CUDA(cudaMallocManaged(&a, rows * cols * sizeof(float)));
    CUDA(cudaMallocManaged(&x, cols * sizeof(float)));
    CUDA(cudaMallocManaged(&y, rows * sizeof(float)));
    for (int i = 0; i < rows * cols; i++) a[i] = (float)(i % 5);
    for (int j = 0; j < cols; j++) x[j] = (float)(j % 3);
    matvec<<<(rows + 63) / 64, 64>>>(a, x, y, rows, cols);
    CUDA(cudaDeviceSynchronize());
    bad = 0;
    for (int r = 0; r < rows; r++) {
        float s = 0;
        for (int j = 0; j < cols; j++) s += a[r * cols + j] * x[j];
        bad += y[r] != s;
    }
    check("matvec: elements that differ from the host's", bad, 0);

    CUDA(cudaFree(in)); CUDA(cudaFree(out)); CUDA(cudaFree(bins)); CUDA(cudaFree(src)); CUDA(cudaFree(dst));
    CUDA(cudaFree(fin)); CUDA(cudaFree(partial)); CUDA(cudaFree(a)); CUDA(cudaFree(x)); CUDA(cudaFree(y));
    return 0;
}
