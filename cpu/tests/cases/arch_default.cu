// fact: What nvcc 13.0 builds with no architecture flag: taken to be -arch=sm_75 (sm_75 code and compute_75
// PTX), which runs on the H200 through its PTX: cudaFuncGetAttributes says binaryVersion 90, ptxVersion 75.
// To be measured: a different ptxVersion on the H200 means bin/nvcc-cpu's default must follow it.
// test-flags: none
#include "check.h"

__global__ void set_one(int *p) { p[0] = 1; }

int main(void)
{
    struct cudaFuncAttributes fa;
    check("cudaFuncGetAttributes returns 0", cudaFuncGetAttributes(&fa, set_one), 0);
    check("binaryVersion is 90", fa.binaryVersion, 90);
    check("ptxVersion is 75", fa.ptxVersion, 75);
    return 0;
}
