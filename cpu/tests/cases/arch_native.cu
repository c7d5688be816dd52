// fact: Which builds run on the H200: -arch=native builds for the device itself: cudaFuncGetAttributes says
// binaryVersion 90 and ptxVersion 90. The runtime and the driver are CUDA 13.0: cudaRuntimeGetVersion and
// cudaDriverGetVersion both give 13000 (to be measured on the H200, driver 580.159).
#include "check.h"

__global__ void set_one(int *p) { p[0] = 1; }

int main(void)
{
    struct cudaFuncAttributes fa;
    int runtime = 0, driver = 0;
    check("cudaFuncGetAttributes returns 0", cudaFuncGetAttributes(&fa, set_one), 0);
    check("binaryVersion is 90", fa.binaryVersion, 90);
    check("ptxVersion is 90", fa.ptxVersion, 90);
    check("cudaRuntimeGetVersion returns 0", cudaRuntimeGetVersion(&runtime), 0);
    check("... and 13000", runtime, 13000);
    check("cudaDriverGetVersion returns 0", cudaDriverGetVersion(&driver), 0);
    check("... and 13000", driver, 13000);
    return 0;
}
