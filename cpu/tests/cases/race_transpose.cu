// the race checker: a tiled transpose without the barrier between the tile's writes and its reads: each
// thread reads the element another warp's thread writes, an error in compute-sanitizer --tool racecheck.
// test-sanitizer: --tool racecheck
// test-stderr: Error: Race reported between (Read|Write) access at transpose_no_barrier.* in race_transpose\.cu:1[45]
// test-stderr: and (Read|Write) access at transpose_no_barrier.* in race_transpose\.cu:1[45] \[[0-9]+ hazards?\]
// test-stderr: RACECHECK SUMMARY: [1-9][0-9]* hazards? displayed \([1-9][0-9]* errors?, [0-9]+ warnings?\)
#include "check.h"

__global__ void transpose_no_barrier(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

int main(void)
{
    const int n = 64;
    float *in = NULL, *out = NULL;
    cudaMalloc(&in, n * n * sizeof(float));
    cudaMalloc(&out, n * n * sizeof(float));
    cudaMemset(in, 0, n * n * sizeof(float));
    transpose_no_barrier<<<dim3(2, 2), dim3(32, 32)>>>(in, out, n);
    check("the kernel runs (the race does not stop it)", cudaDeviceSynchronize(), 0);
    return 0;
}
