// kernel feature: a block reduction with __syncthreads and static shared memory, then atomicAdd of the
// block sums; the expected sum of 0..n-1 is n(n-1)/2, computed on the host.
#include <stdlib.h>
#include "check.h"

__global__ void block_sum(const int *in, unsigned long long *total, int n)
{
    __shared__ unsigned long long s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, s[0]);
}

int main(void)
{
    int n = 1000003;
    int *h = (int *)malloc(n * sizeof(int)), *d = NULL;
    unsigned long long *d_total = NULL, total = 0;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&d_total, sizeof total);
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof total);
    block_sum<<<(n + 255) / 256, 256>>>(d, d_total, n);
    cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
    check("the reduction of 0..n-1 equals n(n-1)/2", (long long)total, (long long)n * (n - 1) / 2);
    cudaFree(d);
    cudaFree(d_total);
    free(h);
    return 0;
}
