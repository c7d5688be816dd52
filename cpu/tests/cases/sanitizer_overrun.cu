// fact: Errors inside kernels: compute-sanitizer memcheck reports the small overrun the GPU ignores (and,
// with --leak-check full, the allocation left live): the program exits with --error-exitcode.
// test-sanitizer: --tool memcheck --leak-check full --error-exitcode 9
// test-status: 9
// test-stderr: Invalid __global__ write
// test-stderr: ERROR SUMMARY: [1-9][0-9]* errors?
#include "check.h"

__global__ void fill_one_too_many(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) p[i] = i;
}

int main(void)
{
    int n = 1000;
    int *d = NULL, *leaked = NULL;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&leaked, 64);
    fill_one_too_many<<<(n + 255) / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
