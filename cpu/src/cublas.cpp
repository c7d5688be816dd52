// cublas.cpp: the cuBLAS subset the workbook uses. Like the real library, the compute calls are queued on the
// handle's stream and run at the next synchronizing call; arguments are checked first, with cuBLAS's status
// codes and its " ** On entry to SGEMM  parameter number N had an illegal value" messages.
#include "internal.h"
#include "../include/cublas_v2.h"
#include <math.h>
#include <string.h>

using namespace rt;

struct cublasContext {
    unsigned int magic;
    cudaStream_t stream;
    cublasPointerMode_t mode;
};
static const unsigned int live_magic = 0xc0b1a5u;

static bool valid(cublasHandle_t h) { return h && h->magic == live_magic; }

// cuBLAS's xerbla: names the routine and the 1-based parameter (the handle is not counted).
static cublasStatus_t illegal(const char *routine, int param) {
    fflush(stdout);
    printf(" ** On entry to %s  parameter number %d had an illegal value\n", routine, param);
    fflush(stdout);
    return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle, cudawb_site) {
    init();
    if (cfg.no_device || sticky_error()) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    *handle = new cublasContext{live_magic, 0, CUBLAS_POINTER_MODE_HOST};
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle, cudawb_site) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    flush();  // like cuBLAS, destroying the handle waits for its work
    handle->magic = 0;
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!valid_stream(stream)) return CUBLAS_STATUS_INVALID_VALUE;
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!stream) return CUBLAS_STATUS_INVALID_VALUE;
    *stream = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
    handle->mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->mode;
    return CUBLAS_STATUS_SUCCESS;
}

// Names and texts as cuBLAS 13.1 prints them (include/cudawb/cublas_status.def).
const char *cublasGetStatusName(cublasStatus_t status) {
    switch ((int)status) {
#define CUDAWB_CUBLAS_STATUS(num, name, text) case num: return #name;
#include "../include/cudawb/cublas_status.def"
#undef CUDAWB_CUBLAS_STATUS
    }
    return "unrecognized status";
}

const char *cublasGetStatusString(cublasStatus_t status) {
    switch ((int)status) {
#define CUDAWB_CUBLAS_STATUS(num, name, text) case num: return text;
#include "../include/cudawb/cublas_status.def"
#undef CUDAWB_CUBLAS_STATUS
    }
    return "unrecognized status";
}

// ---- transfers (synchronous, strided) ----

static cublasStatus_t transfer(int rows, int cols, int elem, const void *src, int lds, void *dst, int ldd) {
    if (sticky_error()) return CUBLAS_STATUS_MAPPING_ERROR;
    if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
    cudaError_t e = cudaMemcpy2D(dst, (size_t)ldd * elem, src, (size_t)lds * elem, (size_t)rows * elem, cols,
                                 cudaMemcpyDefault);
    if (e) cudaGetLastError();
    return e ? CUBLAS_STATUS_MAPPING_ERROR : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb) {
    if (rows < 0 || cols < 0 || elemSize <= 0 || lda <= 0 || ldb <= 0 || lda < rows || ldb < rows)
        return CUBLAS_STATUS_INVALID_VALUE;
    return transfer(rows, cols, elemSize, A, lda, B, ldb);
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb) {
    return cublasSetMatrix(rows, cols, elemSize, A, lda, B, ldb);
}

// A strided vector is a matrix of one-element rows, its columns inc elements apart.
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
    if (n < 0 || elemSize <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
    return transfer(1, n, elemSize, x, incx, y, incy);
}

cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
    return cublasSetVector(n, elemSize, x, incx, y, incy);
}

// ---- compute calls: queued on the handle's stream ----

// A cuBLAS kernel: runs with the device pages open; a pageable host pointer makes it fault like a GPU would,
// and managed memory it is given becomes resident, as for a kernel of our own (launch.cpp).
template <class F> struct blas_op : op {
    F body;
    bool host_pointer;
    const void *ptrs[3];
    explicit blas_op(const F &f) : body(f), host_pointer(false) {}
    void run() override {
        if (host_pointer) {
            set_sticky(cfg.memcheck ? cudaErrorLaunchFailure : cudaErrorIllegalAddress);
            return;
        }
        for (const void *p : ptrs)
            if (p) make_resident(p);
        body();
    }
};

template <class F> static cublasStatus_t submit(cublasHandle_t h, const F &f, const void *p1, const void *p2,
                                                const void *p3) {
    blas_op<F> *o = new blas_op<F>(f);
    const void *ptrs[3] = {p1, p2, p3};
    for (int i = 0; i < 3; i++) {
        o->ptrs[i] = ptrs[i];
        if (ptrs[i] && !cudawb::device_accessible(ptrs[i])) o->host_pointer = true;
    }
    o->stream = h->stream;
    enqueue(o);
    return CUBLAS_STATUS_SUCCESS;
}

// Reads a scalar argument: at call time in host pointer mode, at run time in device mode.
template <class T> struct scalar {
    const T *p;
    T value;
    bool device;
    T get() const { return device ? *p : value; }
};
template <class T> static scalar<T> take(cublasHandle_t h, const T *p) {
    scalar<T> s = {p, T(0), h->mode == CUBLAS_POINTER_MODE_DEVICE};
    if (!s.device) s.value = *p;
    return s;
}

static bool bad_op(cublasOperation_t op) { return op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C; }

