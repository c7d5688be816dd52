// the memory checker: a read just before the start of a __shared__ array (index -1, from a signed index that
// went one too far down) is reported like one past its end.
// test-sanitizer: --tool memcheck --error-exitcode 86
// test-gpu: skip (the H200's memcheck reported nothing and the kernel ended with 0: s[-1] of the block's first array is still inside its shared window, measured 2026-12-02; this checker is stricter: cpu/README.md)
// test-status: 86
// test-stderr: Invalid __shared__ read of size 4 bytes
// test-stderr: at left_neighbour.* in shared_underrun\.cu:17
// test-stderr: by thread \(0,0,0\) in block \(0,0,0\)
#include "check.h"

__global__ void left_neighbour(int *out)
{
    __shared__ int s[128];
    int i = (int)threadIdx.x;
    s[i] = i;
    __syncthreads();
    out[i] = s[i - 1];
}

int main(void)
{
    int *out = NULL;
    cudaMalloc(&out, 128 * sizeof(int));
    left_neighbour<<<1, 128>>>(out);
    check("the kernel ends with 719 (unspecified launch failure)", cudaDeviceSynchronize(), 719);
    return 0;
}
