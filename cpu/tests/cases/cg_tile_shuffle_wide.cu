// cooperative groups: a tile's shuffles move values wider than 8 bytes (a uint4, a 24-byte struct), as
// cuda-samples' shfl_scan does with tile.shfl_xor(uint4, lanes); the raw __shfl_sync stays at 8 bytes.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

struct triple { double a, b, c; };

__global__ void wide(uint4 *out4, triple *out3)
{
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned r = tile.thread_rank();
    uint4 v = make_uint4(r, r * 10, r * 100, r * 1000);
    v = tile.shfl_xor(v, 3);
    triple t = {r + 0.5, 2.0 * r, -1.0 * r};
    triple down = tile.shfl_down(t, 1), up = tile.shfl_up(t, 2), from = tile.shfl(t, 7);
    out4[r] = v;
    out3[r] = triple{down.a, up.b, from.c};
}

int main(void)
{
    uint4 *d4 = NULL, h4[32];
    triple *d3 = NULL, h3[32];
    cudaMalloc(&d4, sizeof h4);
    cudaMalloc(&d3, sizeof h3);
    wide<<<1, 32>>>(d4, d3);
    cudaMemcpy(h4, d4, sizeof h4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h3, d3, sizeof h3, cudaMemcpyDeviceToHost);
    check("shfl_xor of a uint4: lane 5 gets lane 6's .x", h4[5].x, 6);
    check("shfl_xor of a uint4: lane 5 gets lane 6's .w", h4[5].w, 6000);
    check("shfl_down of a struct: lane 4 gets lane 5's .a (x2)", (long long)(h3[4].a * 2), 11);
    check("shfl_down of a struct: the last lane keeps its own .a (x2)", (long long)(h3[31].a * 2), 63);
    check("shfl_up of a struct: lane 9 gets lane 7's .b", (long long)h3[9].b, 14);
    check("shfl of a struct: every lane gets lane 7's .c", (long long)h3[20].c, -7);
    check("no launch error", cudaGetLastError(), cudaSuccess);
    cudaFree(d4);
    cudaFree(d3);
    return 0;
}
