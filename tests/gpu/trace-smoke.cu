// The trace on one small program: every kind of call, for comparing the GPU's report with the CPU backend's.
// Run as: CUDAWB_REPORT=r ./trace-smoke [FAIL_CALL]; prints what each call returned.
#include <stdio.h>
#include <stdlib.h>
#include "fill.cuh"

int main(void)
{
    float *d = NULL, *h = NULL;
    unsigned int *c = NULL, count = 0;
    cudaStream_t s = NULL;
    cudaEvent_t e = NULL;
    size_t free_b = 0, total_b = 0;
    printf("CUDAWB_REPORT is %s\n", getenv("CUDAWB_REPORT") ? "visible" : "hidden");
    printf("cudaMemGetInfo %d\n", cudaMemGetInfo(&free_b, &total_b));
    printf("cudaMalloc %d\n", cudaMalloc((void **)&d, 4000));
    printf("cudaMalloc %d\n", cudaMalloc(&c, 4));
    printf("cudaMallocHost %d\n", cudaMallocHost((void **)&h, 4000));
    printf("cudaMemset %d\n", cudaMemset(d, 0, 4000));
    fill<<<4, 256>>>(d, 1000, 7.0f);
    printf("launch, then cudaGetLastError %d\n", cudaGetLastError());
    for (int i = 0; i < 3; i++)
        cudaMemset(c, 0, 4);
    count_equal<<<4, 256>>>(d, 1000, 7.0f, c);
    printf("cudaMemcpy %d\n", cudaMemcpy(&count, c, 4, cudaMemcpyDeviceToHost));
    printf("count %u\n", count);
    printf("cudaStreamCreate %d\n", cudaStreamCreate(&s));
    printf("cudaEventCreate %d\n", cudaEventCreate(&e));
    printf("cudaMemcpyAsync %d\n", cudaMemcpyAsync(h, d, 4000, cudaMemcpyDeviceToHost, s));
    printf("cudaEventRecord %d\n", cudaEventRecord(e, s));
    printf("cudaEventSynchronize %d\n", cudaEventSynchronize(e));
    printf("cudaStreamSynchronize %d\n", cudaStreamSynchronize(s));
    printf("cudaDeviceSynchronize %d\n", cudaDeviceSynchronize());
    printf("cudaGetLastError %d, then %d\n", cudaGetLastError(), cudaGetLastError());
    printf("cudaEventDestroy %d\n", cudaEventDestroy(e));
    printf("cudaStreamDestroy %d\n", cudaStreamDestroy(s));
    printf("cudaFreeHost %d\n", cudaFreeHost(h));
    printf("cudaFree %d\n", cudaFree(d));
    printf("cudaFree again %d\n", cudaFree(d));
    printf("cudaFree %d\n", cudaFree(c));
    return 0;
}
