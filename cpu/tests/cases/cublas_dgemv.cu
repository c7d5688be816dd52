// cuBLAS subset: Dgemv, both ways (cuda-samples' UnifiedMemoryStreams), on small integers so that every sum is
// exact, and its argument check.
// test-libs: -lcublas
// test-stderr: ^ \*\* On entry to DGEMV  parameter number 6 had an illegal value$
#include <cublas_v2.h>
#include "check.h"

#define M 3
#define N 2

int main(void)
{
    cublasHandle_t h;
    cublasCreate(&h);
    double A[M * N] = {1, 2, 3, 4, 5, 6}, x[3] = {1, 10, 100}, y[3] = {1, 1, 1}, alpha = 2, beta = -1;
    double *dA, *dx, *dy;
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof y);
    cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    check("Dgemv, A x", cublasDgemv(h, CUBLAS_OP_N, M, N, &alpha, dA, M, dx, 1, &beta, dy, 1), 0);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    check("y[0] = 2 (1 + 40) - 1", (long long)y[0], 81);
    check("y[2] = 2 (3 + 60) - 1", (long long)y[2], 125);
    check("Dgemv, A^T x", cublasDgemv(h, CUBLAS_OP_T, M, N, &alpha, dA, M, dx, 1, &beta, dy, 1), 0);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    check("y[0] = 2 (1 + 20 + 300) - 81", (long long)y[0], 561);
    check("y[1] = 2 (4 + 50 + 600) - 103", (long long)y[1], 1205);
    check("a leading dimension below the rows",
          cublasDgemv(h, CUBLAS_OP_N, M, N, &alpha, dA, 1, dx, 1, &beta, dy, 1), CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dA);
    cudaFree(dx);
    cudaFree(dy);
    cublasDestroy(h);
    return 0;
}
