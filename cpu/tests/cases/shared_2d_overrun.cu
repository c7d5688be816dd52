// the memory checker: a read past the last row of a two-dimensional __shared__ tile is reported for every
// thread that made it (the threads of the last row), with the size of the element read.
// test-sanitizer: --tool memcheck --error-exitcode 86
// test-status: 86
// test-stderr: Invalid __shared__ read of size 8 bytes
// test-stderr: at next_row.* in shared_2d_overrun\.cu:16
// test-stderr: by thread \(0,15,0\) in block \(0,0,0\)
// test-stderr: by thread \(15,15,0\) in block \(0,0,0\)
#include "check.h"

__global__ void next_row(double *out)
{
    __shared__ double tile[16][16];
    tile[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.y + 1][threadIdx.x];
}

int main(void)
{
    double *out = NULL;
    cudaMalloc(&out, 256 * sizeof(double));
    next_row<<<1, dim3(16, 16)>>>(out);
    check("the kernel ends with 719 (unspecified launch failure)", cudaDeviceSynchronize(), 719);
    return 0;
}
