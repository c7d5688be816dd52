// cuBLAS subset: Sgemm (all four transpose combinations), Dgemm, Sgemv, Saxpy, Sscal, Sdot, Snrm2, device
// pointer mode and the Set/GetMatrix/Vector copies agree with a host computation.
// test-libs: -lcublas
#include <math.h>
#include <cublas_v2.h>
#include "check.h"

#define M 5
#define N 4
#define K 3

/* element (i, j) of a column-major matrix, transposed or not */
static float at(const float *x, int ld, int i, int j, int trans) { return trans ? x[j + i * ld] : x[i + j * ld]; }

int main(void)
{
    cublasHandle_t h = NULL;
    float A[M * K > K * M ? M * K : K * M], B[K * N], C[M * N], R[M * N], *dA, *dB, *dC;
    double dAh[M * K], dBh[K * N], dCh[M * N], *ddA, *ddB, *ddC;
    float alpha = 2.0f, beta = 0.5f;
    cublasCreate(&h);
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dB, sizeof B);
    cudaMalloc(&dC, sizeof C);
    for (int i = 0; i < M * K; i++) A[i] = (float)(i % 7) - 2.0f;
    for (int i = 0; i < K * N; i++) B[i] = (float)(i % 5) * 0.5f;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            int lda = ta ? K : M, ldb = tb ? N : K;
            for (int i = 0; i < M * N; i++) C[i] = (float)i;
            cublasSetMatrix(ta ? K : M, ta ? M : K, sizeof(float), A, lda, dA, lda);
            cublasSetMatrix(tb ? N : K, tb ? K : N, sizeof(float), B, ldb, dB, ldb);
            cublasSetMatrix(M, N, sizeof(float), C, M, dC, M);
            cublasSgemm(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, M, N, K, &alpha, dA, lda,
                        dB, ldb, &beta, dC, M);
            cublasGetMatrix(M, N, sizeof(float), dC, M, R, M);
            int bad = 0;
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    float want = beta * C[i + j * M];
                    for (int l = 0; l < K; l++) want += alpha * at(A, lda, i, l, ta) * at(B, ldb, l, j, tb);
                    bad += fabsf(R[i + j * M] - want) > 1e-4f;
                }
            char fact[64];
            snprintf(fact, sizeof fact, "Sgemm with transa=%c transb=%c", ta ? 'T' : 'N', tb ? 'T' : 'N');
            check(fact, bad, 0);
        }

    double one = 1.0, zero = 0.0;
    for (int i = 0; i < M * K; i++) dAh[i] = i;
    for (int i = 0; i < K * N; i++) dBh[i] = 1.0 / (i + 1);
    cudaMalloc(&ddA, sizeof dAh);
    cudaMalloc(&ddB, sizeof dBh);
    cudaMalloc(&ddC, sizeof dCh);
    cudaMemcpy(ddA, dAh, sizeof dAh, cudaMemcpyHostToDevice);
    cudaMemcpy(ddB, dBh, sizeof dBh, cudaMemcpyHostToDevice);
    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, ddA, M, ddB, K, &zero, ddC, M);
    cudaMemcpy(dCh, ddC, sizeof dCh, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = 0;
            for (int l = 0; l < K; l++) want += dAh[i + l * M] * dBh[l + j * K];
            bad += fabs(dCh[i + j * M] - want) > 1e-12;
        }
    check("Dgemm", bad, 0);

    float x[K] = {1, 2, 3}, y[M] = {1, 1, 1, 1, 1}, *dx, *dy, r = 0;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof y);
    cublasSetMatrix(M, K, sizeof(float), A, M, dA, M);
    cublasSetVector(K, sizeof(float), x, 1, dx, 1);
    cublasSetVector(M, sizeof(float), y, 1, dy, 1);
    cublasSgemv(h, CUBLAS_OP_N, M, K, &alpha, dA, M, dx, 1, &beta, dy, 1);
    float gy[M];
    cublasGetVector(M, sizeof(float), dy, 1, gy, 1);
    bad = 0;
    for (int i = 0; i < M; i++) {
        float want = beta * y[i];
        for (int l = 0; l < K; l++) want += alpha * A[i + l * M] * x[l];
        bad += fabsf(gy[i] - want) > 1e-4f;
    }
    check("Sgemv", bad, 0);

    float v[4] = {3, 4, 0, 0}, w[4] = {1, 1, 1, 1}, *dv, *dw;
    cudaMalloc(&dv, sizeof v);
    cudaMalloc(&dw, sizeof w);
    cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice);
    cudaMemcpy(dw, w, sizeof w, cudaMemcpyHostToDevice);
    cublasSnrm2(h, 4, dv, 1, &r);
    check("Snrm2 of (3,4,0,0) is 5", (long long)(r * 1000 + 0.5f), 5000);
    cublasSdot(h, 4, dv, 1, dw, 1, &r);
    check("Sdot with (1,1,1,1) is 7", (long long)(r + 0.5f), 7);
    cublasSaxpy(h, 4, &alpha, dv, 1, dw, 1);
    cublasSscal(h, 4, &beta, dw, 1);
    cudaMemcpy(w, dw, sizeof w, cudaMemcpyDeviceToHost);
    check("Saxpy then Sscal give (3.5, 4.5, 0.5, 0.5)", w[0] == 3.5f && w[1] == 4.5f && w[3] == 0.5f, 1);
    float *d_result;
    cudaMalloc(&d_result, sizeof(float));
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasSnrm2(h, 4, dv, 1, d_result);
    cudaMemcpy(&r, d_result, sizeof r, cudaMemcpyDeviceToHost);
    check("Snrm2 into device memory (pointer mode device)", (long long)(r * 1000 + 0.5f), 5000);
    cublasDestroy(h);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(ddA); cudaFree(ddB); cudaFree(ddC);
    cudaFree(dx); cudaFree(dy); cudaFree(dv); cudaFree(dw); cudaFree(d_result);
    check("no CUDA error", cudaGetLastError(), 0);
    return 0;
}
