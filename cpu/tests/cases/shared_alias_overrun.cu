// the memory checker: a write past a __shared__ array through a pointer the kernel took from it (int *p = s)
// is reported like one through the array's own name: the pointer is bounded by the array it points into.
// test-sanitizer: --tool memcheck --error-exitcode 86
// test-status: 86
// test-stderr: Invalid __shared__ write of size 4 bytes
// test-stderr: at shifted.* in shared_alias_overrun\.cu:14
// test-stderr: by thread \(63,0,0\) in block \(0,0,0\)
#include "check.h"

__global__ void shifted(int *out)
{
    __shared__ int s[64];
    int *p = s;
    p[threadIdx.x + 1] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

int main(void)
{
    int *out = NULL;
    cudaMalloc(&out, 64 * sizeof(int));
    shifted<<<1, 64>>>(out);
    check("the kernel ends with 719 (unspecified launch failure)", cudaDeviceSynchronize(), 719);
    return 0;
}
