// cuBLAS's batched LU factorization, as cuBLAS 13.1 documents it (not measured on the H200):
// cublasDgetrfBatched factors each n x n matrix of an array of pointers in GPU memory in place, P A = L U
// with LAPACK's partial pivoting (the pivot is the first element of largest magnitude in its column, P's
// row interchanges written 1-based, n per matrix), and writes each matrix's info: 0, or the 1-based index of
// the first zero pivot (U is singular; the factorization is still completed). A NULL P factors without
// pivoting. n or the batch size below 0, or lda below n, are a 7. Every pivot here is a power of two, so
// the factors are exact.
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

template <class T> static int differing(const T *got, const T *want, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) d += got[i] != want[i];
    return d;
}

int main(void)
{
    cublasHandle_t h;
    cublasCreate(&h);
    /* column-major: M0 = [1 2 3; 2 5 7; 4 2 1], M1 = [0 1 2; 0 4 4; 0 2 6] (a zero first column) */
    double M[18] = {1, 2, 4, 2, 5, 2, 3, 7, 1, 0, 0, 0, 1, 4, 2, 2, 4, 6};
    double *dM, **dPtr;
    int *dPiv, *dInfo, piv[6], info[2];
    cudaMalloc(&dM, sizeof M);
    cudaMalloc(&dPtr, 2 * sizeof(double *));
    cudaMalloc(&dPiv, sizeof piv);
    cudaMalloc(&dInfo, sizeof info);
    cudaMemcpy(dM, M, sizeof M, cudaMemcpyHostToDevice);
    double *hPtr[2] = {dM, dM + 9};
    cudaMemcpy(dPtr, hPtr, sizeof hPtr, cudaMemcpyHostToDevice);

    check("cublasDgetrfBatched of two 3 x 3 matrices returns 0",
          cublasDgetrfBatched(h, 3, dPtr, 3, dPiv, dInfo, 2), 0);
    cudaMemcpy(M, dM, sizeof M, cudaMemcpyDeviceToHost);
    cudaMemcpy(piv, dPiv, sizeof piv, cudaMemcpyDeviceToHost);
    cudaMemcpy(info, dInfo, sizeof info, cudaMemcpyDeviceToHost);
    /* M0: pivot 4 (row 3), then 4 (row 2, no swap), then 0.3125 */
    const double lu0[9] = {4, 0.5, 0.25, 2, 4, 0.375, 1, 6.5, 0.3125};
    const int piv0[3] = {3, 2, 3};
    check("M0's L and U", differing(M, lu0, 9), 0);
    check("M0's pivots are 3 2 3", differing(piv, piv0, 3), 0);
    check("M0's info is 0", info[0], 0);
    /* M1: the first column is all zeros: no interchange, info 1, and the factorization goes on */
    const double lu1[9] = {0, 0, 0, 1, 4, 0.5, 2, 4, 4};
    const int piv1[3] = {1, 2, 3};
    check("M1's L and U", differing(M + 9, lu1, 9), 0);
    check("M1's pivots are 1 2 3", differing(piv + 3, piv1, 3), 0);
    check("M1's info is 1 (U(1,1) = 0)", info[1], 1);

    /* [1 2; 2 4]: rows swapped, then a zero second pivot: info 2 */
    double S[4] = {1, 2, 2, 4};
    cudaMemcpy(dM, S, sizeof S, cudaMemcpyHostToDevice);
    check("cublasDgetrfBatched of a singular 2 x 2 returns 0", cublasDgetrfBatched(h, 2, dPtr, 2, dPiv, dInfo, 1),
          0);
    cudaMemcpy(S, dM, sizeof S, cudaMemcpyDeviceToHost);
    cudaMemcpy(piv, dPiv, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(info, dInfo, sizeof(int), cudaMemcpyDeviceToHost);
    const double lus[4] = {2, 0.5, 4, 0};
    const int pivs[2] = {2, 2};
    check("its L and U", differing(S, lus, 4), 0);
    check("its pivots are 2 2", differing(piv, pivs, 2), 0);
    check("its info is 2 (U(2,2) = 0)", info[0], 2);

    /* without pivoting, [2 1; 4 3] = [1 0; 2 1] [2 1; 0 1] in single precision */
    float F[4] = {2, 4, 1, 3};
    float *dF, **dFPtr;
    cudaMalloc(&dF, sizeof F);
    cudaMalloc(&dFPtr, sizeof(float *));
    cudaMemcpy(dF, F, sizeof F, cudaMemcpyHostToDevice);
    cudaMemcpy(dFPtr, &dF, sizeof(float *), cudaMemcpyHostToDevice);
    check("cublasSgetrfBatched with a NULL P returns 0", cublasSgetrfBatched(h, 2, dFPtr, 2, NULL, dInfo, 1), 0);
    cudaMemcpy(F, dF, sizeof F, cudaMemcpyDeviceToHost);
    cudaMemcpy(info, dInfo, sizeof(int), cudaMemcpyDeviceToHost);
    const float luf[4] = {2, 2, 1, 1};
    check("no interchange: L = [1 0; 2 1], U = [2 1; 0 1]", differing(F, luf, 4), 0);
    check("its info is 0", info[0], 0);

    check("n < 0: 7", cublasDgetrfBatched(h, -1, dPtr, 3, dPiv, dInfo, 1), 7);
    check("lda < n: 7", cublasDgetrfBatched(h, 3, dPtr, 2, dPiv, dInfo, 1), 7);
    check("a batch size below 0: 7", cublasDgetrfBatched(h, 3, dPtr, 3, dPiv, dInfo, -1), 7);
    check("and nothing failed", cudaDeviceSynchronize(), 0);
    cublasDestroy(h);
    return 0;
}
