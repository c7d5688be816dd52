// Device code for lesson 06, pitched memory. Students call this kernel; they do not edit
// it (the 2-D kernel of the lesson is theirs to write, in pitched.cu).
#ifndef CUDAWB_PITCHED_CUH
#define CUDAWB_PITCHED_CUH

#include <stddef.h>
#include <cuda_runtime.h>

// Adds its slice number z to every element of a width x height x depth volume of floats
// in pitched memory (cudaMalloc3D): element (x, y, z) is at
// (char *)v.ptr + (z * v.ysize + y) * v.pitch, then x floats on. One thread per (x, y) on
// a 2-D grid, looping over the slices.
__global__ void add_slice_number(struct cudaPitchedPtr v, size_t width, size_t height,
                                 size_t depth)
{
    size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    for (size_t z = 0; z < depth; z++) {
        float *row = (float *)((char *)v.ptr + (z * v.ysize + y) * v.pitch);
        row[x] += (float)z;
    }
}

#endif
