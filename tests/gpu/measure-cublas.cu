// measure-cublas.cu: what cuBLAS's own device memory does around cublasCreate and cublasDestroy, and which
// status a few calls return (tests/gpu/README.md records the numbers). nvcc -o m measure-cublas.cu -lcublas
#include <cublas_v2.h>
#include <stdio.h>

static size_t free_mib(void)
{
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    return f >> 20;
}

int main(void)
{
    cublasHandle_t h = NULL, h2 = NULL;
    float *d = NULL, x = 1.0f;
    cudaFree(0);
    printf("free after context: %zu MiB\n", free_mib());
    printf("cublasCreate: %d, free %zu MiB\n", (int)cublasCreate(&h), free_mib());
    printf("cublasDestroy: %d, free %zu MiB\n", (int)cublasDestroy(h), free_mib());
    printf("cublasCreate again: %d, free %zu MiB\n", (int)cublasCreate(&h), free_mib());
    printf("second handle: %d, free %zu MiB\n", (int)cublasCreate(&h2), free_mib());
    cudaMalloc((void **)&d, 64 * sizeof(float));
    printf("cublasSetMatrix lda < rows: %d\n", (int)cublasSetMatrix(4, 2, 4, &x, 2, d, 4));
    printf("cublasSetMatrixAsync ldb < rows: %d\n", (int)cublasSetMatrixAsync(4, 2, 4, &x, 4, d, 2, 0));
    printf("cublasGetMatrix, device pointer as host side: %d\n", (int)cublasGetMatrix(2, 2, 4, d, 2, d + 8, 2));
    printf("cublasSetVector incy 0: %d\n", (int)cublasSetVector(4, 4, &x, 1, d, 0));
    printf("cublasSetWorkspace 0 bytes: %d\n", (int)cublasSetWorkspace(h, NULL, 0));
    printf("cublasSgemm k = 0: %d\n", (int)cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 0, &x, d, 2, d, 2, &x, d, 2));
    printf("cublasDestroy both: %d %d, free %zu MiB\n", (int)cublasDestroy(h2), (int)cublasDestroy(h), free_mib());
    cudaFree(d);
    return 0;
}
