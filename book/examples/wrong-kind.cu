// Worked example for chapter 02: what a wrong kind and a count in elements do when the
// return is ignored, and what a checked copy does instead.
//
//   wrong-kind   copies the numbers 1..1000 to the device three ways, reading back
//                what arrived
//
// Exit status: 1, on purpose: its last copy is the swapped kind, checked (the
// out-of-memory contract's line on stderr).
#include <stdio.h>
#include <cuda_runtime.h>

#include "example.cuh"

#define N 1000

// Copies d back into h (the right way) and prints its first number and its sum beside
// what they should be.
static int report(const char *what, int *h, const int *d, size_t bytes)
{
    long long sum = 0;
    if (check_call("cudaMemcpy", bytes, cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost)))
        return 1;
    for (int i = 0; i < N; i++)
        sum += h[i];
    printf("%s: first %d, sum %lld, expected %d\n", what, h[0], sum, N * (N + 1) / 2);
    return 0;
}

int main(void)
{
    int h_src[N], h_back[N];
    int *d_nums = NULL;
    size_t bytes = N * sizeof(int);
    int status = 1;

    for (int i = 0; i < N; i++)
        h_src[i] = i + 1;
    if (check_call("cudaMalloc", bytes, cudaMalloc((void **)&d_nums, bytes)) ||
        check_call("cudaMemset", bytes, cudaMemset(d_nums, 0, bytes)))
        goto cleanup;

    // region: mistakes
    // The kind swapped, the return ignored: nothing is copied, and nothing says so.
    cudaMemcpy(d_nums, h_src, bytes, cudaMemcpyDeviceToHost);
    if (report("kind swapped, return ignored", h_back, d_nums, bytes))
        goto cleanup;
    // A count of elements, not bytes: a valid request for the first quarter.
    cudaMemcpy(d_nums, h_src, N, cudaMemcpyHostToDevice);
    if (report("count in elements", h_back, d_nums, bytes))
        goto cleanup;
    // The kind swapped again, checked this time: one line on stderr, the cleanup, and
    // exit status 1.
    if (check_call("cudaMemcpy", bytes,
                   cudaMemcpy(d_nums, h_src, bytes, cudaMemcpyDeviceToHost)))
        goto cleanup;
    // end region: mistakes
    status = 0;

cleanup:
    cudaFree(d_nums);
    return status;
}
