// fact: cuBLAS's own device memory, as measured on the H200 (cuBLAS 13.1): the first cublasCreate of a
// process takes 68 MiB of device memory (cudaMemGetInfo's free bytes); cublasDestroy gives all but 2 MiB of
// it back; a handle created again and a second one beside it hold 132 MiB together (with those 2).
// (An earlier probe, tests/gpu/measure-cublas.cu, read cudaMemGetInfo right after each call and saw the
// drop one call late; this case is the one the CPU backend follows.)
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
    check("which gives all but 2 MiB back", used_mib(before), 2);
    check("cublasCreate again returns 0", cublasCreate(&h), 0);
    check("a second handle returns 0", cublasCreate(&h2), 0);
    check("and the two hold 132 MiB", used_mib(before), 132);
    cublasDestroy(h2);
    cublasDestroy(h);
    return 0;
}
