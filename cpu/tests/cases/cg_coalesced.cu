// kernel feature: coalesced_threads() inside a branch: the group is the lanes that took it, ranked in lane
// order; its num_threads, thread_rank, shfl by rank, shfl_down/up and cg::reduce over a group of 11 threads.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void odd_ones(int *out)
{
    int lane = threadIdx.x % 32;
    out[threadIdx.x] = -1;
    if (lane % 3 == 1) {  /* lanes 1, 4, ..., 31: 11 of them */
        cg::coalesced_group g = cg::coalesced_threads();
        int r = (int)g.thread_rank();
        int *o = out + 64 + threadIdx.x * 6;
        o[0] = (int)g.num_threads();
        o[1] = r;
        o[2] = g.shfl(lane, 0);
        o[3] = g.shfl_down(lane, 1);
        o[4] = g.shfl_up(lane, 2);
        o[5] = cg::reduce(g, lane, cg::plus<int>());
    }
}

int main(void)
{
    int *d = NULL;
    static int h[64 + 64 * 6];
    cudaMalloc(&d, sizeof h);
    odd_ones<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad[6] = {0}, members = 0, sum = 0;
    for (int l = 1; l < 32; l += 3) { members++; sum += l; }
    for (int t = 0; t < 64; t++) {
        int lane = t % 32;
        if (lane % 3 != 1) continue;
        int r = lane / 3;
        int want[6] = {members, r, 1, r + 1 < members ? lane + 3 : lane, r >= 2 ? lane - 6 : lane, sum};
        for (int k = 0; k < 6; k++) bad[k] += h[64 + t * 6 + k] != want[k];
    }
    check("num_threads() is the 11 lanes that took the branch (threads wrong)", bad[0], 0);
    check("thread_rank() counts them in lane order (threads wrong)", bad[1], 0);
    check("shfl(v, 0) reads rank 0, lane 1 (threads wrong)", bad[2], 0);
    check("shfl_down(v, 1) reads the next member (threads wrong)", bad[3], 0);
    check("shfl_up(v, 2) reads two members back (threads wrong)", bad[4], 0);
    check("cg::reduce with plus sums the members' lanes (threads wrong)", bad[5], 0);
    cudaFree(d);
    return 0;
}
