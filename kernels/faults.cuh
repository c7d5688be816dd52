// Device code that fails on purpose, for lesson 04: a kernel that writes far out of
// bounds and one whose assert fails. Students call these kernels to see sticky errors;
// they do not edit them. Both wait before failing, so that the host has long since
// returned from the launch and its check: the error then surfaces at the next
// synchronizing call every time, never earlier by luck of timing.
#ifndef CUDAWB_FAULTS_CUH
#define CUDAWB_FAULTS_CUH

#include <assert.h>
#include <stddef.h>

// About 10 ms of clock64() ticks on an H200 (its SMs run near 2 GHz); far
// longer than a launch takes.
#define FAULT_DELAY_TICKS 20000000LL

// Spins for about `ticks` clock64() ticks.
__device__ void fault_delay(long long ticks)
{
    long long start = clock64();
    while (clock64() - start < ticks) {
    }
}

// After a delay, thread 0 of block 0 writes value to d[index]. Given an index 16 GiB past
// the end of d, the write leaves the memory mapped for the process: the GPU stops the
// kernel and the context is lost (700).
__global__ void write_at(float *d, size_t index, float value, long long delay)
{
    fault_delay(delay);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        d[index] = value;
}

// After a delay, thread 0 of block 0 asserts that d[0] equals value. A failed device
// assert prints "file:line: function: block: [0,0,0], thread: [0,0,0] Assertion `expr`
// failed." and loses the context (710).
__global__ void assert_first_is(const float *d, float value, long long delay)
{
    fault_delay(delay);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        assert(d[0] == value);
}

#endif
