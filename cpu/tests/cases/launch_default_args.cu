// kernel feature: a kernel's default arguments, left out at the launch (cuda-samples' shfl_scan launches
// shfl_scan_test(data, width) with partial_sums = NULL): the kernel sees the defaults, as with nvcc.
#include <stddef.h>
#include "check.h"

#define STEP 7
__global__ void add(int *a, int n, int v = STEP * 2, int *calls = NULL)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += v;
    if (calls && i == 0) atomicAdd(calls, 1);
}

namespace wb {
__global__ void fill(int *a, int v = -1);  // the defaults on a prototype; the definition below
__global__ void fill(int *a, int v) { a[threadIdx.x] = v; }
}

template <class T> __global__ void scale(T *a, T by = T(3)) { a[threadIdx.x] *= by; }

int main(void)
{
    int *a = NULL, *calls = NULL, h[32];
    cudaMalloc(&a, sizeof h);
    cudaMalloc(&calls, sizeof(int));
    cudaMemset(a, 0, sizeof h);
    cudaMemset(calls, 0, sizeof(int));
    add<<<1, 32>>>(a, 32);
    add<<<1, 32>>>(a, 32, 1);
    add<<<1, 32>>>(a, 32, 100, calls);
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
    check("two arguments of four: v = 14 and no counter; then v = 1; then v = 100", h[31], 115);
    int n = 0;
    cudaMemcpy(&n, calls, sizeof n, cudaMemcpyDeviceToHost);
    check("the counter given only once counts once", n, 1);
    wb::fill<<<1, 32>>>(a);
    scale<<<1, 32>>>(a);
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
    check("a default on the prototype (-1), then a template's (3)", h[5], -3);
    check("no launch error", cudaGetLastError(), cudaSuccess);
    cudaFree(a);
    cudaFree(calls);
    return 0;
}
