// fact: No GPU: CUDA_VISIBLE_DEVICES naming a device that is not there (3) hides the H200: cudaGetDeviceCount
// returns 100 and leaves the count as it was (measured on the H200: -1 stayed -1), every call 100; cudaRuntimeGetVersion and cudaDriverGetVersion still answer.
// test-env: CUDA_VISIBLE_DEVICES=3
#include "check.h"

int main(void)
{
    int n = -1, v = 0, runtime = 0, driver = 0;
    check("cudaGetDeviceCount returns 100", cudaGetDeviceCount(&n), 100);
    check("... and leaves the count as it was", n, -1);
    check("cudaDeviceGetAttribute returns 100", cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), 100);
    check("cudaRuntimeGetVersion returns 0", cudaRuntimeGetVersion(&runtime), 0);
    check("cudaDriverGetVersion returns 0", cudaDriverGetVersion(&driver), 0);
    check("... and 13000", driver, 13000);
    return 0;
}
