// fact: cublasSgemm is column-major, as measured on the H200 (cuBLAS 13.1). With the row-major 2 x 3
// A = [1 2 3; 4 5 6] and 3 x 2 B = [7 8; 9 10; 11 12] as they lie in memory, cublasSgemm(N, N, m=2, n=2, k=3,
// B, lda=2, A, ldb=3) computes (A B) transposed in column-major order, which read row-major is the product
// A B = [58 64; 139 154]; the "natural" call cublasSgemm(N, N, 2, 2, 3, A, lda=2, B, ldb=3) reads each array
// column-major instead and gives [76 100; 103 136] read row-major. The four transpose combinations of a
// non-square product (m=3, n=5, k=4, leading dimensions larger than needed) agree with a host triple loop.
// test-libs: -lcublas
#include <math.h>
#include <cublas_v2.h>
#include "check.h"

static void print_2x2(const char *what, const float *c)
{
    printf("%s: [%g %g; %g %g]\n", what, c[0], c[1], c[2], c[3]);
}

/* element (i, j) of op(X) for a column-major X */
static float at(const float *x, int ld, int i, int j, int trans) { return trans ? x[j + i * ld] : x[i + j * ld]; }

static void transposes(cublasHandle_t h)
{
    enum { M = 3, N = 5, K = 4, LD = 7 };
    float A[LD * 7], B[LD * 7], C[LD * N], R[LD * N], *dA, *dB, *dC, alpha = 1.5f, beta = -0.5f;
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dB, sizeof B);
    cudaMalloc(&dC, sizeof C);
    for (int i = 0; i < LD * 7; i++) A[i] = (float)((i * 5) % 11) - 5.0f;
    for (int i = 0; i < LD * 7; i++) B[i] = (float)((i * 3) % 7) * 0.5f;
    for (int i = 0; i < LD * N; i++) C[i] = (float)(i % 4);
    cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice);
            cublasStatus_t s = cublasSgemm(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, M, N, K,
                                           &alpha, dA, LD, dB, LD, &beta, dC, LD);
            cudaMemcpy(R, dC, sizeof R, cudaMemcpyDeviceToHost);
            int bad = s != CUBLAS_STATUS_SUCCESS;
            for (int j = 0; j < N; j++)
                for (int i = 0; i < LD; i++) {
                    float want = C[i + j * LD];  /* rows past m are left alone */
                    if (i < M) {
                        float sum = 0;
                        for (int l = 0; l < K; l++) sum += at(A, LD, i, l, ta) * at(B, LD, l, j, tb);
                        want = alpha * sum + beta * want;
                    }
                    bad += fabsf(R[i + j * LD] - want) > 1e-4f;
                }
            char fact[96];
            snprintf(fact, sizeof fact, "3 x 5 x 4 with transa=%c transb=%c matches the host loop", ta ? 'T' : 'N',
                     tb ? 'T' : 'N');
            check(fact, bad, 0);
        }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

int main(void)
{
    const float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {7, 8, 9, 10, 11, 12};
    float C[4], one = 1.0f, zero = 0.0f, *dA, *dB, *dC;
    cublasHandle_t h = NULL;
    cublasCreate(&h);
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dB, sizeof B);
    cudaMalloc(&dC, sizeof C);
    cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
    check("cublasSgemm(N, N, 2, 2, 3, B, 2, A, 3) returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, dB, 2, dA, 3, &zero, dC, 2), 0);
    cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost);
    print_2x2("B, A swapped, read row-major", C);
    check("is the row-major product A B", C[0] == 58 && C[1] == 64 && C[2] == 139 && C[3] == 154, 1);
    check("cublasSgemm(N, N, 2, 2, 3, A, 2, B, 3) returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, dA, 2, dB, 3, &zero, dC, 2), 0);
    cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost);
    print_2x2("the natural call, read row-major", C);
    check("which is not A B", C[0] == 76 && C[1] == 100 && C[2] == 103 && C[3] == 136, 1);
    transposes(h);
    cublasDestroy(h);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
