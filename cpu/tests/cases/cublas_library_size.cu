// fact: cuBLAS's own device memory, as measured on the H200 (cuBLAS 13.1): the first cublasCreate of a
// process takes 68 MiB of device memory (cudaMemGetInfo's free bytes); cublasDestroy gives none of it back,
// and later handles take nothing more.
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

static long long used_mib(size_t before)
{
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    return (long long)((before - f) >> 20);
}

int main(void)
{
    cublasHandle_t h = NULL, h2 = NULL;
    size_t before = 0, total = 0;
    cudaFree(0);
    cudaMemGetInfo(&before, &total);
    check("cublasCreate returns 0", cublasCreate(&h), 0);
    check("it takes 68 MiB", used_mib(before), 68);
    check("cublasDestroy returns 0", cublasDestroy(h), 0);
    check("which gives none of it back", used_mib(before), 68);
    check("cublasCreate again returns 0", cublasCreate(&h), 0);
    check("a second handle returns 0", cublasCreate(&h2), 0);
    check("and neither takes more", used_mib(before), 68);
    cublasDestroy(h2);
    cublasDestroy(h);
    return 0;
}
