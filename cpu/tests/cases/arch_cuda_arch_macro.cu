// fact: which architecture device code is compiled for: __CUDA_ARCH__ in a kernel is 900 in an
// -arch=native build for the H200, so code behind "#if __CUDA_ARCH__ >= 700" is there (nvcc's device pass;
// cuda-samples' simpleAWBarrier keeps its whole kernel behind it).
#include "check.h"

__global__ void arch(int *out)
{
#ifdef __CUDA_ARCH__
    out[0] = __CUDA_ARCH__;
#else
    out[0] = -1;
#endif
#if __CUDA_ARCH__ >= 700
    out[1] = 1;
#else
    out[1] = 0;
#endif
}

int main(void)
{
    int *d = NULL, h[2] = {0, 0};
    cudaMalloc(&d, sizeof h);
    arch<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("__CUDA_ARCH__ in a kernel built with -arch=native", h[0], 900);
    check("#if __CUDA_ARCH__ >= 700 keeps the kernel's code", h[1], 1);
    cudaFree(d);
    return 0;
}
