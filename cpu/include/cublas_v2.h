/* cublas_v2.h: the cuBLAS subset the workbook uses, for the CPU backend (cpu/src/cublas.cpp). As in CUDA, the
   public names are macros for the _v2 entry points (cublasCreate is cublasCreate_v2). Link with -lcublas. */
#ifndef CUDAWB_CUBLAS_V2_H
#define CUDAWB_CUBLAS_V2_H
/* cuBLAS's own guards (cublas_api.h's and cublas_v2.h's), which helper headers test */
#define CUBLAS_API_H_
#define CUBLAS_V2_H_
#include "cuda_runtime.h"

#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 1
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100)

/* the statuses, their names and strings: cudawb/cublas_status.def */
typedef enum {
#define CUDAWB_CUBLAS_STATUS(num, name, text) name = num,
#include "cudawb/cublas_status.def"
#undef CUDAWB_CUBLAS_STATUS
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_HERMITAN = 2, CUBLAS_OP_CONJG = 3 } cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef struct cublasContext *cublasHandle_t;

/* Every call but the batched ones and the three below is traced by the grader's shim (grader/shim/cublas.def, with ld's --wrap):
   C names, exactly cuBLAS 13's parameters, and the call site as a last, defaulted parameter (CUDAWB_AT). */
extern "C" cublasStatus_t cublasCreate_v2(cublasHandle_t *handle, CUDAWB_AT);
extern "C" cublasStatus_t cublasDestroy_v2(cublasHandle_t handle, CUDAWB_AT);
extern "C" cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId, CUDAWB_AT);
extern "C" cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId, CUDAWB_AT);
extern "C" cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode, CUDAWB_AT);
extern "C" cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode, CUDAWB_AT);
extern "C" cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes,
                                                CUDAWB_AT);

extern "C" cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                          CUDAWB_AT);
extern "C" cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                          CUDAWB_AT);
extern "C" cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy,
                                          CUDAWB_AT);
extern "C" cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy, CUDAWB_AT);
extern "C" cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                               int ldb, cudaStream_t stream, CUDAWB_AT);
extern "C" cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                               int ldb, cudaStream_t stream, CUDAWB_AT);
extern "C" cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx, void *devicePtr,
                                               int incy, cudaStream_t stream, CUDAWB_AT);
extern "C" cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx, void *hostPtr,
                                               int incy, cudaStream_t stream, CUDAWB_AT);

extern "C" cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float *alpha, const float *A, int lda,
                                         const float *B, int ldb, const float *beta, float *C, int ldc, CUDAWB_AT);
extern "C" cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const double *alpha, const double *A, int lda,
                                         const double *B, int ldb, const double *beta, double *C, int ldc, CUDAWB_AT);
extern "C" cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                                         const float *alpha, const float *A, int lda, const float *x, int incx,
                                         const float *beta, float *y, int incy, CUDAWB_AT);
extern "C" cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                                         const double *alpha, const double *A, int lda, const double *x, int incx,
                                         const double *beta, double *y, int incy, CUDAWB_AT);
extern "C" cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x, int incx,
                                         float *y, int incy, CUDAWB_AT);
extern "C" cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n, const float *alpha, float *x, int incx,
                                         CUDAWB_AT);
extern "C" cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x, int incx, const float *y,
                                        int incy, float *result, CUDAWB_AT);
extern "C" cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float *x, int incx, float *result,
                                         CUDAWB_AT);

/* the batched calls (src/cublas_batched.cpp): not traced (no lesson uses them), but declared the same way */
extern "C" cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                             cublasOperation_t transb, int m, int n, int k, const float *alpha,
                                             const float *const Aarray[], int lda, const float *const Barray[],
                                             int ldb, const float *beta, float *const Carray[], int ldc,
                                             int batchCount, CUDAWB_AT);
extern "C" cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                             cublasOperation_t transb, int m, int n, int k, const double *alpha,
                                             const double *const Aarray[], int lda, const double *const Barray[],
                                             int ldb, const double *beta, double *const Carray[], int ldc,
                                             int batchCount, CUDAWB_AT);
extern "C" cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                                    cublasOperation_t transb, int m, int n, int k,
                                                    const float *alpha, const float *A, int lda,
                                                    long long int strideA, const float *B, int ldb,
                                                    long long int strideB, const float *beta, float *C, int ldc,
                                                    long long int strideC, int batchCount, CUDAWB_AT);
extern "C" cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                                    cublasOperation_t transb, int m, int n, int k,
                                                    const double *alpha, const double *A, int lda,
                                                    long long int strideA, const double *B, int ldb,
                                                    long long int strideB, const double *beta, double *C, int ldc,
                                                    long long int strideC, int batchCount, CUDAWB_AT);
extern "C" cublasStatus_t cublasSgetrfBatched(cublasHandle_t handle, int n, float *const A[], int lda, int *P,
                                              int *info, int batchSize, CUDAWB_AT);
extern "C" cublasStatus_t cublasDgetrfBatched(cublasHandle_t handle, int n, double *const A[], int lda, int *P,
                                              int *info, int batchSize, CUDAWB_AT);

/* not traced */
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);

#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasGetVersion cublasGetVersion_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasGetPointerMode cublasGetPointerMode_v2
#define cublasSetWorkspace cublasSetWorkspace_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2
#define cublasSgemv cublasSgemv_v2
#define cublasDgemv cublasDgemv_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasSscal cublasSscal_v2
#define cublasSdot cublasSdot_v2
#define cublasSnrm2 cublasSnrm2_v2
#endif
