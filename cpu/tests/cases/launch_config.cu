// fact: Launches: <<<1,1024>>> gives 0 from cudaGetLastError; grid.x = 65536 gives 0.
// fact: Launches: more than 1024 threads (1025, 2048, 32x32x2), block z > 64, grid 0, grid.y = 65536,
// dynamic shared memory over 48 KiB without opt-in, 300 KiB: 1 cudaErrorInvalidValue (older toolkits: 9).
// fact: Launches: 64 KiB of dynamic shared memory after cudaFuncSetAttribute(MaxDynamicSharedMemorySize) gives 0.
// fact: Launches: a launch error is not reported by the next cudaDeviceSynchronize or cudaMemcpy (both 0);
// only cudaGetLastError/cudaPeekAtLastError see it, once.
#include "check.h"

__global__ void noop(int *p)
{
    if (p != NULL && threadIdx.x == 0 && blockIdx.x == 0) p[0] = 1;
}

__global__ void big_shared(int *p)
{
    extern __shared__ int s[];
    s[threadIdx.x] = 1;
    if (p != NULL) p[0] = s[0];
}

int main(void)
{
    int *d = NULL, h = 0;
    cudaMalloc(&d, sizeof(int));
    noop<<<1, 1024>>>(d);
    check("<<<1,1024>>> gives 0", cudaGetLastError(), 0);
    noop<<<65536, 1>>>(d);
    check("grid.x = 65536 gives 0", cudaGetLastError(), 0);
    noop<<<1, 1025>>>(d);
    check_launch_error("1025 threads per block gives 1", cudaGetLastError());
    noop<<<1, 2048>>>(d);
    check_launch_error("2048 threads per block gives 1", cudaGetLastError());
    noop<<<1, dim3(32, 32, 2)>>>(d);
    check_launch_error("32x32x2 threads per block gives 1", cudaGetLastError());
    noop<<<1, dim3(1, 1, 65)>>>(d);
    check_launch_error("block z = 65 gives 1", cudaGetLastError());
    noop<<<0, 1>>>(d);
    check_launch_error("grid 0 gives 1", cudaGetLastError());
    noop<<<dim3(1, 65536), 1>>>(d);
    check_launch_error("grid.y = 65536 gives 1", cudaGetLastError());
    big_shared<<<1, 1, 49 * 1024>>>(d);
    check_launch_error("49 KiB dynamic shared memory without opt-in gives 1", cudaGetLastError());
    big_shared<<<1, 1, 300 * 1024>>>(d);
    check_launch_error("300 KiB dynamic shared memory gives 1", cudaGetLastError());
    check("cudaFuncSetAttribute(65536) returns 0",
          cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536), 0);
    big_shared<<<1, 1, 64 * 1024>>>(d);
    check("64 KiB after opt-in gives 0", cudaGetLastError(), 0);

    noop<<<1, 1025>>>(d);
    check("after a bad launch, cudaDeviceSynchronize returns 0", cudaDeviceSynchronize(), 0);
    check("... and cudaMemcpy returns 0", cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost), 0);
    check_launch_error("cudaPeekAtLastError sees the launch error", cudaPeekAtLastError());
    check_launch_error("cudaGetLastError sees it", cudaGetLastError());
    check("once", cudaGetLastError(), 0);
    cudaFree(d);
    return 0;
}
