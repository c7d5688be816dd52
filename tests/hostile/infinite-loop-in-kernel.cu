// An infinite loop in a kernel, waited for.
#include <cuda_runtime.h>
__global__ void forever(volatile int *flag)
{
    while (*flag == 0) {
    }
}
int main(void)
{
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    forever<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
    return 0;
}
