// fact: cuBLAS: under the memory checker, a product whose operand runs past its allocation is reported as
// invalid global reads inside the library, after the nearest allocation, and the next synchronize returns
// 719, as for a kernel of our own. Lesson 07's leading-dimension-is-the-columns variant failed the memory
// checker's step on the H200 with 100 such reads (2026-12-07, tests/gpu/README.md); this case's exact words
// on the H200 are still to be measured (cpu/README.md, "To measure on the GPU").
// test-libs: -lcublas
// test-sanitizer: --error-exitcode 86
// test-status: 86
// test-stderr: Invalid __global__ read of size 4 bytes
// test-stderr: is out of bounds
// test-stderr: after the nearest allocation at 0x[0-9a-f]+ of size 1,?024 bytes
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
    // B's 16 columns 4,096 floats apart: 240 KB past its 1,024 bytes, beyond the other buffers.
    check("a product reading past B returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, a, 16, b, 4096, &zero, c, 16), 0);
    check("the next synchronize returns 719", cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    return 0;
}
