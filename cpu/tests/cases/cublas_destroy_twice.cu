// fact: cuBLAS handles, as measured on the H200 (cuBLAS 13.1): a second cublasDestroy of the same handle
// frees cuBLAS's context twice: glibc prints "free(): double free detected in tcache 2" and aborts the
// program (SIGABRT, exit status 134).
// test-libs: -lcublas
// test-status: 134
// test-stderr: ^free\(\): double free detected in tcache 2$
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = NULL;
    check("cublasCreate returns 0", cublasCreate(&h), 0);
    check("cublasDestroy returns 0", cublasDestroy(h), 0);
    fflush(stdout);  // abort() does not flush stdio
    cublasStatus_t s = cublasDestroy(h);
    printf("not reached: the second cublasDestroy returned %d\n", (int)s);
    return 0;
}
