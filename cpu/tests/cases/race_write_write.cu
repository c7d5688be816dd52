// the race checker: two threads of different warps write the same shared word with no barrier between them:
// a write-after-write hazard, an error, reported once for the pair of lines (here one line, in both blocks).
// test-sanitizer: --tool racecheck --error-exitcode 86
// test-status: 86
// test-stderr: Error: Race reported between Write access at both_write.* in race_write_write\.cu:16
// test-stderr: and Write access at both_write.* in race_write_write\.cu:16 \[[0-9]+ hazards?\]
// test-stderr: RACECHECK SUMMARY: [1-9][0-9]* hazards? displayed \([1-9][0-9]* errors?, 0 warnings\)
#include "check.h"

// both blocks: threads 0 and 64 (warps 0 and 2) write s[0]; after the barrier thread 0 reads it
__global__ void both_write(int *out)
{
    __shared__ int s[4];
    if (threadIdx.x == 0) s[1] = 0;
    __syncthreads();
    if (threadIdx.x % 64 == 0) s[0] = (int)threadIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[1];
}

int main(void)
{
    int *out = NULL;
    cudaMalloc(&out, 2 * sizeof(int));
    both_write<<<2, 128>>>(out);
    check("the kernel runs (the race does not stop it)", cudaDeviceSynchronize(), 0);
    return 0;
}
