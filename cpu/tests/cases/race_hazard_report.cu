// the race checker: with --racecheck-report hazard every hazard is reported on its own, naming the block,
// the byte of shared memory, and both threads with their access and line: here thread 0 writes a flag that
// thread 32 (another warp) reads with no barrier between them.
// test-sanitizer: --tool racecheck --racecheck-report hazard
// test-gpu: skip (the H200's racecheck reported no hazard for this kernel, "0 hazards displayed", measured 2026-12-02; this checker reports it: cpu/README.md, not identical)
// test-stderr: (Error|ERROR): Potential (RAW|WAR) hazard detected at __shared__ 0x[0-9a-f]+ in block \(0, ?0, ?0\) :
// test-stderr: (Write|Read) Thread \(0, ?0, ?0\) at flag_no_barrier.* in race_hazard_report\.cu:1[45]
// test-stderr: (Write|Read) Thread \(32, ?0, ?0\) at flag_no_barrier.* in race_hazard_report\.cu:1[45]
#include "check.h"

__global__ void flag_no_barrier(int *out)
{
    __shared__ int ready;
    if (threadIdx.x == 0) ready = 1;
    if (threadIdx.x == 32) out[0] = ready;
}

int main(void)
{
    int *out = NULL;
    cudaMalloc(&out, sizeof(int));
    flag_no_barrier<<<1, 64>>>(out);
    check("the kernel runs", cudaDeviceSynchronize(), 0);
    return 0;
}
