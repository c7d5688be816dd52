// kernel feature: cudaLaunchKernel launches a kernel by its address with a void ** array of argument pointers
// (the C form with a void * and the C++ form with the kernel pointer), converting each to the parameter's type;
// a host function is not a kernel: 400 (cudaErrorInvalidResourceHandle), as the H200 answered.
#include "check.h"

__global__ void fill(int *a, int n, double scale, char tag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = (int)(i * scale) + tag;
}

static void not_a_kernel(int *, int, double, char) {}

int main(void)
{
    const int n = 1000;
    int *d = NULL, h[n];
    cudaMalloc(&d, n * sizeof(int));
    int count = n;
    double scale = 2.5;
    char tag = 3;
    void *args[] = {&d, &count, &scale, &tag};
    check("cudaLaunchKernel((void *)fill, ...) returns 0",
          cudaLaunchKernel((void *)fill, dim3((n + 127) / 128), dim3(128), args, 0, 0), 0);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != (int)(i * 2.5) + 3;
    check("every element written from the arguments (wrong ones)", bad, 0);
    scale = 1.0;
    tag = 0;
    check("the C++ form with the kernel pointer returns 0", cudaLaunchKernel(fill, dim3(8), dim3(128), args), 0);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("... and wrote i at index 999", h[999], 999);
    check("a host function: 400", cudaLaunchKernel((void *)not_a_kernel, dim3(1), dim3(1), args, 0, 0), 400);
    check("it is the last error", cudaGetLastError(), 400);
    cudaFree(d);
    return 0;
}
