// Worked example for chapter 03: wait for one stream, or for a mark in it, and give
// streams and events back.
//
//   streams   numbers a buffer on one stream and reads it, then on another stream,
//             behind an event
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract).
#include <stdio.h>
#include <cuda_runtime.h>

#include "example.cuh"

#define N 4096

__global__ void number(int *d, int n, int first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = first + i;
}

int main(void)
{
    cudaStream_t work = NULL, other = NULL;
    cudaEvent_t copied = NULL;
    int *d_ids = NULL, *h_ids = NULL; // h_ids is pinned: an async copy into it is async
    size_t bytes = N * sizeof(int);
    int status = 1;

    if (check_call("cudaMalloc", bytes, cudaMalloc((void **)&d_ids, bytes)) ||
        check_call("cudaMallocHost", bytes, cudaMallocHost((void **)&h_ids, bytes)) ||
        check_call("cudaStreamCreate", 0, cudaStreamCreate(&work)) ||
        check_call("cudaStreamCreate", 0, cudaStreamCreate(&other)) ||
        check_call("cudaEventCreate", 0, cudaEventCreate(&copied)))
        goto cleanup;

    // region: stream
    number<<<N / 256, 256, 0, work>>>(d_ids, N, 100);
    // The copy is queued behind the kernel and returns at once: only the wait makes
    // h_ids safe to read.
    if (check_call("kernel launch", 0, cudaGetLastError()) ||
        check_call("cudaMemcpyAsync", bytes,
                   cudaMemcpyAsync(h_ids, d_ids, bytes, cudaMemcpyDeviceToHost, work)) ||
        check_call("cudaStreamSynchronize", 0, cudaStreamSynchronize(work)))
        goto cleanup;
    // end region: stream
    printf("after cudaStreamSynchronize(work): h_ids[%d] = %d\n", N - 1, h_ids[N - 1]);

    // region: event
    number<<<N / 256, 256, 0, other>>>(d_ids, N, 200);
    // The mark goes into the stream that holds the copy: the device reaches it when
    // the copy is done.
    if (check_call("kernel launch", 0, cudaGetLastError()) ||
        check_call("cudaMemcpyAsync", bytes,
                   cudaMemcpyAsync(h_ids, d_ids, bytes, cudaMemcpyDeviceToHost, other)) ||
        check_call("cudaEventRecord", 0, cudaEventRecord(copied, other)) ||
        check_call("cudaEventSynchronize", 0, cudaEventSynchronize(copied)))
        goto cleanup;
    // end region: event
    printf("after cudaEventSynchronize(copied): h_ids[%d] = %d\n", N - 1, h_ids[N - 1]);
    status = 0;

    // region: cleanup
cleanup:
    // A NULL event is no event and a NULL stream is the default stream: destroy only
    // what was created. cudaFreeHost(NULL) and cudaFree(NULL) do nothing.
    if (copied)
        cudaEventDestroy(copied);
    if (other)
        cudaStreamDestroy(other);
    if (work)
        cudaStreamDestroy(work);
    cudaFreeHost(h_ids);
    cudaFree(d_ids);
    return status;
    // end region: cleanup
}
