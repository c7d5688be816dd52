// fact: cuBLAS: cublasSgemm on pageable host pointers returns 0; the next synchronize gives a sticky 700.
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = NULL;
    static float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4];
    float one = 1.0f, zero = 0.0f;
    int *d = NULL;
    cublasCreate(&h);
    check("cublasSgemm on host arrays returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a, 2, b, 2, &zero, c, 2), 0);
    check("the next synchronize returns 700", cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    check("and it is sticky", cudaMalloc(&d, 16), 700);
    return 0;
}
