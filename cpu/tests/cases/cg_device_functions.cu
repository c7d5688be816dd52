// kernel feature: cooperative groups used only inside device functions (a tile made in one, passed as a
// parameter to another that reduces it with an unqualified reduce under using namespace): the kernel's lanes
// still meet; 2 blocks of 64 threads, sums computed on the host.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
using namespace cooperative_groups;

__device__ int tile_total(thread_block_tile<32> tile, int v)
{
    return reduce(tile, v, plus<int>());
}

__device__ int warp_total(int v)
{
    return tile_total(tiled_partition<32>(this_thread_block()), v);
}

__global__ void totals(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int total = warp_total(t * t);
    if (threadIdx.x % 32 == 0) out[t / 32] = total;
}

int main(void)
{
    int *d = NULL, h[4];
    cudaMalloc(&d, sizeof h);
    totals<<<2, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int w = 0; w < 4; w++) {
        int want = 0;
        for (int t = w * 32; t < w * 32 + 32; t++) want += t * t;
        bad += h[w] != want;
    }
    check("each warp's sum of squares (warps wrong)", bad, 0);
    cudaFree(d);
    return 0;
}
