// Host and device code for lesson 07, cuBLAS. Students call these; they do not edit them.
#ifndef CUDAWB_GEMM_CUH
#define CUDAWB_GEMM_CUH

#include <stddef.h>
#include <cuda_runtime.h>

// The matrices' values: small whole numbers (-2..6 and -1..5), so that every product and
// every sum of a row times a column up to 4096 terms long is exact in a float: two
// correct programs agree to the bit.
static inline float a_value(size_t i, size_t k)
{
    return (float)((int)((i * 7 + k * 3) % 9) - 2);
}

static inline float b_value(size_t k, size_t j)
{
    return (float)((int)((k * 5 + j * 2) % 7) - 1);
}

// The weighted checksum the program prints: the sum of C[i][j] x (i % 13 + 1) x
// (j % 11 + 1) over the row-major m x n product. A weight per row and per column: a
// transposed or shifted result changes it.
static inline long long checksum_weight(size_t i, size_t j)
{
    return (long long)((i % 13 + 1) * (j % 11 + 1));
}

// C = A B for row-major A (m x k), B (k x n), C (m x n): one thread per element of C, on
// a 2-D grid of 16 x 16 blocks, each thread reading a row of A and a column of B from
// global memory. The yardstick cublasSgemm is measured against.
__global__ void naive_sgemm(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int l = 0; l < k; l++)
        sum += A[(size_t)row * k + l] * B[(size_t)l * n + col];
    C[(size_t)row * n + col] = sum;
}

#endif
