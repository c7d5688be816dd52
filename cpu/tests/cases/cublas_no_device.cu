// fact: cuBLAS: cublasCreate with no GPU returns 1 CUBLAS_STATUS_NOT_INITIALIZED.
// test-libs: -lcublas
// test-env: CUDA_VISIBLE_DEVICES=
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = NULL;
    check("cublasCreate returns 1", cublasCreate(&h), CUBLAS_STATUS_NOT_INITIALIZED);
    return 0;
}
