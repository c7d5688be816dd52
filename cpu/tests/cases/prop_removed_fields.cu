// compile time: cudaDeviceProp's fields that CUDA 13.0 removed (clockRate, memoryClockRate, deviceOverlap,
// kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear, cooperativeMultiDeviceLaunch) do not compile,
// as with nvcc 13; their values remain device attributes (cudaDevAttrClockRate...).
// test-compile-fails: no member.*clockRate
#include <stdio.h>

int main(void)
{
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("%d %d %d %d %d %d %d\n", p.clockRate, p.memoryClockRate, p.deviceOverlap, p.kernelExecTimeoutEnabled,
           p.computeMode, p.maxTexture1DLinear, p.cooperativeMultiDeviceLaunch);
    return 0;
}
