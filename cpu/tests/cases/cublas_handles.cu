// fact: cuBLAS handles, as measured on the H200 (cuBLAS 13.1): after cublasDestroy, cublasSgemm on the destroyed
// handle fails: 15 CUBLAS_STATUS_NOT_SUPPORTED while another handle was alive in one session, 13
// EXECUTION_FAILED in another (2026-12-02), 13 when none is (facts/gpu-facts.md): a destroyed handle is
// undefined, so either passes; a NULL handle returns 1 CUBLAS_STATUS_NOT_INITIALIZED;
// cublasSetWorkspace with no workspace (NULL, 0 bytes) returns 0; a second handle works on after the first is
// destroyed. (Destroying a handle twice aborts: cublas_destroy_twice.cu.)
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = NULL, h2 = NULL;
    float *d = NULL, one = 1.0f;
    cudaMalloc(&d, 64 * sizeof(float));
    check("cublasCreate returns 0", cublasCreate(&h), 0);
    check("cublasSetWorkspace(h, NULL, 0) returns 0", cublasSetWorkspace(h, NULL, 0), 0);
    check("cublasSetStream with a NULL handle returns 1", cublasSetStream(NULL, 0), 1);
    check("a second cublasCreate returns 0", cublasCreate(&h2), 0);
    check("cublasDestroy returns 0", cublasDestroy(h), 0);
    cublasStatus_t gone = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2);
    check("cublasSgemm on the destroyed handle returns 13 or 15", gone == 13 || gone == 15, 1);
    check("cublasSgemm on the other handle returns 0",
          cublasSgemm(h2, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2), 0);
    check("cublasDestroy of the other handle returns 0", cublasDestroy(h2), 0);
    check("no CUDA error", cudaDeviceSynchronize(), 0);
    cudaFree(d);
    return 0;
}
