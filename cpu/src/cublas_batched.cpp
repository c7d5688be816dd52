// cublas_batched.cpp: cuBLAS's batched calls (gemmBatched, gemmStridedBatched, getrfBatched), as cuBLAS 13.1
// documents them. A call is one kernel queued on the handle's stream, like cublas.cpp's (cublas_call.h); the
// arrays of matrix pointers live in GPU memory and are read by that kernel, so an array in pageable host
// memory makes it fault (sticky 700) as a matrix there does. Before anything is computed every pointer the
// kernel would follow is checked, and each matrix's span against its allocation (blas_operand.h).
#include "internal.h"
#include "gemm.h"
#include "blas_operand.h"
#include "cublas_call.h"
#include <cmath>
#include <limits>
#include <utility>

using namespace rt;

// A pointer the kernel reads from an array or was given for its output: GPU memory, else the kernel faults.
static bool reachable(const void *p) {
    if (p && cudawb::device_accessible(p)) return true;
    library_fault(p);
    return false;
}

// An array of count pointers, as the kernel reads it: reachable, and within its allocation.
static bool pointer_array_ok(const void *array, int count) {
    if (!reachable(array)) return false;
    blas_operand o(array, count, 1, count, sizeof(void *), false);
    return !blas_operands_fault({&o});
}

// ---- gemm over a batch: gemm (gemm.h) once per matrix ----

// The matrices of one product, checked as gemm_call checks its operands; the managed ones become resident.
template <class T>
static bool product_ok(bool tra, bool trb, int m, int n, int k, const T *A, int lda, const T *B, int ldb, T *C,
                       int ldc) {
    if (!reachable(A) || !reachable(B) || !reachable(C)) return false;
    blas_operand oa(A, tra ? k : m, tra ? m : k, lda, sizeof(T), false),
        ob(B, trb ? n : k, trb ? k : n, ldb, sizeof(T), false), oc(C, m, n, ldc, sizeof(T), true);
    if (blas_operands_fault({&oa, &ob, &oc})) return false;
    make_resident(A);
    make_resident(B);
    make_resident(C);
    return true;
}

// Matrix i of the batch, for both forms: from the arrays of pointers, or base + i * stride.
template <class T> struct batch {
    const T *const *a_array;  // NULL for the strided form
    const T *const *b_array;
    T *const *c_array;
    const T *a, *b;
    T *c;
    long long stride_a, stride_b, stride_c;
    const T *A(int i) const { return a_array ? a_array[i] : a + i * stride_a; }
    const T *B(int i) const { return b_array ? b_array[i] : b + i * stride_b; }
    T *C(int i) const { return c_array ? c_array[i] : c + i * stride_c; }
};

// The checks are gemm's, under the batched routine's name (cuBLAS printed "SgemmBatched  parameter number
// 13" for an ldc below m), then a batch count below 0, which the documentation makes a 7.
template <class T>
static cublasStatus_t gemm_batch_call(const char *routine, cublasHandle_t h, cublasOperation_t ta,
                                      cublasOperation_t tb, int m, int n, int k, const T *alpha, int lda, int ldb,
                                      const T *beta, int ldc, const batch<T> &bt, int count) {
    if (cublasStatus_t s = usable(h)) return s;
    if (cublasStatus_t s = gemm_checks(routine, ta, tb, m, n, k, lda, ldb, ldc)) return s;
    if (count < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
    scalar<T> a = take(h, alpha), b = take(h, beta);
    bool tra = ta != CUBLAS_OP_N, trb = tb != CUBLAS_OP_N;  // CUBLAS_OP_C is a transpose for real matrices
    return submit(h, [=] {
        if (bt.a_array && !(pointer_array_ok(bt.a_array, count) && pointer_array_ok(bt.b_array, count) &&
                            pointer_array_ok(bt.c_array, count)))
            return;
        for (int i = 0; i < count; i++)
            if (!product_ok(tra, trb, m, n, k, bt.A(i), lda, bt.B(i), ldb, bt.C(i), ldc)) return;
        T al = a.get(), be = b.get();
        for (int i = 0; i < count; i++) gemm<T>(tra, trb, m, n, k, al, bt.A(i), lda, bt.B(i), ldb, be, bt.C(i), ldc);
    },
                  {bt.a_array, bt.b_array, bt.c_array, a.kernel_pointer(), b.kernel_pointer()});
}

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const float *alpha, const float *const Aarray[], int lda,
                                  const float *const Barray[], int ldb, const float *beta, float *const Carray[],
                                  int ldc, int batchCount, cudawb_site) {
    batch<float> bt = {Aarray, Barray, Carray, NULL, NULL, NULL, 0, 0, 0};
    return gemm_batch_call("SgemmBatched", handle, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, bt,
                           batchCount);
}

cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const double *alpha, const double *const Aarray[], int lda,
                                  const double *const Barray[], int ldb, const double *beta,
                                  double *const Carray[], int ldc, int batchCount, cudawb_site) {
    batch<double> bt = {Aarray, Barray, Carray, NULL, NULL, NULL, 0, 0, 0};
    return gemm_batch_call("DgemmBatched", handle, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, bt,
                           batchCount);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float *alpha, const float *A, int lda,
                                         long long strideA, const float *B, int ldb, long long strideB,
                                         const float *beta, float *C, int ldc, long long strideC, int batchCount,
                                         cudawb_site) {
    batch<float> bt = {NULL, NULL, NULL, A, B, C, strideA, strideB, strideC};
    return gemm_batch_call("SgemmStridedBatched", handle, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, bt,
                           batchCount);
}

cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const double *alpha, const double *A, int lda,
                                         long long strideA, const double *B, int ldb, long long strideB,
                                         const double *beta, double *C, int ldc, long long strideC, int batchCount,
                                         cudawb_site) {
    batch<double> bt = {NULL, NULL, NULL, A, B, C, strideA, strideB, strideC};
    return gemm_batch_call("DgemmStridedBatched", handle, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, bt,
                           batchCount);
}

// ---- LU factorization over a batch ----

// LAPACK's getf2, in the matrix's precision: for each column j the pivot is the first element of largest
// magnitude at or below the diagonal (its row, 1-based, in piv[j]), rows j and the pivot's are swapped across
// the whole matrix, the column below the diagonal is divided by the pivot (multiplied by its reciprocal
// unless that would overflow) and the trailing matrix updated. A zero pivot leaves the column unscaled and
// the factorization goes on; the result is the 1-based index of the first one, else 0. Without piv the
// diagonal is the pivot.
template <class T> static int getrf(int n, T *A, int lda, int *piv) {
    int info = 0;
    for (int j = 0; j < n; j++) {
        T *col = A + (size_t)j * lda;
        int p = j;
        if (piv) {
            T best = std::abs(col[j]);
            for (int i = j + 1; i < n; i++)
                if (std::abs(col[i]) > best) best = std::abs(col[i]), p = i;
            piv[j] = p + 1;
        }
        if (col[p] != T(0)) {
            if (p != j)
                for (int c = 0; c < n; c++) std::swap(A[j + (size_t)c * lda], A[p + (size_t)c * lda]);
            T pivot = col[j];
            if (std::abs(pivot) >= std::numeric_limits<T>::min()) {
                T r = T(1) / pivot;
                for (int i = j + 1; i < n; i++) col[i] *= r;
            } else {
                for (int i = j + 1; i < n; i++) col[i] /= pivot;
            }
        } else if (info == 0) {
            info = j + 1;
        }
        for (int c = j + 1; c < n; c++) {  // A22 -= column j below the diagonal x row j right of it
            T *cc = A + (size_t)c * lda, u = cc[j];
            if (u != T(0))
                for (int i = j + 1; i < n; i++) cc[i] -= col[i] * u;
        }
    }
    return info;
}

// The documentation's checks: n or the batch size below 0, or lda below max(1, n), are a 7 (whether the
// real library also prints a message was not measured). P may be NULL (no pivoting); info may not: the
// kernel writes one int per matrix there, n to P.
template <class T>
static cublasStatus_t getrf_call(cublasHandle_t h, int n, T *const A[], int lda, int *P, int *info, int count) {
    if (cublasStatus_t s = usable(h)) return s;
    if (n < 0 || lda < (n > 1 ? n : 1) || count < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
    return submit(h, [=] {
        if (!pointer_array_ok(A, count) || !reachable(info)) return;
        blas_operand oi(info, count, 1, count, sizeof(int), true), op(P, n, count, n, sizeof(int), true);
        if (blas_operands_fault({&oi, &op})) return;
        for (int i = 0; i < count; i++) {
            if (!reachable(A[i])) return;
            blas_operand oa(A[i], n, n, lda, sizeof(T), true);
            if (blas_operands_fault({&oa})) return;
            make_resident(A[i]);
        }
        for (int i = 0; i < count; i++) info[i] = getrf(n, A[i], lda, P ? P + (size_t)i * n : NULL);
    },
                  {A, P, info});
}

cublasStatus_t cublasSgetrfBatched(cublasHandle_t handle, int n, float *const A[], int lda, int *P, int *info,
                                   int batchSize, cudawb_site) {
    return getrf_call(handle, n, A, lda, P, info, batchSize);
}

cublasStatus_t cublasDgetrfBatched(cublasHandle_t handle, int n, double *const A[], int lda, int *P, int *info,
                                   int batchSize, cudawb_site) {
    return getrf_call(handle, n, A, lda, P, info, batchSize);
}
