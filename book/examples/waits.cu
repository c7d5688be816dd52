// Worked example for chapter 03: three ways the host waits for a kernel before it reads
// what the kernel wrote.
//
//   waits   squares 0..999 on the device; reads them after a blocking copy, after
//           cudaDeviceSynchronize (managed memory), and prints from the device
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract).
#include <stdio.h>
#include <cuda_runtime.h>

#include "example.cuh"

#define N 1000

__global__ void squares(int *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = i * i;
}

__global__ void say_sum(const int *d, int n)
{
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += d[i];
    printf("device: the squares of 0..%d sum to %lld\n", n - 1, sum);
}

int main(void)
{
    int *d_sq = NULL, *m_sq = NULL; // device memory; managed memory
    int h_sq[N];
    size_t bytes = N * sizeof(int);
    int status = 1;

    if (check_call("cudaMalloc", bytes, cudaMalloc((void **)&d_sq, bytes)) ||
        check_call("cudaMallocManaged", bytes, cudaMallocManaged((void **)&m_sq, bytes)))
        goto cleanup;

    // region: blocking-copy
    squares<<<(N + 255) / 256, 256>>>(d_sq, N);
    // The plain cudaMemcpy waits for the kernel queued before it, then copies.
    if (check_call("kernel launch", 0, cudaGetLastError()) ||
        check_call("cudaMemcpy", bytes,
                   cudaMemcpy(h_sq, d_sq, bytes, cudaMemcpyDeviceToHost)))
        goto cleanup;
    printf("after cudaMemcpy: h_sq[%d] = %d\n", N - 1, h_sq[N - 1]);
    // end region: blocking-copy

    // region: managed
    squares<<<(N + 255) / 256, 256>>>(m_sq, N);
    // No copy to wait for: the host reads the same pointer, so it waits for the device.
    if (check_call("kernel launch", 0, cudaGetLastError()) ||
        check_call("cudaDeviceSynchronize", 0, cudaDeviceSynchronize()))
        goto cleanup;
    printf("after cudaDeviceSynchronize: m_sq[%d] = %d\n", N - 1, m_sq[N - 1]);
    // end region: managed

    // region: printf
    fflush(stdout); // the host's lines first, however the runtime writes the device's
    say_sum<<<1, 1>>>(m_sq, N);
    // Device printf fills a buffer that the host prints at the next synchronizing call.
    if (check_call("kernel launch", 0, cudaGetLastError()) ||
        check_call("cudaDeviceSynchronize", 0, cudaDeviceSynchronize()))
        goto cleanup;
    // end region: printf
    status = 0;

cleanup:
    cudaFree(m_sq);
    cudaFree(d_sq);
    return status;
}
