// Device code shared by the lessons: fill, add to and count the elements of a
// float buffer. Students call these kernels; they do not edit them. Every
// kernel uses a grid-stride loop, so any launch configuration covers all n
// elements and none reaches past them.
#ifndef CUDAWB_FILL_CUH
#define CUDAWB_FILL_CUH

#include <stddef.h>

// Sets every element of d[0..n) to value.
__global__ void fill(float *d, size_t n, float value)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        d[i] = value;
}

// Adds value to every element of d[0..n).
__global__ void add(float *d, size_t n, float value)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        d[i] += value;
}

// Adds to *count the number of elements of d[0..n) equal to value. *count
// must start at 0.
__global__ void count_equal(const float *d, size_t n, float value, unsigned int *count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned int mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        mine += (d[i] == value);
    if (mine != 0)
        atomicAdd(count, mine);
}

// A launch configuration for the kernels above: enough blocks to keep a large GPU
// busy, never more than the data needs. Grid-stride loops make any choice
// correct; this one is also fast.
static inline unsigned int blocks_for(size_t n, unsigned int threads)
{
    size_t blocks = (n + threads - 1) / threads;
    if (blocks > 1024)
        blocks = 1024;
    return blocks == 0 ? 1 : (unsigned int)blocks;
}

#endif
