// fact: Synchronization: cudaStreamQuery / cudaEventQuery after a synchronize return 0;
// cudaEventElapsedTime with an unrecorded event returns 400 cudaErrorInvalidResourceHandle;
// cudaSetDevice(99) returns 101 cudaErrorInvalidDevice.
#include "check.h"

__global__ void work(int *p) { p[threadIdx.x] = threadIdx.x; }

int main(void)
{
    cudaStream_t s;
    cudaEvent_t a, b, never;
    int *d = NULL;
    float ms = -1;
    cudaMalloc(&d, 256 * sizeof(int));
    cudaStreamCreate(&s);
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventCreate(&never);
    cudaEventRecord(a, s);
    work<<<1, 256, 0, s>>>(d);
    cudaEventRecord(b, s);
    cudaDeviceSynchronize();
    check("cudaStreamQuery after a synchronize returns 0", cudaStreamQuery(s), 0);
    check("cudaEventQuery after a synchronize returns 0", cudaEventQuery(b), 0);
    check("cudaEventElapsedTime of recorded events returns 0", cudaEventElapsedTime(&ms, a, b), 0);
    check("... and a time >= 0", ms >= 0.0f, 1);
    check("cudaEventElapsedTime with an unrecorded event returns 400",
          cudaEventElapsedTime(&ms, a, never), cudaErrorInvalidResourceHandle);
    check("cudaSetDevice(99) returns 101", cudaSetDevice(99), cudaErrorInvalidDevice);
    check("cudaSetDevice(0) returns 0", cudaSetDevice(0), 0);
    cudaGetLastError();
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaEventDestroy(never);
    cudaStreamDestroy(s);
    cudaFree(d);
    return 0;
}
