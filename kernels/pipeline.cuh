// Device code for lesson 08, beyond cudaMalloc: the one kernel the pipeline runs on each
// chunk, on mapped host memory and on registered host memory alike. Students call it;
// they do not edit it.
#ifndef CUDAWB_PIPELINE_CUH
#define CUDAWB_PIPELINE_CUH

#include <stddef.h>

// Floats per chunk of the pipeline: 256 KiB of scratch each.
#define CHUNK ((size_t)1 << 16)

// out[i] = in[i] * in[i] + (offset + i) % 3, for the count elements of the chunk that
// starts at element offset of the whole data. in and out may be the same buffer (each
// thread reads its element, then writes it). A grid-stride loop: any launch configuration
// covers the chunk.
__global__ void transform_chunk(const float *in, float *out, size_t count, size_t offset)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = in[i] * in[i] + (float)((offset + i) % 3);
}

// Blocks for count elements: one per THREADS of them, at most 1056 (8 per SM of the
// H200's 132: the grid-stride loop does the rest), at least 1.
static inline unsigned int chunk_blocks(size_t count, unsigned int threads)
{
    size_t blocks = (count + threads - 1) / threads;
    return blocks == 0 ? 1 : blocks > 1056 ? 1056 : (unsigned int)blocks;
}

#endif
