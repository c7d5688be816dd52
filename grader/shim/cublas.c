/* cublas.c: one __wrap_ function per line of cublas.def, on both backends. Linked only into programs
 * that use cuBLAS: its __real_ references need the library. */
#include <stdint.h>
#include <stdlib.h>
#include <cublas_v2.h>

#include "trace.h"
#include "wrap.h"

#ifdef __cplusplus
extern "C" {
#endif

static cublasStatus_t injected(struct tr_rec *r)
{
    r->injected = !r->sticky;
    return r->cls == TR_CREATE ? CUBLAS_STATUS_ALLOC_FAILED : CUBLAS_STATUS_EXECUTION_FAILED;
}

#define TRACE_CUBLAS(CLASS, NAME, SHOWN, PARAMS, ARGS, BEFORE, AFTER)                                       \
    cublasStatus_t TR_CAT(__real_, NAME) PARAMS;                                                             \
    cublasStatus_t TR_CAT(__wrap_, NAME) PARAMS                                                              \
    {                                                                                                        \
        struct tr_rec r;                                                                                     \
        cublasStatus_t st;                                                                                   \
        if (!tr_begin(&r, SHOWN, TR_##CLASS, TR_SITE))                                                        \
            return TR_CAT(__real_, NAME) ARGS;                                                               \
        BEFORE;                                                                                              \
        if (TR_##CLASS == TR_CREATE && tr_setting_fail_cublas_create())                                      \
            r.fail = 1;                                                                                      \
        st = r.fail ? injected(&r) : TR_CAT(__real_, NAME) ARGS;                                             \
        r.status = (cudaError_t)st;                                                                          \
        AFTER;                                                                                               \
        return (cublasStatus_t)tr_end(&r, (cudaError_t)st);                                                  \
    }
#include "cublas.def"
#undef TRACE_CUBLAS

#ifdef __cplusplus
}
#endif
