// fact: compute-sanitizer memcheck on a correct program reports "ERROR SUMMARY: 0 errors" and keeps the
// program's exit status.
// test-sanitizer: --tool memcheck --leak-check full --error-exitcode 9
// test-stderr: ERROR SUMMARY: 0 errors
#include "check.h"

__global__ void fill(int *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) p[i] = i;
}

int main(void)
{
    int n = 1000, last = 0;
    int *d = NULL;
    cudaMalloc(&d, n * sizeof(int));
    fill<<<2, 128>>>(d, n);
    cudaMemcpy(&last, d + n - 1, sizeof last, cudaMemcpyDeviceToHost);
    check("the kernel wrote every element", last, n - 1);
    cudaFree(d);
    return 0;
}
