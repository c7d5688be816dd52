// kernel feature: this_grid().sync() under cudaLaunchCooperativeKernel makes every block meet: three phases,
// each reading what other blocks wrote in the previous one; the grid's rank and size; 720
// (cudaErrorCooperativeLaunchTooLarge) for a grid one block larger than the GPU holds at once (132 SMs times
// cudaOccupancyMaxActiveBlocksPerMultiprocessor). Expected values computed on the host.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCKS 6
#define THREADS 64
__global__ void phases(int *data, int *out)
{
    cg::grid_group grid = cg::this_grid();
    int i = (int)grid.thread_rank(), n = (int)grid.num_threads();
    data[i] = i;
    for (int phase = 0; phase < 3; phase++) {
        grid.sync();
        int next = data[(i + THREADS) % n];  /* written by the next block */
        grid.sync();
        data[i] = next + 1;
    }
    grid.sync();
    if (i == 0) {
        int sum = 0;
        for (int k = 0; k < n; k++) sum += data[k];
        out[0] = sum;
        out[1] = (int)grid.num_blocks() * 1000 + (int)grid.is_valid();
    }
}

int main(void)
{
    int *data = NULL, *out = NULL, h[2] = {0, 0};
    cudaMalloc(&data, BLOCKS * THREADS * sizeof(int));
    cudaMalloc(&out, sizeof h);
    void *args[] = {&data, &out};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, dim3(BLOCKS), dim3(THREADS), args, 0, 0);
    check("cudaLaunchCooperativeKernel of 6 blocks returns 0", e, 0);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int n = BLOCKS * THREADS, want = 0;
    for (int i = 0; i < n; i++) want += (i + 3 * THREADS) % n + 3;
    check("after three grid-wide phases every element holds its third neighbour's index plus 3 (sum)", h[0], want);
    check("grid.num_blocks() and is_valid()", h[1], BLOCKS * 1000 + 1);
    int per_sm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, THREADS, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    e = cudaLaunchCooperativeKernel((void *)phases, dim3(sms * per_sm + 1), dim3(THREADS), args, 0, 0);
    check("one block more than the GPU holds at once: 720 (cudaErrorCooperativeLaunchTooLarge)", e, 720);
    check("it is the last error", cudaGetLastError(), 720);
    check("and the device still works", cudaDeviceSynchronize(), 0);
    cudaFree(data);
    cudaFree(out);
    return 0;
}
