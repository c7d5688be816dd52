// the memory checker: extern __shared__ memory is bounded by the launch's size (here 128 floats): a write past
// it is reported, whether through the array itself or through a pointer copied from it (argument "alias":
// under the CPU backend's checker that buffer ends at a closed page, as device allocations do).
// test-args: direct | alias
// test-sanitizer: --tool memcheck --error-exitcode 86
// test-status: 86
// test-stderr: Invalid __shared__ write
// test-stderr: at past_dynamic.* in shared_dynamic_overrun\.cu:17
// test-stderr: by thread \(127,0,0\) in block \(0,0,0\)
#include <string.h>
#include "check.h"

__global__ void past_dynamic(const float *in, int alias)
{
    extern __shared__ float d[];
    float *p = d;
    if (alias) p[threadIdx.x + 1] = in[threadIdx.x]; else d[threadIdx.x + 1] = in[threadIdx.x];
}

int main(int argc, char **argv)
{
    float *in = NULL;
    cudaMalloc(&in, 128 * sizeof(float));
    cudaMemset(in, 0, 128 * sizeof(float));
    past_dynamic<<<1, 128, 128 * sizeof(float)>>>(in, argc > 1 && strcmp(argv[1], "alias") == 0);
    check("the kernel ends with 719 (unspecified launch failure)", cudaDeviceSynchronize(), 719);
    return 0;
}
