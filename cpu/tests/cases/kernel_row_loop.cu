// kernel feature: barrier-free kernels, which the CPU backend runs a row of threads per call (cpu/README.md,
// "Speed"): each thread sees the launch's own arguments even when an earlier thread changed its copy, may
// return from inside a loop, and a device function it calls sees its threadIdx; 2-D and 3-D blocks, a block
// whose rows are not a multiple of 32 threads.
#include <stdlib.h>
#include "check.h"

__device__ int lane_of_caller(void) { return threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z; }

// every thread moves its own copy of out and n; the next thread must still get the launch's values
__global__ void shifted_arguments(int *out, int n, int base)
{
    out += blockIdx.x * blockDim.x;
    n -= blockIdx.x * blockDim.x;
    base += threadIdx.x;
    if ((int)threadIdx.x < n) out[threadIdx.x] = base;
}

// returns from inside a loop after threadIdx.x + 1 steps
__global__ void early_return(int *out)
{
    int steps = 0;
    for (int i = 0; i < 64; i++) {
        for (int j = 0; j < 2; j++) {
            if (i == (int)threadIdx.x && j == 1) {
                out[blockIdx.x * blockDim.x + threadIdx.x] = steps;
                return;
            }
            steps++;
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = -1;
}

__global__ void through_device_function(int *out)
{
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    out[blockIdx.x * blockDim.x * blockDim.y * blockDim.z + t] = lane_of_caller();
}

int main(void)
{
    const int n = 1000, blocks = 8, threads = 48;  // 21 blocks of 48 threads for 1000 elements
    int *d, *h = (int *)malloc(4096 * sizeof(int)), bad = 0;
    cudaMalloc(&d, 4096 * sizeof(int));

    cudaMemset(d, 0xff, 4096 * sizeof(int));
    shifted_arguments<<<(n + threads - 1) / threads, threads>>>(d, n, 7);
    cudaMemcpy(h, d, 4096 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += h[i] != 7 + i % threads;
    for (int i = n; i < 4096; i++) bad += h[i] != -1;
    check("each thread gets the launch's arguments, whatever the thread before it did to its copy", bad, 0);

    bad = 0;
    early_return<<<blocks, 50>>>(d);
    cudaMemcpy(h, d, 4096 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < blocks * 50; i++) bad += h[i] != 2 * (i % 50) + 1;
    check("a return from inside a nested loop ends only that thread", bad, 0);

    bad = 0;
    dim3 block(5, 3, 2);
    through_device_function<<<blocks, block>>>(d);
    cudaMemcpy(h, d, 4096 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++)
        for (int z = 0; z < 2; z++)
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 5; x++) bad += h[b * 30 + x + 5 * (y + 3 * z)] != x + 100 * y + 10000 * z;
    check("a device function sees the threadIdx of the thread that called it", bad, 0);
    check("no error", cudaDeviceSynchronize(), 0);
    cudaFree(d);
    free(h);
    return 0;
}
