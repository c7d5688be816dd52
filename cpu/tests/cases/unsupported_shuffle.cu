// compile time: a device feature the CPU backend cannot emulate (a warp shuffle) is rejected when compiling,
// with a message naming it at the student's line, never a wrong answer at run time.
// test-compile-fails: unsupported_shuffle.cu:11: error: '__shfl_down_sync' is a warp-level primitive
// test-gpu: skip (nvcc compiles warp shuffles)
#include "check.h"

__global__ void warp_sum(int *a)
{
    int v = a[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0) a[0] = v;
}

int main(void)
{
    return 0;
}
