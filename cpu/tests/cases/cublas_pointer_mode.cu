// fact: cuBLAS in CUBLAS_POINTER_MODE_DEVICE, as measured on the H200 (cuBLAS 13.1): an alpha or beta in host
// memory (cublasSgemm), or a host result pointer (cublasSdot, cublasSnrm2), is not checked by the call, which
// returns 0; its kernel then faults: the next synchronize returns 700 cudaErrorIllegalAddress, sticky, and
// later cuBLAS calls return 13 CUBLAS_STATUS_EXECUTION_FAILED.
// test-libs: -lcublas
// test-args: alpha | beta | dot | nrm2
#include <string.h>
#include <cublas_v2.h>
#include "check.h"

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "alpha";
    cublasHandle_t h = NULL;
    float *d = NULL, *d_one = NULL, one = 1.0f, result = 0.0f;
    cudaMalloc(&d, 64 * sizeof(float));
    cudaMalloc(&d_one, sizeof(float));
    cudaMemset(d, 0, 64 * sizeof(float));
    cudaMemcpy(d_one, &one, sizeof one, cudaMemcpyHostToDevice);
    cublasCreate(&h);
    check("cublasSetPointerMode(DEVICE) returns 0", cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), 0);
    check("a correct call in device mode returns 0",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, d_one, d, 4, d, 4, d_one, d + 16, 4), 0);
    check("and runs", cudaDeviceSynchronize(), 0);
    cublasStatus_t s;
    if (strcmp(how, "alpha") == 0)
        s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, d_one, d + 16, 4);
    else if (strcmp(how, "beta") == 0)
        s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, d_one, d, 4, d, 4, &one, d + 16, 4);
    else if (strcmp(how, "dot") == 0)
        s = cublasSdot(h, 16, d, 1, d + 16, 1, &result);
    else
        s = cublasSnrm2(h, 16, d, 1, &result);
    check("the call with a host pointer returns 0", s, 0);
    check("the next synchronize returns 700", cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    check("and it is sticky", cudaMemset(d, 0, 4), cudaErrorIllegalAddress);
    check("a later cublasSgemm returns 13",
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, d_one, d, 4, d, 4, d_one, d + 16, 4), 13);
    return 0;
}
