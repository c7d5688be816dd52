// fact: Errors inside kernels: a failing device assert gives 710 cudaErrorAssert at the next synchronizing
// call, sticky; the device prints "file:line: function: block: [0,0,0], thread: [0,0,0] Assertion `expr` failed.",
// the function as nvcc spells it ("void testKernel(int)" in cuda-samples' simpleAssert on the H200).
// test-stderr: sticky_assert.cu:[0-9]+: void check_positive\(int\): block: \[1,0,0\], thread: \[3,0,0\] Assertion `value > 0` failed\.
#include <assert.h>
#include "check.h"

__global__ void check_positive(int value)
{
    if (blockIdx.x == 1 && threadIdx.x == 3) assert(value > 0);
}

int main(void)
{
    int *d = NULL;
    check_positive<<<2, 32>>>(-1);
    check("the launch reports nothing", cudaGetLastError(), 0);
    fflush(stdout);
    check("the next synchronize returns 710", cudaDeviceSynchronize(), cudaErrorAssert);
    check("cudaMalloc then returns 710 (sticky)", cudaMalloc(&d, 16), 710);
    check("cudaGetLastError returns 710", cudaGetLastError(), 710);
    check("then 0", cudaGetLastError(), 0);
    return 0;
}
