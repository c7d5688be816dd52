// kernel feature: extern __shared__ memory sized at launch: each block reverses its slice of the array; a
// template kernel carves typed arrays out of one aligned byte buffer.
#include <stdlib.h>
#include "check.h"

__global__ void reverse_blocks(int *a, int n)
{
    extern __shared__ int tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tile[threadIdx.x] = a[i];
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
    if (j < n) a[i] = tile[blockDim.x - 1 - threadIdx.x];
}

template <typename T> __global__ void pair_sums(const T *in, T *out)
{
    extern __shared__ __align__(16) unsigned char raw[];
    T *first = (T *)raw, *second = first + blockDim.x;
    first[threadIdx.x] = in[threadIdx.x];
    second[threadIdx.x] = in[threadIdx.x] * 2;
    __syncthreads();
    out[threadIdx.x] = first[blockDim.x - 1 - threadIdx.x] + second[threadIdx.x];
}

int main(void)
{
    const int n = 128 * 40, block = 128;
    int *h = (int *)malloc(n * sizeof(int)), *d = NULL, bad = 0;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    reverse_blocks<<<n / block, block, block * sizeof(int)>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int want = (i / block) * block + (block - 1 - i % block);
        bad += h[i] != want;
    }
    check("every block's slice is reversed", bad, 0);
    double hd[64], *dd_in = NULL, *dd_out = NULL;
    for (int i = 0; i < 64; i++) hd[i] = i;
    cudaMalloc(&dd_in, sizeof hd);
    cudaMalloc(&dd_out, sizeof hd);
    cudaMemcpy(dd_in, hd, sizeof hd, cudaMemcpyHostToDevice);
    pair_sums<<<1, 64, 2 * 64 * sizeof(double)>>>(dd_in, dd_out);
    cudaMemcpy(hd, dd_out, sizeof hd, cudaMemcpyDeviceToHost);
    bad = 0;
    for (int i = 0; i < 64; i++) bad += hd[i] != (63 - i) + 2.0 * i;
    check("two typed arrays carved from one aligned extern __shared__ buffer", bad, 0);
    cudaFree(dd_in);
    cudaFree(dd_out);
    cudaFree(d);
    free(h);
    return 0;
}
