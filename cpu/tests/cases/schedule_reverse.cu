// stream scheduling: streams are independent, so work on one stream may run before earlier work on another.
// On a GPU a copy on stream b of what a slow kernel on stream a writes runs at once and copies the old value;
// the CPU backend runs queued work in issue order by default (the copy would see the new value), and
// CUDAWB_SCHEDULE=reverse gives the GPU's answer here.
// What CUDA promises holds under every schedule: a stream's own order, cudaStreamWaitEvent, and the legacy
// default stream's ordering with blocking (but not non-blocking) streams.
// test-env: CUDAWB_SCHEDULE=reverse
#include "check.h"

/* long enough that a copy on another stream always comes first on a real GPU too */
__global__ void busy_then_set(int *p, int v, long long spins)
{
    long long start = clock64();
    while (clock64() - start < spins) {}
    *p = v;
}

/* An async copy into pinned memory is queued in its stream; the device-wide wait runs everything queued. */
static int copied(int *d, int *pinned, cudaStream_t s)
{
    *pinned = -1;
    cudaMemcpyAsync(pinned, d, sizeof *pinned, cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize();
    return *pinned;
}

int main(void)
{
    cudaStream_t a, b, free_running;
    cudaEvent_t written;
    int *d = NULL, *h = NULL;
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
    cudaStreamCreateWithFlags(&free_running, cudaStreamNonBlocking);
    cudaEventCreate(&written);
    cudaMalloc(&d, sizeof(int));
    cudaMallocHost(&h, sizeof(int));
    cudaMemset(d, 0, sizeof(int));
    cudaDeviceSynchronize();

    busy_then_set<<<1, 1, 0, a>>>(d, 1, 50000000LL);
    check("a copy on another stream does not wait for the kernel", copied(d, h, b), 0);
    busy_then_set<<<1, 1, 0, a>>>(d, 2, 50000000LL);
    check("a copy on the kernel's own stream does", copied(d, h, a), 2);
    busy_then_set<<<1, 1, 0, a>>>(d, 3, 50000000LL);
    cudaEventRecord(written, a);
    cudaStreamWaitEvent(b, written, 0);
    check("so does one on a stream made to wait for an event recorded behind it", copied(d, h, b), 3);
    busy_then_set<<<1, 1, 0, a>>>(d, 4, 50000000LL);
    check("a copy on the legacy default stream waits for a blocking stream", copied(d, h, 0), 4);
    busy_then_set<<<1, 1, 0, free_running>>>(d, 5, 50000000LL);
    check("but not for a non-blocking one", copied(d, h, 0), 4);
    cudaDeviceSynchronize();

    cudaEventDestroy(written);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    cudaStreamDestroy(free_running);
    cudaFree(d);
    cudaFreeHost(h);
    return 0;
}
