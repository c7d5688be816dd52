// fact: No GPU: a binary built for an architecture the device lacks (here sm_100 on the H200) fails its launches
// with 209 cudaErrorNoKernelImageForDevice "no kernel image is available for execution on the device".
// test-arch: sm_100
#include <string.h>
#include "check.h"

__global__ void noop(int *p) { if (p != NULL) p[0] = 1; }

int main(void)
{
    noop<<<1, 1>>>(NULL);
    cudaError_t e = cudaGetLastError();
    check("the launch fails with 209", e, cudaErrorNoKernelImageForDevice);
    check("its string is \"no kernel image is available for execution on the device\"",
          strcmp(cudaGetErrorString(e), "no kernel image is available for execution on the device"), 0);
    return 0;
}
