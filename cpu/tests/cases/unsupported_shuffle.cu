// compile time: the warp shuffles without a mask that CUDA 9 deprecated (nvcc 13 refuses them for sm_70 and
// later) are rejected when compiling, with a message naming the _sync form at the student's line.
// test-compile-fails: unsupported_shuffle.cu:11: error: '__shfl_down' is a warp primitive CUDA removed
// test-gpu: skip (nvcc's own message differs: "identifier __shfl_down is undefined")
#include "check.h"

__global__ void warp_sum(int *a)
{
    int v = a[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    if (threadIdx.x == 0) a[0] = v;
}

int main(void)
{
    return 0;
}
