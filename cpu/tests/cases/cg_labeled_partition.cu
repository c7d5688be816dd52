// kernel feature: cg::labeled_partition of a coalesced group and of a tile<32>: the threads with the same
// label form a group (size, thread_rank in lane order, shfl by rank, cg::reduce); expected values computed
// on the host from CUDA's documentation.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define THREADS 64

__global__ void labels(int *out)
{
    int t = threadIdx.x;
    int *o = out + t * 4;
    if (t % 4 != 3) { /* a coalesced group of the lanes that took the branch, partitioned by t % 3 */
        cg::coalesced_group active = cg::coalesced_threads();
        cg::coalesced_group same = cg::labeled_partition(active, t % 3);
        o[0] = (int)same.size() * 100 + (int)same.thread_rank();
        o[1] = same.shfl(t, 0);
    }
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group bucket = cg::labeled_partition(warp, t / 8 % 2);
    o[2] = cg::reduce(bucket, t, cg::plus<int>());
    o[3] = (int)bucket.size();
}

int main(void)
{
    int *d = NULL;
    static int h[THREADS * 4];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    labels<<<1, THREADS>>>(d);
    check("the kernel runs", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad[4] = {0};
    for (int t = 0; t < THREADS; t++) {
        int base = t / 32 * 32, size = 0, rank = 0, first = -1, sum = 0, count = 0;
        for (int u = base; u < base + 32; u++) {
            if (u % 4 != 3 && u % 3 == t % 3) {
                if (first < 0) first = u;
                if (u < t) rank++;
                size++;
            }
            if (u / 8 % 2 == t / 8 % 2) { sum += u; count++; }
        }
        if (t % 4 != 3) {
            bad[0] += h[t * 4 + 0] != size * 100 + rank;
            bad[1] += h[t * 4 + 1] != first;
        }
        bad[2] += h[t * 4 + 2] != sum;
        bad[3] += h[t * 4 + 3] != count;
    }
    check("labeled_partition of a coalesced group: size and rank in lane order (threads wrong)", bad[0], 0);
    check("labeled_partition of a coalesced group: shfl from rank 0 (threads wrong)", bad[1], 0);
    check("labeled_partition of a tile: cg::reduce over the label's threads (threads wrong)", bad[2], 0);
    check("labeled_partition of a tile: size (threads wrong)", bad[3], 0);
    cudaFree(d);
    return 0;
}
