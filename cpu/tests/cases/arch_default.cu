// fact: What nvcc 13.0 builds with no architecture flag: -arch=sm_75 (sm_75 code and compute_75 PTX, as its
// --dryrun shows), which runs on the H200 through its PTX: cudaFuncGetAttributes says binaryVersion 90, ptxVersion 75.
// (ptxVersion 75 on the H200 is still to be measured.)
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
