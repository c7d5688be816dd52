// fact: No GPU: with CUDA_VISIBLE_DEVICES="" every runtime call returns 100 cudaErrorNoDevice.
// test-env: CUDA_VISIBLE_DEVICES=
#include <string.h>
#include "check.h"

int main(void)
{
    int *d = NULL, n = -1;
    cudaError_t e = cudaMalloc(&d, 16);
    check("cudaMalloc returns 100", e, cudaErrorNoDevice);
    check("its string is \"no CUDA-capable device is detected\"",
          strcmp(cudaGetErrorString(e), "no CUDA-capable device is detected"), 0);
    check("cudaGetDeviceCount returns 100", cudaGetDeviceCount(&n), 100);
    check("cudaDeviceSynchronize returns 100", cudaDeviceSynchronize(), 100);
    return 0;
}
