/* shared_kernels.h: correct kernels that use __shared__ memory, run under both checkers by shared_clean.cu
   (memcheck) and race_clean.cu (racecheck), which must find nothing in them. */
#ifndef SHARED_KERNELS_H
#define SHARED_KERNELS_H

/* a block reduction of 256 ints, with a barrier after each step */
__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

/* an n x n transpose through a padded 32 x 33 tile, blocks of 32 x 32 */
__global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
#endif
