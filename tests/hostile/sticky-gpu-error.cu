// A sticky GPU error: a kernel writes far outside its allocation, then every call fails.
#include <stdio.h>
#include <cuda_runtime.h>
__global__ void scribble(int *p) { p[1 << 28] = 1; }
int main(void)
{
    int *d;
    cudaMalloc(&d, 16);
    scribble<<<1, 1>>>(d);
    printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("then malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 16)));
    return 0;
}
