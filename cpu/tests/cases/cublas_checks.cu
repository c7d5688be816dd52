// fact: cuBLAS: cublasCreate on a working GPU returns 0; cublasSgemm with m < 0, lda < m, ldc < m, a NULL alpha
// or an invalid transa returns 7 CUBLAS_STATUS_INVALID_VALUE and prints " ** On entry to SGEMM  parameter
// number N had an illegal value" (N = 3, 8, 13, 1; nothing for a NULL alpha); m = 0 returns 0; a NULL handle
// gives 1 (cublasSgemm, cublasDestroy); status strings as listed.
// test-libs: -lcublas
// test-stderr: ^ \*\* On entry to SGEMM  parameter number 3 had an illegal value$
// test-stderr: ^ \*\* On entry to SGEMM  parameter number 8 had an illegal value$
// test-stderr: ^ \*\* On entry to SGEMM  parameter number 13 had an illegal value$
// test-stderr: ^ \*\* On entry to SGEMM  parameter number 1 had an illegal value$
#include <string.h>
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = NULL;
    float *d = NULL, one = 1.0f;
    cudaMalloc(&d, 64 * sizeof(float));
    check("cublasCreate returns 0", cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    fflush(stdout);
    check("m < 0 returns 7", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, d, 2, d, 2, &one, d, 2), 7);
    fflush(stdout);
    check("lda < m returns 7", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 2, d, 2, &one, d, 4), 7);
    fflush(stdout);
    check("ldc < m returns 7", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 4, d, 2, &one, d, 2), 7);
    fflush(stdout);
    check("a NULL alpha returns 7", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, NULL, d, 2, d, 2, &one, d, 2), 7);
    fflush(stdout);
    check("an invalid transa returns 7",
          cublasSgemm(h, (cublasOperation_t)9, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2), 7);
    fflush(stdout);
    check("m = 0 returns 0", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, d, 1, d, 2, &one, d, 1), 0);
    check("cublasSgemm with a NULL handle returns 1",
          cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2), 1);
    check("cublasDestroy(NULL) returns 1", cublasDestroy(NULL), 1);
    check("cublasDestroy of the handle returns 0", cublasDestroy(h), 0);
    check("status 1 reads \"the library was not initialized\"",
          strcmp(cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED), "the library was not initialized"), 0);
    check("status 3 reads \"the resource allocation failed\"",
          strcmp(cublasGetStatusString(CUBLAS_STATUS_ALLOC_FAILED), "the resource allocation failed"), 0);
    check("status 7 reads \"an unsupported value or parameter was passed to the function\"",
          strcmp(cublasGetStatusString(CUBLAS_STATUS_INVALID_VALUE),
                 "an unsupported value or parameter was passed to the function"), 0);
    check("status 11 reads \"an access to GPU memory space failed\"",
          strcmp(cublasGetStatusString(CUBLAS_STATUS_MAPPING_ERROR), "an access to GPU memory space failed"), 0);
    check("status 13 reads \"the function failed to launch on the GPU\"",
          strcmp(cublasGetStatusString(CUBLAS_STATUS_EXECUTION_FAILED), "the function failed to launch on the GPU"), 0);
    check("an unknown status reads \"unrecognized status\"",
          strcmp(cublasGetStatusString((cublasStatus_t)99), "unrecognized status"), 0);
    check("status 7's name is CUBLAS_STATUS_INVALID_VALUE",
          strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE"), 0);
    cudaFree(d);
    return 0;
}
