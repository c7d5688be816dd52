// compile time: cooperative-groups tiles larger than a warp (which sm_80 and later allow) are not provided
// by the CPU backend: refused when compiling with the backend's own message, never a wrong answer.
// test-compile-fails: the CPU backend provides tiles of 1, 2, 4, 8, 16 or 32 threads
// test-gpu: skip (nvcc accepts tiles of 64 threads)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void big_tiles(int *out)
{
    cg::thread_block_tile<64> t = cg::tiled_partition<64>(cg::this_thread_block());
    out[threadIdx.x] = (int)t.thread_rank();
}

int main(void) { return 0; }
