// the grader's CUDAWB_ interface for cuBLAS: CUDAWB_FAIL_CUBLAS_CREATE=1 makes cublasCreate return
// CUBLAS_STATUS_ALLOC_FAILED (3), leaving the handle untouched; the report counts live handles.
// test-libs: -lcublas
// test-env: CUDAWB_FAIL_CUBLAS_CREATE=1
// test-report: ^call n=1 fn=cublasCreate class=create status=3 site=cublas_inject.cu:[0-9]+ injected=1
// test-report: ^live-handles 0$
// test-gpu: skip (needs the grader's shim linked in)
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = (cublasHandle_t)&h;
    check("cublasCreate returns 3", cublasCreate(&h), CUBLAS_STATUS_ALLOC_FAILED);
    check("the handle is untouched", h == (cublasHandle_t)&h, 1);
    return 0;
}
