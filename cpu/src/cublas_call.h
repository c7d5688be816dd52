// cublas_call.h: what cuBLAS's compute calls share (cublas.cpp, cublas_batched.cpp): the handle, its checks,
// cuBLAS's xerbla message, and the kernel that runs a call's work on the handle's stream.
#ifndef CUDAWB_CUBLAS_CALL_H
#define CUDAWB_CUBLAS_CALL_H
#include "internal.h"
#include "../include/cublas_v2.h"
#include <initializer_list>

// Handles are never freed (cublas.cpp): a destroyed one stays, no longer live.
struct cublasContext {
    bool live;
    size_t bytes;  // the device memory this handle holds until it is destroyed
    cudaStream_t stream;
    cublasPointerMode_t mode;
};

namespace rt {
// 0 for a live handle, else the status a call on it returns (cublas.cpp)
cublasStatus_t usable(cublasHandle_t h);
// cuBLAS's xerbla: " ** On entry to ROUTINE  parameter number N had an illegal value" on stdout (the handle is
// not counted), and 7
cublasStatus_t illegal(const char *routine, int param);

// A pointer a cuBLAS kernel was given that the GPU cannot reach (pageable host memory, NULL): the kernel
// faults as a GPU kernel would, a sticky 700 (719, reported, under the memory checker).
inline void library_fault(const void *p) {
    memcheck_library_fault(p);
    set_sticky(cfg.memcheck ? cudaErrorLaunchFailure : cudaErrorIllegalAddress);
}

// A cuBLAS kernel: runs with the device pages open. A pointer it is given that the GPU cannot reach (pageable
// host memory, for the matrices, or for a scalar in device pointer mode) makes it fault before anything is
// read. Managed memory it is given becomes resident, as for a kernel of our own (launch.cpp).
enum { MAX_POINTERS = 5 };
template <class F> struct blas_op : op {
    F body;
    bool host_pointer;
    const void *ptrs[MAX_POINTERS];
    explicit blas_op(const F &f) : body(f), host_pointer(false) {}
    void run() override {
        if (host_pointer) {
            for (const void *p : ptrs)
                if (p && !cudawb::device_accessible(p)) {
                    memcheck_library_fault(p);
                    break;
                }
            set_sticky(cfg.memcheck ? cudaErrorLaunchFailure : cudaErrorIllegalAddress);
            return;
        }
        for (const void *p : ptrs)
            if (p) make_resident(p);
        body();
    }
};

// Queues f with the device pointers it reads or writes (NULL for none). After a kernel fault the context is
// unusable and the launch itself fails: 13, as the H200 returned for every later cuBLAS call.
template <class F>
static cublasStatus_t submit(cublasHandle_t h, const F &f, std::initializer_list<const void *> pointers) {
    if (context_error()) return CUBLAS_STATUS_EXECUTION_FAILED;
    blas_op<F> *o = new blas_op<F>(f);
    int i = 0;
    for (const void *p : pointers) {
        o->ptrs[i++] = p;
        if (p && !cudawb::device_accessible(p)) o->host_pointer = true;
    }
    while (i < MAX_POINTERS) o->ptrs[i++] = NULL;
    o->stream = h->stream;
    enqueue(o);
    return CUBLAS_STATUS_SUCCESS;
}

// A scalar argument: read at the call in host pointer mode; in device mode the pointer goes to the kernel
// (submit checks that the GPU can reach it) and is read when it runs.
template <class T> struct scalar {
    const T *p;
    T value;
    bool device;
    T get() const { return device ? *p : value; }
    const void *kernel_pointer() const { return device ? p : NULL; }
};
template <class T> static scalar<T> take(cublasHandle_t h, const T *p) {
    scalar<T> s = {p, T(0), h->mode == CUBLAS_POINTER_MODE_DEVICE};
    if (!s.device) s.value = *p;
    return s;
}

// GEMM's argument checks, in cuBLAS's order and with its parameter numbers (transa is 1, ldc 13); 0 or 7
cublasStatus_t gemm_checks(const char *routine, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           int lda, int ldb, int ldc);

inline bool bad_op(cublasOperation_t op) { return op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C; }
}  // namespace rt
#endif
