// Measures on the GPU what lesson 03 relies on beyond facts/gpu-facts.md: how long slow_fill waits, what a
// read without (or with the wrong) wait sees, which calls block the host, and how long busy and the
// copies of --pipeline take.  Build: nvcc -arch=native -I kernels -o m tests/gpu/measure-sync.cu
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime.h>

#include "sync.cuh"

#define N ((size_t)1 << 20)
#define BIG ((size_t)1 << 26)

// Never launched before the lazy-loading measurement below.
__global__ void first_launch(float *d)
{
    d[0] = 1.0f;
}

static double host_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static size_t count(const float *h, size_t n, float v)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += h[i] == v;
    return c;
}

int main(void)
{
    float *d = NULL, *h = NULL, *pageable = NULL, *d_big = NULL, *h_big = NULL;
    cudaStream_t s0 = NULL, s1 = NULL;
    cudaEvent_t a = NULL, b = NULL;
    float ms = 0.0f;
    double t0;

    if (cudaMalloc((void **)&d, N * sizeof(float)) || cudaMallocHost((void **)&h, N * sizeof(float)) ||
        cudaMalloc((void **)&d_big, BIG * sizeof(float)) || cudaMallocHost((void **)&h_big, BIG * sizeof(float)) ||
        cudaStreamCreate(&s0) || cudaStreamCreate(&s1) || cudaEventCreate(&a) || cudaEventCreate(&b)) {
        printf("setup failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    pageable = (float *)malloc(N * sizeof(float));

    // Lazy loading: does the first launch of a kernel wait for a kernel that is still running?
    wait_ns<<<1, 1>>>(SLOW_FILL_DELAY_NS);
    t0 = host_ms();
    first_launch<<<1, 1>>>(d);
    printf("first launch of a kernel while wait_ns runs returned after %.2f ms; stream 0 then says %s\n",
           host_ms() - t0, cudaGetErrorName(cudaStreamQuery(0)));
    cudaDeviceSynchronize();

    // slow_fill's real length, measured by events around it on one stream.
    cudaEventRecord(a, s0);
    slow_fill(d, N, 1.0f, s0);
    cudaEventRecord(b, s0);
    printf("cudaStreamQuery right after slow_fill: %s\n", cudaGetErrorName(cudaStreamQuery(s0)));
    printf("cudaEventQuery of an event behind it: %s\n", cudaGetErrorName(cudaEventQuery(b)));
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    printf("slow_fill of %zu floats took %.2f ms (SLOW_FILL_DELAY_NS = %llu)\n", N, ms, SLOW_FILL_DELAY_NS);

    // Async copy into pinned memory, read with no wait / after waiting for the other (idle) stream.
    memset(h, 0, N * sizeof(float));
    slow_fill(d, N, 2.0f, s1);
    cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDeviceToHost, s1);
    printf("no wait: %zu of %zu are 2\n", count(h, N, 2.0f), N);
    t0 = host_ms();
    cudaStreamSynchronize(s0);
    printf("after cudaStreamSynchronize(other, idle stream) (%.3f ms): %zu are 2\n", host_ms() - t0, count(h, N, 2.0f));
    cudaEventRecord(a, s0);
    t0 = host_ms();
    cudaEventSynchronize(a);
    printf("after an event recorded on the idle stream (%.3f ms): %zu are 2\n", host_ms() - t0, count(h, N, 2.0f));
    t0 = host_ms();
    cudaStreamSynchronize(s1);
    printf("after cudaStreamSynchronize(the right stream) (%.3f ms): %zu are 2\n", host_ms() - t0, count(h, N, 2.0f));

    // An event on the legacy default stream waits for blocking streams' work queued before it.
    slow_fill(d, N, 3.0f, s1);
    cudaEventRecord(b, 0);
    t0 = host_ms();
    cudaEventSynchronize(b);
    printf("event on stream 0 after slow_fill on s1: waited %.2f ms; s1 then says %s\n", host_ms() - t0,
           cudaGetErrorName(cudaStreamQuery(s1)));

    // An async copy into pageable memory blocks the host until the kernel before it is done.
    slow_fill(d, N, 4.0f, s1);
    t0 = host_ms();
    cudaMemcpyAsync(pageable, d, N * sizeof(float), cudaMemcpyDeviceToHost, s1);
    printf("cudaMemcpyAsync D2H into pageable memory returned after %.2f ms; %zu are 4 without a wait\n",
           host_ms() - t0, count(pageable, N, 4.0f));
    cudaDeviceSynchronize();
    slow_fill(d, N, 5.0f, s1);
    t0 = host_ms();
    cudaMemcpyAsync(d, pageable, N * sizeof(float), cudaMemcpyHostToDevice, s1);
    printf("cudaMemcpyAsync H2D from pageable memory (4 MiB) returned after %.2f ms\n", host_ms() - t0);
    cudaDeviceSynchronize();

    // The --pipeline sizes: busy with 2000 rounds, and 256 MiB pinned each way.
    for (int i = 0; i < 2; i++) {
        cudaEventRecord(a, 0);
        busy<<<blocks_for(BIG, 256), 256>>>(d_big, BIG, 2000);
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        printf("busy, %zu floats, 2000 rounds: %.2f ms\n", BIG, ms);
    }
    cudaEventRecord(a, 0);
    cudaMemcpy(d_big, h_big, BIG * sizeof(float), cudaMemcpyHostToDevice);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    printf("256 MiB pinned H2D: %.2f ms\n", ms);
    cudaEventRecord(a, 0);
    cudaMemcpy(h_big, d_big, BIG * sizeof(float), cudaMemcpyDeviceToHost);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    printf("256 MiB pinned D2H: %.2f ms\n", ms);

    printf("cudaEventDestroy(NULL): %s\n", cudaGetErrorName(cudaEventDestroy(NULL)));
    printf("cudaStreamDestroy(NULL): %s\n", cudaGetErrorName(cudaStreamDestroy(NULL)));
    cudaGetLastError();
    printf("last error at the end: %s\n", cudaGetErrorName(cudaGetLastError()));

    free(pageable);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaStreamDestroy(s0);
    cudaStreamDestroy(s1);
    cudaFreeHost(h_big);
    cudaFree(d_big);
    cudaFreeHost(h);
    cudaFree(d);
    return 0;
}
