// fact: Occupancy: cudaOccupancyMaxActiveBlocksPerMultiprocessor answers the H200's limits for a kernel
// with few registers: 2048 threads per SM counted in whole warps (256 threads: 8 blocks; 1024: 2; 96: 21),
// and no more than 32 blocks (32 threads: 32). (Not yet compared on the H200.)
#include "check.h"

__global__ void touch(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

static long long blocks(int threads)
{
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, touch, threads, 0);
    return e == cudaSuccess ? n : -1000 - (long long)e;
}

int main(void)
{
    check("256 threads: 8 blocks per SM", blocks(256), 8);
    check("1024 threads: 2 blocks per SM", blocks(1024), 2);
    check("96 threads: 21 blocks per SM", blocks(96), 21);
    check("32 threads: 32 blocks per SM", blocks(32), 32);
    return 0;
}
