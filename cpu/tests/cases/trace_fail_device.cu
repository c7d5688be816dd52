// the grader interface: CUDAWB_FAIL_DEVICE=35 makes the machine one without a driver, from the first call
// (every call 35, the error-state reads too; cudaDriverGetVersion answers 0, cudaRuntimeGetVersion 13000), on
// either backend: the trace does it, so that lesson 00 grades a program's answer to "no driver" on a GPU too.
// test-env: CUDAWB_FAIL_DEVICE=35
// test-gpu: skip (the trace's injection: gpu-compare.sh builds without the trace)
// test-report: ^call n=1 fn=cudaGetDeviceCount class=op status=35 .*injected=1
// test-report: fn=cudaDriverGetVersion class=query status=0 .*version=0
#include <string.h>
#include "check.h"

int main(void)
{
    int n = -1, runtime = 0, driver = -1, *d = NULL;
    cudaError_t e = cudaGetDeviceCount(&n);
    check("cudaGetDeviceCount returns 35", e, 35);
    check("its string is \"CUDA driver version is insufficient for CUDA runtime version\"",
          strcmp(cudaGetErrorString(e), "CUDA driver version is insufficient for CUDA runtime version"), 0);
    check("... and leaves the count as it was", n, -1);
    check("cudaMalloc returns 35", cudaMalloc((void **)&d, 16), 35);
    check("cudaGetLastError returns 35", cudaGetLastError(), 35);
    check("cudaRuntimeGetVersion returns 0", cudaRuntimeGetVersion(&runtime), 0);
    check("... and 13000", runtime, 13000);
    check("cudaDriverGetVersion returns 0", cudaDriverGetVersion(&driver), 0);
    check("... and 0: no driver", driver, 0);
    return 0;
}
