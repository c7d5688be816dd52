// fact: Errors inside kernels: after cudaDeviceReset in a process with a sticky 700, the reset returns 0;
// then cudaGetLastError returns 700, and cudaMalloc / a launch / a synchronize return 46
// cudaErrorDevicesUnavailable.
#include "check.h"

__global__ void write_null(int *p) { p[threadIdx.x] = 1; }

int main(void)
{
    int *d = NULL;
    write_null<<<1, 1>>>((int *)NULL);
    check("the synchronize returns 700", cudaDeviceSynchronize(), 700);
    check("cudaDeviceReset returns 0", cudaDeviceReset(), 0);
    check("cudaGetLastError returns 700", cudaGetLastError(), 700);
    check("cudaMalloc returns 46", cudaMalloc(&d, 16), cudaErrorDevicesUnavailable);
    write_null<<<1, 1>>>(d);
    check("a launch gives 46", cudaGetLastError(), 46);
    check("a synchronize returns 46", cudaDeviceSynchronize(), 46);
    return 0;
}
