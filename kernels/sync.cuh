// Device code for lesson 03 (synchronization): a fill that takes its time, a kernel that
// does enough arithmetic per element to take as long as the copies around it, and a
// kernel that only prints. Students call these; they do not edit them.
#ifndef CUDAWB_SYNC_CUH
#define CUDAWB_SYNC_CUH

#include <stdio.h>
#include <stddef.h>
#include <cuda_runtime.h>

#include "fill.cuh"

// How long slow_fill waits before it writes anything: 50 ms, hundreds of times longer
// than it takes the host to launch a kernel and read the buffer. A host that reads
// without waiting therefore sees the old data every time, never by luck of timing.
#define SLOW_FILL_DELAY_NS 50000000ULL

// Nanoseconds from a clock that every thread of the GPU shares (the %globaltimer
// register). The CPU backend's clock64() counts nanoseconds too.
__device__ static unsigned long long now_ns(void)
{
#ifdef CUDAWB_CPU
    return (unsigned long long)clock64();
#else
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
#endif
}

// One thread that keeps its stream busy for ns nanoseconds and writes nothing.
__global__ void wait_ns(unsigned long long ns)
{
    unsigned long long start = now_ns();
    while (now_ns() - start < ns)
        ;
}

// region: slow-fill
// Sets d[0..n) to value on stream, but only SLOW_FILL_DELAY_NS after the stream reaches
// it: a wait kernel, then fill, in stream order. Like every launch it returns at once,
// long before the writes.
static inline void slow_fill(float *d, size_t n, float value, cudaStream_t stream)
{
    wait_ns<<<1, 1, 0, stream>>>(SLOW_FILL_DELAY_NS);
    fill<<<blocks_for(n, 256), 256, 0, stream>>>(d, n, value);
}
// end region: slow-fill

// Replaces every element x of d[0..n) by the result of rounds steps x = 0.999 x + 0.001:
// arithmetic only, so that with enough rounds the kernel takes about as long as copying
// the data in and out. The result depends only on x and rounds, so a chunked run must
// give exactly the whole run's numbers.
__global__ void busy(float *d, size_t n, int rounds)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float x = d[i];
        for (int r = 0; r < rounds; r++)
            x = x * 0.999f + 0.001f;
        d[i] = x;
    }
}

// The first launch of a kernel loads its code, and CUDA's lazy loading may make that
// launch wait for the device (for a kernel still running, such as wait_ns). Launching
// each kernel once on no data, then synchronizing, loads them all, so that every later
// launch returns at once.
static inline void load_kernels(float *d)
{
    wait_ns<<<1, 1>>>(0);
    fill<<<1, 1>>>(d, 0, 0.0f);
    busy<<<1, 1>>>(d, 0, 0);
}

// Prints one line from the device, and does nothing else.
__global__ void hello(void)
{
    printf("device: hello from thread %u of block %u\n", threadIdx.x, blockIdx.x);
}

#endif
