// kernel feature: 3-D grids and blocks: each thread writes its global linear index, computed from
// threadIdx/blockIdx/blockDim/gridDim in x, y and z.
#include <stdlib.h>
#include "check.h"

__global__ void linear_ids(int *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    int nx = gridDim.x * blockDim.x, ny = gridDim.y * blockDim.y;
    out[(z * ny + y) * nx + x] = (z * ny + y) * nx + x;
}

int main(void)
{
    dim3 block(8, 4, 2), grid(3, 5, 7);
    int n = 8 * 3 * 4 * 5 * 2 * 7;
    int *h = (int *)malloc(n * sizeof(int)), *d = NULL, bad = 0;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemset(d, 0xff, n * sizeof(int));
    linear_ids<<<grid, block>>>(d);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += h[i] != i;
    check("every one of the 6720 threads wrote its own index", bad, 0);
    cudaFree(d);
    free(h);
    return 0;
}
