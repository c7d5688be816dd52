// Device code for lesson 05, unified memory. Students call these kernels; they do
// not edit them. Every kernel uses a grid-stride loop, so any launch
// configuration covers all n elements.
#ifndef CUDAWB_MANAGED_CUH
#define CUDAWB_MANAGED_CUH

#include <stddef.h>

#define TABLE_SIZE 256 // the lookup table's entries: the GPU only reads them

// scaled[i] = in[i] * table[i % TABLE_SIZE]. Reads in and table, writes scaled.
__global__ void scale_by_table(const float *in, const float *table, float *scaled,
                               size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        scaled[i] = in[i] * table[i % TABLE_SIZE];
}

// out[i] = scaled[i] + scaled[n - 1 - i]: each result needs an element another block
// wrote, so this kernel must start after scale_by_table has finished (stream order).
// Reads scaled, writes out.
__global__ void mirror_sum(const float *scaled, float *out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = scaled[i] + scaled[n - 1 - i];
}

// Adds 1 to every element: the kernel lesson 05 times, which touches every page once.
__global__ void add_one(float *d, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        d[i] += 1.0f;
}

// Enough blocks to keep a large GPU busy (132 SMs on the H200), never more
// than the data needs.
static inline unsigned int managed_blocks(size_t n, unsigned int threads)
{
    size_t blocks = (n + threads - 1) / threads;
    if (blocks > 1056)
        blocks = 1056;
    return blocks == 0 ? 1 : (unsigned int)blocks;
}

#endif
