// fact: cuBLAS's Set/GetMatrix and Set/GetVector, as measured on the H200 (cuBLAS 13.1): a leading dimension
// below max(1, rows) returns 11 CUBLAS_STATUS_MAPPING_ERROR, not 7, in the Async forms too; rows < 0, cols < 0
// or elemSize <= 0 return 7; a plain host pointer as the device side of cublasSetMatrix/SetVector returns 11;
// a device pointer as the host side of cublasGetMatrix works (0: unified addressing); a vector's incx or incy
// of 0 or elemSize 0 return 7, n < 0 returns 11, n = 0 returns 0. The Async forms copy on their stream;
// cublasSetMatrixAsync from pageable host memory returned 11 on the H200, and the matrix still arrived (the
// cause was not measured further; cublasSetVectorAsync from pageable memory returned 0).
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    float *d = NULL, host[16] = {0}, x = 1.0f;
    float a[6] = {1, 2, 3, 4, 5, 6}, back[6] = {0};
    cudaStream_t s;
    cudaMalloc(&d, 64 * sizeof(float));
    cudaStreamCreate(&s);

    check("cublasSetMatrix with lda < rows returns 11", cublasSetMatrix(4, 2, 4, &x, 2, d, 4), 11);
    check("cublasSetMatrix with ldb < rows returns 11", cublasSetMatrix(4, 2, 4, host, 4, d, 2), 11);
    check("cublasGetMatrix with lda < rows returns 11", cublasGetMatrix(4, 2, 4, d, 2, host, 4), 11);
    check("cublasSetMatrixAsync with ldb < rows returns 11", cublasSetMatrixAsync(4, 2, 4, &x, 4, d, 2, 0), 11);
    check("cublasGetMatrixAsync with lda < rows returns 11", cublasGetMatrixAsync(4, 2, 4, d, 2, host, 4, s), 11);
    check("cublasSetMatrix with rows < 0 returns 7", cublasSetMatrix(-1, 2, 4, host, 4, d, 4), 7);
    check("cublasSetMatrix with cols < 0 returns 7", cublasSetMatrix(2, -1, 4, host, 4, d, 4), 7);
    check("cublasSetMatrix with elemSize 0 returns 7", cublasSetMatrix(2, 2, 0, host, 4, d, 4), 7);
    check("cublasSetMatrix to a host pointer returns 11", cublasSetMatrix(2, 2, 4, a, 2, host, 2), 11);
    check("cublasSetVector to a host pointer returns 11", cublasSetVector(4, 4, a, 1, host, 1), 11);
    check("cublasSetMatrix of 2 x 3 returns 0", cublasSetMatrix(2, 3, 4, a, 2, d, 2), 0);
    check("cublasGetMatrix into a device pointer returns 0", cublasGetMatrix(2, 3, 4, d, 2, d + 8, 2), 0);
    check("cublasGetMatrix of that copy returns 0", cublasGetMatrix(2, 3, 4, d + 8, 2, back, 2), 0);
    check("and it holds the matrix", back[0] == 1 && back[3] == 4 && back[5] == 6, 1);

    check("cublasSetVector with incy 0 returns 7", cublasSetVector(4, 4, &x, 1, d, 0), 7);
    check("cublasSetVector with incx 0 returns 7", cublasSetVector(4, 4, &x, 0, d, 1), 7);
    check("cublasSetVector with n < 0 returns 11", cublasSetVector(-1, 4, &x, 1, d, 1), 11);
    check("cublasSetVector with elemSize 0 returns 7", cublasSetVector(4, 0, &x, 1, d, 1), 7);
    check("cublasSetVector with n = 0 returns 0", cublasSetVector(0, 4, &x, 1, d, 1), 0);
    check("cublasSetVector with incy 2 returns 0", cublasSetVector(3, 4, a, 1, d, 2), 0);
    check("cublasGetVector with incx 2 returns 0", cublasGetVector(3, 4, d, 2, back, 1), 0);
    check("and it reads the elements back", back[0] == 1 && back[1] == 2 && back[2] == 3, 1);

    float src[6] = {7, 8, 9, 10, 11, 12}, *pinned = NULL;
    cudaMallocHost(&pinned, sizeof src);
    check("cublasSetMatrixAsync from pageable memory returns 11", cublasSetMatrixAsync(2, 3, 4, src, 2, d, 2, s), 11);
    src[0] = -1;  // taken at the call: the copy still sends 7
    check("cublasGetMatrixAsync into pinned memory returns 0", cublasGetMatrixAsync(2, 3, 4, d, 2, pinned, 2, s), 0);
    cudaStreamSynchronize(s);
    check("after the stream synchronizes, the matrix is there", pinned[0] == 7 && pinned[5] == 12, 1);
    check("cublasSetVectorAsync returns 0", cublasSetVectorAsync(3, 4, a, 1, d, 1, s), 0);
    check("cublasGetVectorAsync into pageable memory returns 0", cublasGetVectorAsync(3, 4, d, 1, back, 1, s), 0);
    check("and it is there at once", back[0] == 1 && back[2] == 3, 1);
    cudaFreeHost(pinned);
    cudaStreamDestroy(s);
    cudaFree(d);
    return 0;
}
