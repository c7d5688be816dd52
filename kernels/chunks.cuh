// Device and host code for lesson 09, a data set larger than the GPU: the reader that
// hands the program its data set a chunk at a time, and the kernel that reduces a chunk.
// Students call them; they do not edit them.
#ifndef CUDAWB_CHUNKS_CUH
#define CUDAWB_CHUNKS_CUH

#include <stddef.h>

#define VALUES 16384u      // the data set's values are 1..VALUES (a power of two: the
                           // reader masks, it does not divide)
#define VALUE_STEP 40503u  // odd: element i is
#define VALUE_START 12345u // ((i * VALUE_STEP + VALUE_START) mod VALUES) + 1, so that
                           // every VALUES elements in a row hold each value once (the
                           // grader sums it that way)
#define SUM_THREADS 256    // sum_steps's block size: its shared-memory reduction is
                           // written for it

// Reads elements first .. first + count - 1 of the data set into dst: a stand-in for
// reading a file that is too large for the GPU, written so that the host spends about as
// long on a chunk as the GPU does.
static inline void read_chunk(unsigned int *dst, size_t first, size_t count)
{
    for (size_t i = 0; i < count; i++)
        dst[i] =
            (unsigned int)(((first + i) * VALUE_STEP + VALUE_START) & (VALUES - 1)) + 1u;
}

// The number of steps x takes to reach 1, halving it when it is even and making it 3x + 1
// when it is odd (Collatz): a loop of 0 to a few hundred steps, some real work per
// element. From 1..VALUES the values on the way stay below 27,114,425 (9663 climbs
// highest): 32 bits are enough.
__device__ unsigned int collatz_steps(unsigned int x)
{
    unsigned int steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

// *sum += the Collatz steps of the count values of in. Integer sums are exact in any
// order, so the total is the same whatever the chunks, streams and blocks: one atomicAdd
// per block. Launch with SUM_THREADS threads per block and any number of blocks (a
// grid-stride loop).
__global__ void sum_steps(const unsigned int *in, size_t count, unsigned long long *sum)
{
    __shared__ unsigned long long partial[SUM_THREADS];
    unsigned long long mine = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        mine += collatz_steps(in[i]);
    partial[threadIdx.x] = mine;
    __syncthreads();
    for (unsigned int half = SUM_THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, partial[0]);
}

// Blocks for count elements: one per SUM_THREADS of them, at most 1056 (8 per SM of the
// H200's 132: the grid-stride loop does the rest), at least 1.
static inline unsigned int sum_blocks(size_t count)
{
    size_t blocks = (count + SUM_THREADS - 1) / SUM_THREADS;
    return blocks == 0 ? 1 : blocks > 1056 ? 1056 : (unsigned int)blocks;
}

#endif
