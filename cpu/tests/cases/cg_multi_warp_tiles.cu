// cooperative groups: tiles of more than 32 threads (CUDA 12's multi-warp tiles), made from a block handed
// its block_tile_memory scratch, as cuda-samples' reduction does: ranks, sync and cg::reduce per tile.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "check.h"
namespace cg = cooperative_groups;

template <unsigned TILE> __global__ void tile_sums(const int *in, int *sums, int *ranks)
{
    __shared__ cg::block_tile_memory<256> scratch;
    __shared__ int staged[256];
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    unsigned i = block.thread_rank();
    staged[i] = in[i];
    tile.sync();
    int mine = staged[tile.meta_group_rank() * TILE + (TILE - 1 - tile.thread_rank())];
    int total = cg::reduce(tile, mine, cg::plus<int>());
    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = total;
    if (i == 255) ranks[0] = (int)(tile.thread_rank() * 1000 + tile.meta_group_rank() * 10 + tile.meta_group_size());
}

int main(void)
{
    int h[256], *in = NULL, *sums = NULL, *ranks = NULL, hs[4], hr;
    for (int i = 0; i < 256; i++) h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&sums, sizeof hs);
    cudaMalloc(&ranks, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    tile_sums<128><<<1, 256>>>(in, sums, ranks);
    cudaMemcpy(hs, sums, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&hr, ranks, sizeof hr, cudaMemcpyDeviceToHost);
    check("tiles of 128: the first one's sum (0..127)", hs[0], 8128);
    check("tiles of 128: the second one's sum (128..255)", hs[1], 24512);
    check("thread 255: rank 127 in tile 1 of 2", hr, 127012);
    tile_sums<64><<<1, 256>>>(in, sums, ranks);
    cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost);
    check("tiles of 64: the fourth one's sum (192..255)", hs[3], 14304);
    check("no error", cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(in);
    cudaFree(sums);
    cudaFree(ranks);
    return 0;
}
