// compile time: a cooperative-groups tile larger than a warp (which sm_80 and later allow) has sync, its
// ranks and cg::reduce on the CPU backend (cg_multi_warp_tiles.cu); its shuffles and votes are refused when
// compiling, with the backend's own message, never a wrong answer.
// test-compile-fails: the CPU backend gives a tile of more than 32 threads sync, ranks and cg::reduce only
// test-gpu: skip (nvcc accepts a shuffle over a tile of 64 threads)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void big_tiles(int *out)
{
    cg::thread_block_tile<64> t = cg::tiled_partition<64>(cg::this_thread_block());
    out[threadIdx.x] = t.shfl((int)t.thread_rank(), 0);
}

int main(void) { return 0; }
