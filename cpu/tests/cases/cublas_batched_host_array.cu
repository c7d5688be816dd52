// cuBLAS's batched calls read their arrays of matrix pointers on the GPU, as cuBLAS 13.1 documents (not
// measured on the H200): an array in pageable host memory is not checked by the call, which returns 0; its
// kernel faults as cublasSgemm's does on a host matrix: the next synchronize returns 700, sticky, and later
// cuBLAS calls return 13.
// test-libs: -lcublas
// test-args: gemm | getrf
#include <string.h>
#include <cublas_v2.h>
#include "check.h"

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "gemm";
    cublasHandle_t h;
    float *d, one = 1;
    int *d_info;
    cudaMalloc(&d, 3 * 4 * sizeof(float));
    cudaMalloc(&d_info, sizeof(int));
    cudaMemset(d, 0, 3 * 4 * sizeof(float));
    cublasCreate(&h);
    const float *h_a[1] = {d}, *h_b[1] = {d + 4};
    float *h_c[1] = {d + 8};
    cublasStatus_t s;
    if (strcmp(how, "gemm") == 0)
        s = cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, h_a, 2, h_b, 2, &one, h_c, 2, 1);
    else
        s = cublasSgetrfBatched(h, 2, h_c, 2, NULL, d_info, 1);
    check("the call with a host array of pointers returns 0", s, 0);
    check("the next synchronize returns 700", cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    check("and it is sticky", cudaMemset(d, 0, 4), cudaErrorIllegalAddress);
    check("a later cublasSgemm returns 13",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d + 8, 2), 13);
    return 0;
}
