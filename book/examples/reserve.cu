// Worked example for chapter 01: reserve two device buffers, watch free memory fall,
// give them back.
//
//   reserve   a million doubles and 16 counters on the device; the counters cleared
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract).
#include <stdio.h>
#include <cuda_runtime.h>

#include "example.cuh"

#define SAMPLES 1000000
#define BINS 16

int main(void)
{
    double *d_samples = NULL; // SAMPLES doubles on the device
    int *d_bins = NULL;       // BINS counters on the device
    size_t sample_bytes = SAMPLES * sizeof(double), bin_bytes = BINS * sizeof(int);
    size_t free_start = 0, free_now = 0, total_bytes = 0;
    int h_bins[BINS];
    int zeros = 0, status = 1;
    cudaError_t err;

    // region: meminfo
    err = cudaMemGetInfo(&free_start, &total_bytes);
    if (err != cudaSuccess) {
        check_call("cudaMemGetInfo", 0, err);
        goto cleanup;
    }
    // end region: meminfo
    if (check_call("cudaMalloc", sample_bytes,
                   cudaMalloc((void **)&d_samples, sample_bytes)) ||
        check_call("cudaMalloc", bin_bytes, cudaMalloc((void **)&d_bins, bin_bytes)) ||
        check_call("cudaMemGetInfo", 0, cudaMemGetInfo(&free_now, &total_bytes)))
        goto cleanup;
    printf("reserved %zu + %zu bytes\n", sample_bytes, bin_bytes);
    // The driver maps whole 2 MiB pages: free memory falls by at least what was asked.
    printf("free memory fell by at least that much: %s\n",
           free_start - free_now >= sample_bytes + bin_bytes ? "yes" : "no");

    // New device memory holds whatever was there: clear the counters (in bytes) first.
    if (check_call("cudaMemset", bin_bytes, cudaMemset(d_bins, 0, bin_bytes)) ||
        check_call("cudaMemcpy", bin_bytes,
                   cudaMemcpy(h_bins, d_bins, bin_bytes, cudaMemcpyDeviceToHost)))
        goto cleanup;
    for (int i = 0; i < BINS; i++)
        zeros += h_bins[i] == 0;
    printf("counters cleared: %d of %d are 0\n", zeros, BINS);
    status = 0;

    // region: cleanup
cleanup:
    // Every path ends here. A buffer never allocated is still NULL, and
    // cudaFree(NULL) does nothing.
    cudaFree(d_bins);
    cudaFree(d_samples);
    return status;
    // end region: cleanup
}
