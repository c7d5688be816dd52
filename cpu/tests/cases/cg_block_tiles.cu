// kernel feature: cooperative groups in a block: this_thread_block (thread_rank, num_threads, sync,
// group_index, thread_index, dim_threads), tiled_partition<16> and <32> (shfl, shfl_down/up/xor, any, all,
// ballot, sync, thread_rank, num_threads, meta_group_rank/size), the dynamic tiled_partition(block, 8) and
// cg::reduce with plus, less and greater; expected values computed on the host.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define THREADS 96
__global__ void groups(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ int seen[THREADS];
    int r = (int)block.thread_rank();
    seen[r] = r * 2;
    block.sync();
    int *o = out + r * 16;
    o[0] = seen[(r + 1) % THREADS];
    o[1] = (int)block.num_threads() * 1000 + (int)cg::this_thread_block().num_threads();
    o[2] = block.group_index().x * 100 + block.thread_index().y * 10 + block.dim_threads().y;
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    o[3] = (int)t16.thread_rank() * 100 + (int)t16.num_threads();
    o[4] = (int)t16.meta_group_rank() * 100 + (int)t16.meta_group_size();
    o[5] = t16.shfl(r, 3);
    o[6] = t16.shfl_down(r, 2);
    o[7] = t16.shfl_up(r, 1);
    o[8] = t16.shfl_xor(r, 5);
    o[9] = t16.any(r == 20) * 10 + t16.all(r < 90);
    o[10] = (int)t16.ballot(r % 4 == 1);
    t16.sync();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    o[11] = cg::reduce(warp, r, cg::plus<int>());
    o[12] = cg::reduce(t16, 1000 - r, cg::less<int>());
    o[13] = cg::reduce(t16, r, cg::greater<int>());
    cg::thread_group t8 = cg::tiled_partition(block, 8);
    t8.sync();
    o[14] = (int)t8.thread_rank() * 100 + (int)t8.size(); // a plain thread_group has size(), not num_threads()
    o[15] = (int)warp.meta_group_rank();
}

int main(void)
{
    int *d = NULL;
    static int h[THREADS * 16];
    cudaMalloc(&d, sizeof h);
    groups<<<1, dim3(32, 3)>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad[16] = {0};
    for (int r = 0; r < THREADS; r++) {
        int base16 = r / 16 * 16, l16 = r % 16, base32 = r / 32 * 32, sum = 0, ballot = 0;
        for (int k = 0; k < 32; k++) sum += base32 + k;
        for (int k = 0; k < 16; k++) ballot |= ((base16 + k) % 4 == 1) << k;
        int want[16] = {(r + 1) % THREADS * 2, THREADS * 1000 + THREADS, 0 * 100 + r / 32 * 10 + 3,
                        l16 * 100 + 16, r / 16 * 100 + THREADS / 16, base16 + 3, l16 + 2 < 16 ? r + 2 : r,
                        l16 >= 1 ? r - 1 : r, base16 + (l16 ^ 5), (base16 == 16) * 10 + (base16 + 15 < 90),
                        ballot, sum, 1000 - (base16 + 15), base16 + 15, r % 8 * 100 + 8, r / 32};
        for (int k = 0; k < 16; k++) bad[k] += h[r * 16 + k] != want[k];
    }
    static const char *what[16] = {"block.sync() orders the shared writes", "block num_threads",
                                   "group_index, thread_index, dim_threads", "tile<16> thread_rank and num_threads",
                                   "tile<16> meta_group_rank and meta_group_size", "tile<16> shfl",
                                   "tile<16> shfl_down", "tile<16> shfl_up", "tile<16> shfl_xor", "tile<16> any, all",
                                   "tile<16> ballot (bits by tile rank)", "cg::reduce(warp, plus)",
                                   "cg::reduce(tile<16>, less)", "cg::reduce(tile<16>, greater)",
                                   "dynamic tiled_partition(block, 8) rank and num_threads", "tile<32> meta_group_rank"};
    for (int k = 0; k < 16; k++) {
        char fact[100];
        snprintf(fact, sizeof fact, "%s (threads wrong)", what[k]);
        check(fact, bad[k], 0);
    }
    cudaFree(d);
    return 0;
}
