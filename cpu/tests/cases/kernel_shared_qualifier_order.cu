// kernel feature: __shared__ written after the type ("extern double __shared__ s[];", "T __shared__ x[4]"),
// which nvcc accepts as cuda-samples write it (threadFenceReduction, reductionMultiBlockCG), and a launch
// spaced as clang-format spaces it, "k << <grid, block >> > (args)".
#include "check.h"

__global__ void block_sums(const double *in, double *out)
{
    extern double __shared__ partial[];
    float __shared__ bias[4];
    partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x < 4) bias[threadIdx.x] = 0.25f;
    __syncthreads();
    if (threadIdx.x == 0) {
        double s = 0;
        for (unsigned i = 0; i < blockDim.x; i++) s += partial[i];
        out[blockIdx.x] = s + bias[0] + bias[1] + bias[2] + bias[3];
    }
}

template <class T> __global__ void reverse(T *a)
{
    extern T __shared__ tile[];
    static int __shared__ count;
    if (threadIdx.x == 0) count = 0;
    tile[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    atomicAdd(&count, 1);
    a[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) a[0] += count;
}

int main(void)
{
    double h[256], *in = NULL, *out = NULL, sums[4];
    for (int i = 0; i < 256; i++) h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sums << <4, 64, 64 * sizeof(double) >> > (in, out);
    cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    check("extern double __shared__: block 0 sums 0..63, plus 1", (long long)sums[0], 2017);
    check("extern double __shared__: block 3 sums 192..255, plus 1", (long long)sums[3], 14305);
    int hi[32], *di = NULL;
    for (int i = 0; i < 32; i++) hi[i] = i;
    cudaMalloc(&di, sizeof hi);
    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
    reverse<int><<<1, 32, 32 * sizeof(int)>>>(di);
    cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
    check("extern T __shared__ in a template kernel: reversed", hi[1], 30);
    check("static int __shared__: one counter for the block", hi[0], 31 + 32);
    check("no launch error", cudaGetLastError(), cudaSuccess);
    cudaFree(di);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
