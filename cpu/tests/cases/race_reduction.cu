// the race checker: a block reduction missing the __syncthreads inside its loop: a thread reads the partial
// sum another warp's thread writes in the same step, and compute-sanitizer --tool racecheck reports it as an
// error between the two accesses of that line (which of the two came first depends on the schedule).
// test-sanitizer: --tool racecheck --error-exitcode 86
// test-status: 86
// test-stderr: Error: Race reported between (Read|Write) access at reduce_no_sync.* in race_reduction\.cu:16
// test-stderr: and (Read|Write) access at reduce_no_sync.* in race_reduction\.cu:16 \[[0-9]+ hazards?\]
// test-stderr: RACECHECK SUMMARY: [1-9][0-9]* hazards? displayed \([1-9][0-9]* errors?, [0-9]+ warnings?\)
#include "check.h"

__global__ void reduce_no_sync(const int *in, int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main(void)
{
    int *in = NULL, *out = NULL;
    cudaMalloc(&in, 2 * 256 * sizeof(int));
    cudaMalloc(&out, 2 * sizeof(int));
    cudaMemset(in, 0, 2 * 256 * sizeof(int));
    reduce_no_sync<<<2, 256>>>(in, out);
    check("the kernel runs (the race does not stop it)", cudaDeviceSynchronize(), 0);
    return 0;
}
