// fact: Errors inside kernels: a write 16 GiB past an allocation, through NULL, or to a pageable host
// pointer gives 700 cudaErrorIllegalAddress "an illegal memory access was encountered" at the next
// synchronizing call; afterwards every runtime call returns 700 (cudaMalloc, cudaMemcpy, launches,
// cudaFree); cudaGetLastError returns 700 once, then 0, but calls still fail.
// test-args: far | null | host
#include <stdlib.h>
#include <string.h>
#include "check.h"

__global__ void write_at(int *p, long long index)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) p[index] = 42;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "far";
    int *d = NULL, *d2 = NULL, h = 0;
    cudaMalloc(&d, 1024);
    if (strcmp(how, "far") == 0) write_at<<<1, 32>>>(d, (16LL << 30) / (long long)sizeof(int));
    else if (strcmp(how, "null") == 0) write_at<<<1, 32>>>((int *)NULL, 0);
    else write_at<<<1, 32>>>((int *)malloc(64), 0);
    check("the launch itself reports nothing", cudaGetLastError(), 0);
    cudaError_t e = cudaDeviceSynchronize();
    check("the next synchronize returns 700", e, cudaErrorIllegalAddress);
    check("its string is \"an illegal memory access was encountered\"",
          strcmp(cudaGetErrorString(e), "an illegal memory access was encountered"), 0);
    check("cudaMalloc then returns 700", cudaMalloc(&d2, 16), 700);
    check("cudaMemcpy returns 700", cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost), 700);
    write_at<<<1, 1>>>(d, 0);
    check("a launch returns 700 through cudaGetLastError", cudaGetLastError(), 700);
    check("cudaFree returns 700", cudaFree(d), 700);
    check("cudaGetLastError returns 700", cudaGetLastError(), 700);
    check("then 0", cudaGetLastError(), 0);
    check("but calls still fail", cudaDeviceSynchronize(), 700);
    return 0;
}
