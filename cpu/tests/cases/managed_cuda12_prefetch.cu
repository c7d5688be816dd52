// compile time: CUDA 12's cudaMemPrefetchAsync(p, bytes, device, stream) does not compile with nvcc 13 (a
// device number is no cudaMemLocation), so it must not compile here either: older course code breaks here.
// test-compile-fails: managed_cuda12_prefetch\.cu(:|\()18(:[0-9]+:|\):) error: .*int.*cudaMemLocation
#include "check.h"

__global__ void add_one(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}

int main(void)
{
    float *m = NULL;
    int device = 0;
    cudaGetDevice(&device);
    cudaMallocManaged(&m, 1024 * sizeof(float));
    cudaMemPrefetchAsync(m, 1024 * sizeof(float), device, 0);
    add_one<<<4, 256>>>(m, 1024);
    cudaDeviceSynchronize();
    cudaFree(m);
    return 0;
}