// C = alpha op(A) op(B) + beta C, column-major. The inner loop runs down a column of C (unit stride).
template <class T>
static void gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, T alpha, const T *A, int lda,
                 const T *B, int ldb, T beta, T *C, int ldc) {
    for (int j = 0; j < n; j++) {
        T *c = C + (size_t)j * ldc;
        for (int i = 0; i < m; i++) c[i] = beta == T(0) ? T(0) : beta * c[i];
        for (int l = 0; l < k; l++) {
            T b = tb == CUBLAS_OP_N ? B[l + (size_t)j * ldb] : B[j + (size_t)l * ldb];
            T ab = alpha * b;
            if (ta == CUBLAS_OP_N) {
                const T *a = A + (size_t)l * lda;
                for (int i = 0; i < m; i++) c[i] += ab * a[i];
            } else {
                for (int i = 0; i < m; i++) c[i] += ab * A[l + (size_t)i * lda];
            }
        }
    }
}

template <class T>
static cublasStatus_t gemm_call(const char *routine, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                int m, int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,
                                const T *beta, T *C, int ldc) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    int rows_a = ta == CUBLAS_OP_N ? m : k, rows_b = tb == CUBLAS_OP_N ? k : n;
    if (bad_op(ta)) return illegal(routine, 1);
    if (bad_op(tb)) return illegal(routine, 2);
    if (m < 0) return illegal(routine, 3);
    if (n < 0) return illegal(routine, 4);
    if (k < 0) return illegal(routine, 5);
    if (lda < (rows_a > 1 ? rows_a : 1)) return illegal(routine, 8);
    if (ldb < (rows_b > 1 ? rows_b : 1)) return illegal(routine, 10);
    if (ldc < (m > 1 ? m : 1)) return illegal(routine, 13);
    if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    scalar<T> a = take(h, alpha), b = take(h, beta);
    return submit(h, [=] { gemm<T>(ta, tb, m, n, k, a.get(), A, lda, B, ldb, b.get(), C, ldc); }, A, B, C);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                              const float *beta, float *C, int ldc) {
    return gemm_call("SGEMM", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const double *alpha, const double *A, int lda, const double *B,
                              int ldb, const double *beta, double *C, int ldc) {
    return gemm_call("DGEMM", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float *alpha,
                              const float *A, int lda, const float *x, int incx, const float *beta, float *y,
                              int incy) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (bad_op(trans)) return illegal("SGEMV", 1);
    if (m < 0) return illegal("SGEMV", 2);
    if (n < 0) return illegal("SGEMV", 3);
    if (lda < (m > 1 ? m : 1)) return illegal("SGEMV", 6);
    if (incx == 0) return illegal("SGEMV", 8);
    if (incy == 0) return illegal("SGEMV", 11);
    if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    scalar<float> a = take(h, alpha), b = take(h, beta);
    return submit(h, [=] {
        int leny = trans == CUBLAS_OP_N ? m : n, lenx = trans == CUBLAS_OP_N ? n : m;
        float al = a.get(), be = b.get();
        int ky = incy > 0 ? 0 : (1 - leny) * incy, kx = incx > 0 ? 0 : (1 - lenx) * incx;
        for (int i = 0; i < leny; i++) {
            double sum = 0;
            for (int j = 0; j < lenx; j++) {
                float aij = trans == CUBLAS_OP_N ? A[i + (size_t)j * lda] : A[j + (size_t)i * lda];
                sum += (double)aij * x[kx + j * incx];
            }
            float *yi = &y[ky + i * incy];
            *yi = (float)(al * sum + (be == 0.0f ? 0.0f : be * *yi));
        }
    }, A, x, y);
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float *alpha, const float *x, int incx, float *y,
                              int incy) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    scalar<float> a = take(h, alpha);
    return submit(h, [=] {
        float al = a.get();
        int kx = incx >= 0 ? 0 : (1 - n) * incx, ky = incy >= 0 ? 0 : (1 - n) * incy;
        for (int i = 0; i < n; i++) y[ky + i * incy] += al * x[kx + i * incx];
    }, x, y, NULL);
}

cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float *alpha, float *x, int incx) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
    scalar<float> a = take(h, alpha);
    return submit(h, [=] {
        float al = a.get();
        for (int i = 0; i < n; i++) x[i * incx] *= al;
    }, x, NULL, NULL);
}

// Reductions with a host result pointer return only when the result is there: they synchronize.
template <class F> static cublasStatus_t reduction(cublasHandle_t h, float *result, const F &compute,
                                                   const void *x, const void *y) {
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    cublasStatus_t s = submit(h, [=] { *result = compute(); }, x, y,
                              h->mode == CUBLAS_POINTER_MODE_DEVICE ? (const void *)result : NULL);
    if (h->mode == CUBLAS_POINTER_MODE_HOST && flush_stream(h->stream)) return CUBLAS_STATUS_EXECUTION_FAILED;
    return s;
}

cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float *x, int incx, const float *y, int incy,
                             float *result) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    return reduction(h, result, [=] {
        double sum = 0;
        int kx = incx >= 0 ? 0 : (1 - n) * incx, ky = incy >= 0 ? 0 : (1 - n) * incy;
        for (int i = 0; i < n; i++) sum += (double)x[kx + i * incx] * y[ky + i * incy];
        return (float)sum;
    }, n > 0 ? x : NULL, n > 0 ? y : NULL);
}

cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float *x, int incx, float *result) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    return reduction(h, result, [=] {
        double sum = 0;
        if (n > 0 && incx > 0)
            for (int i = 0; i < n; i++) sum += (double)x[i * incx] * x[i * incx];
        return (float)sqrt(sum);
    }, n > 0 && incx > 0 ? x : NULL, NULL);
}
