// fact: Which builds run on the H200: -gencode arch=compute_80,code=sm_80 (sm_80 code, no PTX) cannot run on
// compute capability 9.0: the launch returns 209, reported once by cudaGetLastError and not sticky (the
// synchronize after it returns 0, the next allocation works); cudaFuncGetAttributes on the kernel returns 209.
// test-flags: -gencode=arch=compute_80,code=sm_80
#include "check.h"

__global__ void set_one(int *p) { p[0] = 1; }

int main(void)
{
    struct cudaFuncAttributes fa;
    int *d = NULL, v = 0;
    check("cudaFuncGetAttributes on the kernel returns 209", cudaFuncGetAttributes(&fa, set_one), 209);
    check("... and leaves it as the last error", cudaGetLastError(), 209);
    check("cudaMalloc works", cudaMalloc((void **)&d, sizeof(int)), 0);
    check("cudaMemset works", cudaMemset(d, 0, sizeof(int)), 0);
    set_one<<<1, 1>>>(d);
    check("the launch: cudaPeekAtLastError returns 209", cudaPeekAtLastError(), 209);
    check("the synchronize after it returns 0", cudaDeviceSynchronize(), 0);
    check("cudaGetLastError then returns 209", cudaGetLastError(), 209);
    check("and then 0: not sticky", cudaGetLastError(), 0);
    check("the copy back works", cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost), 0);
    check("the kernel did not run: the value is still 0", v, 0);
    check("cudaFree works", cudaFree(d), 0);
    return 0;
}
