// Device code for lesson 02: a checksum of a float buffer, so a program can tell whether
// a copy arrived whole. Students call this kernel; they do not edit it. Like fill.cuh's
// kernels it uses a grid-stride loop.
#ifndef CUDAWB_COPIES_CUH
#define CUDAWB_COPIES_CUH

#include <stddef.h>

// Adds to *sum the elements of d[0..n), each converted to an integer. The lessons store
// whole numbers from 0 to a few thousand, which floats hold exactly, so the sum is exact
// and the same on the host. *sum must start at 0.
__global__ void checksum(const float *d, size_t n, unsigned long long *sum)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        mine += (unsigned long long)(long long)d[i];
    if (mine != 0)
        atomicAdd(sum, mine);
}

#endif
