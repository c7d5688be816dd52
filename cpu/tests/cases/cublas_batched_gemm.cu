// cuBLAS's batched products, as cuBLAS 13.1 documents them (not measured on the H200): cublasSgemmBatched
// and cublasDgemmBatched take arrays of matrix pointers in GPU memory and compute C[i] = alpha op(A[i])
// op(B[i]) + beta C[i] for each i; cublasSgemmStridedBatched finds matrix i at base + i * stride. Small
// integers, so every sum is exact. Their argument checks are gemm's (the message names the batched routine,
// as cuBLAS printed "SgemmBatched parameter number 13" for an ldc below m); a batch count below 0 is a 7.
// test-libs: -lcublas
// test-stderr: ^ \*\* On entry to SgemmBatched  parameter number 3 had an illegal value$
// test-stderr: ^ \*\* On entry to SgemmBatched  parameter number 13 had an illegal value$
#include <cublas_v2.h>
#include "check.h"

/* how many of the n elements of got differ from want */
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
    /* column-major: A0 = [1 2; 3 4], B0 = [5 6; 7 8], A1 = 2 I, B1 = [1 3; 2 4] */
    float A[8] = {1, 3, 2, 4, 2, 0, 0, 2}, B[8] = {5, 7, 6, 8, 1, 2, 3, 4}, C[8];
    float *dA, *dB, *dC;
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dB, sizeof B);
    cudaMalloc(&dC, sizeof C);
    cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
    const float *hAs[2] = {dA, dA + 4}, *hBs[2] = {dB, dB + 4};
    float *hCs[2] = {dC, dC + 4};
    const float **dAs;
    const float **dBs;
    float **dCs;
    cudaMalloc(&dAs, sizeof hAs);
    cudaMalloc(&dBs, sizeof hBs);
    cudaMalloc(&dCs, sizeof hCs);
    cudaMemcpy(dAs, hAs, sizeof hAs, cudaMemcpyHostToDevice);
    cudaMemcpy(dBs, hBs, sizeof hBs, cudaMemcpyHostToDevice);
    cudaMemcpy(dCs, hCs, sizeof hCs, cudaMemcpyHostToDevice);
    float one = 1, zero = 0, two = 2;

    check("cublasSgemmBatched over 2 matrices returns 0",
          cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, dAs, 2, dBs, 2, &zero, dCs, 2, 2), 0);
    cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost);
    const float prod[8] = {19, 43, 22, 50, 2, 4, 6, 8};
    check("C0 = A0 B0 = [19 22; 43 50], C1 = 2 B1", differing(C, prod, 8), 0);

    check("cublasSgemmStridedBatched, stride 4, alpha 2, returns 0",
          cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &two, dA, 2, 4, dB, 2, 4, &zero, dC, 2,
                                    4, 2), 0);
    cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost);
    const float twice[8] = {38, 86, 44, 100, 4, 8, 12, 16};
    check("C[i] = 2 A[i] B[i]", differing(C, twice, 8), 0);

    /* double, A transposed, beta 1 over a C of ones: A0^T B0 + 1 = [27 31; 39 45] */
    double Ad[4] = {1, 3, 2, 4}, Bd[4] = {5, 7, 6, 8}, Cd[4] = {1, 1, 1, 1}, oned = 1;
    double *dAd, *dBd, *dCd, **dPd;
    cudaMalloc(&dAd, sizeof Ad);
    cudaMalloc(&dBd, sizeof Bd);
    cudaMalloc(&dCd, sizeof Cd);
    cudaMalloc(&dPd, 3 * sizeof(double *));
    cudaMemcpy(dAd, Ad, sizeof Ad, cudaMemcpyHostToDevice);
    cudaMemcpy(dBd, Bd, sizeof Bd, cudaMemcpyHostToDevice);
    cudaMemcpy(dCd, Cd, sizeof Cd, cudaMemcpyHostToDevice);
    double *hPd[3] = {dAd, dBd, dCd};
    cudaMemcpy(dPd, hPd, sizeof hPd, cudaMemcpyHostToDevice);
    check("cublasDgemmBatched, op(A) = A^T, beta 1, returns 0",
          cublasDgemmBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &oned, (const double **)dPd, 2,
                             (const double **)dPd + 1, 2, &oned, dPd + 2, 2, 1), 0);
    cudaMemcpy(Cd, dCd, sizeof Cd, cudaMemcpyDeviceToHost);
    const double tprod[4] = {27, 39, 31, 45};
    check("C = A^T B + C", differing(Cd, tprod, 4), 0);

    check("m < 0: 7, parameter number 3",
          cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, dAs, 2, dBs, 2, &zero, dCs, 2, 2), 7);
    check("ldc < m: 7, parameter number 13",
          cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, dAs, 2, dBs, 2, &zero, dCs, 1, 2), 7);
    check("a batch count below 0: 7",
          cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, dAs, 2, dBs, 2, &zero, dCs, 2, -1), 7);
    check("a batch count of 0 does nothing: 0",
          cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, dAs, 2, dBs, 2, &zero, dCs, 2, 0), 0);
    check("and nothing failed", cudaDeviceSynchronize(), 0);
    cublasDestroy(h);
    return 0;
}
