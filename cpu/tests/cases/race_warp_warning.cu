// the race checker: two lanes of one warp writing the same shared word (in two branches) with no __syncwarp
// between them is a hazard compute-sanitizer ranks as a warning (warp-synchronous code, which Volta and later
// no longer run in lockstep), not an error; a warning still makes the exit status --error-exitcode's (the
// H200's compute-sanitizer exited 86 with "(0 errors, 1 warning)").
// test-sanitizer: --tool racecheck --error-exitcode 86
// test-status: 86
// test-stderr: Warning: Race reported between Write access at lanes_write.* in race_warp_warning\.cu:1[56]
// test-stderr: and Write access at lanes_write.* in race_warp_warning\.cu:1[56] \[[0-9]+ hazards?\]
// test-stderr: RACECHECK SUMMARY: 1 hazard displayed \(0 errors, 1 warning\)
#include "check.h"

__global__ void lanes_write(int *out)
{
    __shared__ int s[1];
    if (threadIdx.x == 0) s[0] = 1;
    else if (threadIdx.x == 1) s[0] = 2;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = s[0];
}

int main(void)
{
    int *out = NULL;
    cudaMalloc(&out, sizeof(int));
    lanes_write<<<1, 64>>>(out);
    check("the kernel runs", cudaDeviceSynchronize(), 0);
    return 0;
}
