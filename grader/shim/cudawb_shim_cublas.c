// cuBLAS half of the fault-injection shim: CUDAWB_FAIL_CUBLAS_CREATE and the live-handle count.
// Linked only into programs that use cuBLAS: its __real_ references need libcublas.
#include <stdint.h>
#include <stdlib.h>
#include <cublas_v2.h>

#include "cudawb_shim.h"

cublasStatus_t __real_cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t __real_cublasDestroy_v2(cublasHandle_t handle);

cublasStatus_t __wrap_cublasCreate_v2(cublasHandle_t *handle)
{
    const char *fail = getenv("CUDAWB_FAIL_CUBLAS_CREATE");
    cublasStatus_t status;

    if (fail != NULL && atoi(fail) == 1) {
        status = CUBLAS_STATUS_ALLOC_FAILED; // the handle is left untouched and nothing is created
        cudawb_log("cublas fn=cublasCreate status=%d injected=1\n", (int)status);
        return status;
    }
    status = __real_cublasCreate_v2(handle);
    if (status == CUBLAS_STATUS_SUCCESS)
        cudawb_live_handles++;
    cudawb_log("cublas fn=cublasCreate status=%d handle=0x%lx\n", (int)status,
               (unsigned long)(uintptr_t)(status == CUBLAS_STATUS_SUCCESS ? (void *)*handle : NULL));
    return status;
}

cublasStatus_t __wrap_cublasDestroy_v2(cublasHandle_t handle)
{
    cublasStatus_t status = __real_cublasDestroy_v2(handle);
    if (status == CUBLAS_STATUS_SUCCESS)
        cudawb_live_handles--;
    cudawb_log("cublas fn=cublasDestroy status=%d handle=0x%lx\n", (int)status, (unsigned long)(uintptr_t)handle);
    return status;
}
