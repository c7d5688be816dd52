/* cublas.c: one __wrap_ function per line of cublas.def, on both backends. Linked only into programs
 * that use cuBLAS: its __real_ references need the library. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cublas_v2.h>

#include "trace.h"
#include "wrap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a class is to the trace, and what an injected failure of it returns. */
#define CB_CLASS_CREATE TR_CREATE
#define CB_CLASS_DESTROY TR_DESTROY
#define CB_CLASS_OP TR_OP
#define CB_CLASS_XFER TR_OP
#define CB_FAIL_CREATE CUBLAS_STATUS_ALLOC_FAILED
#define CB_FAIL_DESTROY CUBLAS_STATUS_EXECUTION_FAILED
#define CB_FAIL_OP CUBLAS_STATUS_EXECUTION_FAILED
#define CB_FAIL_XFER CUBLAS_STATUS_MAPPING_ERROR

/* Handles by creation order: handle#1, handle#2... (a handle the trace never saw created: handle#?). */
static const void *handles[64];
static int nhandles;

static void cb_name_handle(struct tr_rec *r, const void *h)
{
    int i;
    char name[32];
    for (i = nhandles - 1; i >= 0 && handles[i] != h; i--)
        ;
    if (h == NULL)
        snprintf(name, sizeof name, "null");
    else if (i < 0)
        snprintf(name, sizeof name, "handle#?");
    else
        snprintf(name, sizeof name, "handle#%d", i + 1);
    tr_text(r, "handle", name);
}

static void cb_new_handle(struct tr_rec *r, cublasHandle_t *h)
{
    if (h != NULL && nhandles < 64)
        handles[nhandles++] = *h;
    cb_name_handle(r, h != NULL ? *h : NULL);
}

static void cb_handle(struct tr_rec *r, cublasHandle_t h) { cb_name_handle(r, h); }

static const char *cb_op(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? "N" : op == CUBLAS_OP_T ? "T" : op == CUBLAS_OP_C ? "C" : "?";
}

/* ta= tb= and mnk=MxNxK (mn=MxN for a matrix-vector call, k < 0): one field, so that no field is
 * called n, the records' own order number. */
static void cb_gemm(struct tr_rec *r, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k)
{
    char dims[48];
    tr_text(r, "ta", cb_op(ta));
    if (k >= 0) {
        tr_text(r, "tb", cb_op(tb));
        snprintf(dims, sizeof dims, "%dx%dx%d", m, n, k);
        tr_text(r, "mnk", dims);
    } else {
        snprintf(dims, sizeof dims, "%dx%d", m, n);
        tr_text(r, "mn", dims);
    }
}

/* rows= cols= elem= and bytes= (their product, what the call moves). */
static void cb_matrix(struct tr_rec *r, int rows, int cols, int elem)
{
    tr_int(r, "rows", rows);
    tr_int(r, "cols", cols);
    tr_int(r, "elem", elem);
    tr_size(r, "bytes", rows > 0 && cols > 0 && elem > 0 ? (size_t)rows * (size_t)cols * (size_t)elem : 0);
}

static cublasStatus_t injected(struct tr_rec *r, cublasStatus_t st)
{
    r->injected = !r->sticky;
    return st;
}

#define TRACE_CUBLAS(CLASS, NAME, SHOWN, PARAMS, ARGS, BEFORE, AFTER)                                       \
    cublasStatus_t TR_CAT(__real_, NAME) PARAMS;                                                             \
    cublasStatus_t TR_CAT(__wrap_, NAME) PARAMS                                                              \
    {                                                                                                        \
        struct tr_rec r;                                                                                     \
        cublasStatus_t st;                                                                                   \
        if (!tr_begin(&r, SHOWN, CB_CLASS_##CLASS, TR_SITE))                                                  \
            return TR_CAT(__real_, NAME) ARGS;                                                               \
        BEFORE;                                                                                              \
        if (CB_CLASS_##CLASS == TR_CREATE && tr_setting_fail_cublas_create())                                \
            r.fail = 1;                                                                                      \
        if (CB_CLASS_##CLASS == TR_CREATE && !r.fail)                                                        \
            tr_leave_free();                                                                                 \
        st = r.fail ? injected(&r, CB_FAIL_##CLASS) : TR_CAT(__real_, NAME) ARGS;                            \
        r.status = (cudaError_t)st;                                                                          \
        AFTER;                                                                                               \
        return (cublasStatus_t)tr_end(&r, (cudaError_t)st);                                                  \
    }
#include "cublas.def"
#undef TRACE_CUBLAS

#ifdef __cplusplus
}
#endif
