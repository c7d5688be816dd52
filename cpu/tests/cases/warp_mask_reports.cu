// the memory checker: a warp primitive whose mask leaves out the calling lane is reported ("Invalid
// arguments", as synccheck names it), and so is each shuffle that reads a lane which has exited (its value is
// undefined on a GPU): kernel, line and thread. The lanes still get their own values, never a hang.
// test-sanitizer: --error-exitcode 86
// test-status: 86
// test-stderr: Barrier error detected. Invalid arguments
// test-stderr: at own_lane_missing in warp_mask_reports.cu:18
// test-stderr: Warp shuffle from lane 8, which has exited or does not exist
// test-stderr: at reads_exited in warp_mask_reports.cu:26
// test-stderr: by thread \(4,0,0\) in block \(0,0,0\)
// test-stderr: ERROR SUMMARY: 5 errors
// test-gpu: skip (undefined behaviour on a GPU: the CPU backend's own reports)
#include "check.h"

__global__ void own_lane_missing(int *out)
{
    if (threadIdx.x == 0)
        out[0] = __ballot_sync(0x2, 1);
}

__global__ void reads_exited(int *out)
{
    if (threadIdx.x >= 8) return;
    int v = (int)threadIdx.x;
    v = __shfl_down_sync(0xff, v, 4);
    out[threadIdx.x] = v;
}

int main(void)
{
    int *d = NULL, h[8];
    cudaMalloc(&d, sizeof h);
    own_lane_missing<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("lane 0 alone in its ballot sees its own vote", h[0], 1);
    reads_exited<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("lane 3 read lane 7", h[3], 7);
    cudaFree(d);
    return 0;
}
