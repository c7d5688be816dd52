// fact: Errors inside kernels: a write just past the end of an allocation (here 4 bytes, and 2 KB) is
// silent on the GPU: no error at all.
#include "check.h"

__global__ void fill_one_too_many(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) p[i] = i;  /* the classic off-by-one */
}

__global__ void write_at(char *p, int offset) { if (threadIdx.x == 0) p[offset] = 1; }

int main(void)
{
    int n = 1000;
    int *d = NULL;
    cudaMalloc(&d, n * sizeof(int));
    fill_one_too_many<<<(n + 256) / 256, 256>>>(d, n);
    check("an off-by-one write goes unnoticed", cudaDeviceSynchronize(), 0);
    write_at<<<1, 1>>>((char *)d, n * (int)sizeof(int) + 2048);
    check("a write 2 KB past the end goes unnoticed", cudaDeviceSynchronize(), 0);
    check("no error is recorded", cudaGetLastError(), 0);
    cudaFree(d);
    return 0;
}
