// fact: cuBLAS: a product whose operand runs past its allocation (a leading dimension larger than the buffer's
// column) returns 0 at the call; an overrun of ~1 KB ends silently (the next synchronize returns 0, as a
// kernel's small overrun does), one of 15 GiB ends the kernel with the sticky 700 (as a kernel's far write
// does). Not yet measured on the H200 for cuBLAS's own kernels (cpu/README.md, "To measure on the GPU").
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    cublasHandle_t h = NULL;
    float *a = NULL, *b = NULL, *c = NULL;
    const float one = 1.0f, zero = 0.0f;
    cublasCreate(&h);
    cudaMalloc(&a, 16 * 16 * sizeof(float));
    cudaMalloc(&c, 16 * 16 * sizeof(float));
    cudaMalloc(&b, 16 * 16 * sizeof(float));
    // B as 16 columns 32 apart: it spans 15 x 32 + 16 floats, 1,024 bytes more than its 1,024.
    check("a product reading 1 KB past B returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, a, 16, b, 32, &zero, c, 16), 0);
    check("and the next synchronize returns 0", cudaDeviceSynchronize(), 0);
    // B's columns 2^28 floats apart: 15 GiB past it.
    check("a product reading 15 GiB past B returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, a, 16, b, 1 << 28, &zero, c, 16), 0);
    check("the next synchronize returns 700", cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    return 0;
}
