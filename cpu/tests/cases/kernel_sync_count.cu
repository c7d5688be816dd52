// kernel feature: __syncthreads_count, __syncthreads_and and __syncthreads_or return the block-wide vote,
// used twice in a row; expected counts computed on the host.
#include "check.h"

__global__ void votes(int *out)
{
    int t = threadIdx.x;
    int even = __syncthreads_count(t % 2 == 0);
    int small = __syncthreads_count(t < 10);
    int all_positive = __syncthreads_and(t >= 0);
    int any_big = __syncthreads_or(t > 1000);
    if (t == 0) {
        out[blockIdx.x * 4 + 0] = even;
        out[blockIdx.x * 4 + 1] = small;
        out[blockIdx.x * 4 + 2] = all_positive;
        out[blockIdx.x * 4 + 3] = any_big;
    }
}

int main(void)
{
    int *d = NULL, h[8];
    cudaMalloc(&d, sizeof h);
    votes<<<2, 100>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("__syncthreads_count of even thread indices among 100 is 50", h[0], 50);
    check("... then of indices below 10 is 10", h[1], 10);
    check("__syncthreads_and of a true predicate is nonzero", h[2] != 0, 1);
    check("__syncthreads_or of a false predicate is 0", h[3], 0);
    check("the second block agrees", h[4] == 50 && h[5] == 10, 1);
    cudaFree(d);
    return 0;
}
