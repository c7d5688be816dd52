// Worked example for chapter 04: a launch the runtime refuses tells only the next
// cudaGetLastError.
//
//   refused   launches a block sum with 64 KiB of dynamic shared memory (refused: over
//             48 KiB without opting in), then with 1 KiB, and reads the sum
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract).
#include <stdio.h>
#include <cuda_runtime.h>

#include "example.cuh"

#define THREADS 256

// Sums 1..THREADS in shared memory; thread 0 writes the total.
__global__ void block_sum(int *d_total)
{
    extern __shared__ int partial[];
    partial[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int i = 0; i < THREADS; i++)
            total += partial[i];
        *d_total = total;
    }
}

// Launches block_sum with shared_bytes of dynamic shared memory; returns what it said.
static cudaError_t launch(int *d_total, size_t shared_bytes)
{
    cudaError_t err;
    // region: launch
    block_sum<<<1, THREADS, shared_bytes>>>(d_total);
    // A launch returns nothing: whether it started waits in the last-error slot, so
    // read it on the very next line.
    err = cudaGetLastError();
    // end region: launch
    printf("launch with %zu bytes of shared memory: %s\n", shared_bytes,
           cudaGetErrorName(err));
    return err;
}

int main(void)
{
    int *d_total = NULL;
    int total = 0, status = 1;

    if (check_call("cudaMalloc", sizeof(int), cudaMalloc((void **)&d_total, sizeof(int))))
        goto cleanup;
    // Refused, not fatal: nothing ran, the error is not sticky, the next launch works.
    launch(d_total, 64 * 1024);
    if (check_call("kernel launch", 0, launch(d_total, THREADS * sizeof(int))) ||
        check_call("cudaMemcpy", sizeof(int),
                   cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost)))
        goto cleanup;
    printf("sum of 1..%d: %d\n", THREADS, total);
    status = 0;

cleanup:
    cudaFree(d_total);
    return status;
}
