// fact: Which builds run on the H200: -arch=sm_80 holds sm_80 code and compute_80 PTX; the driver compiles the
// PTX for 9.0, the kernel runs, and cudaFuncGetAttributes says binaryVersion 90, ptxVersion 80.
// test-flags: -arch=sm_80
#include "check.h"

__global__ void set_one(int *p) { p[0] = 1; }

int main(void)
{
    struct cudaFuncAttributes fa;
    int *d = NULL, v = 0;
    check("cudaFuncGetAttributes returns 0", cudaFuncGetAttributes(&fa, set_one), 0);
    check("binaryVersion is 90", fa.binaryVersion, 90);
    check("ptxVersion is 80", fa.ptxVersion, 80);
    check("cudaMalloc works", cudaMalloc((void **)&d, sizeof(int)), 0);
    set_one<<<1, 1>>>(d);
    check("the launch returns 0", cudaGetLastError(), 0);
    check("the synchronize returns 0", cudaDeviceSynchronize(), 0);
    check("the copy back works", cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost), 0);
    check("the kernel ran", v, 1);
    check("cudaFree works", cudaFree(d), 0);
    return 0;
}
