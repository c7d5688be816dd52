/* wrappers.c: one __wrap_ function per line of calls.def, on both backends (see trace.h).
 *
 * GNU ld's --wrap=NAME sends the program's calls of NAME to __wrap_NAME and makes __real_NAME the real
 * function: nvcc links cudart statically, so LD_PRELOAD cannot reach these calls, but --wrap can. The
 * CPU backend links the same wrappers around its own runtime (cpu/bin/nvcc-cpu). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "trace.h"

#include "wrap.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRACE(CLASS, NAME, PARAMS, ARGS, BEFORE, AFTER)                                                     \
    cudaError_t TR_CAT(__real_, NAME) PARAMS;                                                                \
    cudaError_t TR_CAT(__wrap_, NAME) PARAMS                                                                 \
    {                                                                                                        \
        struct tr_rec r;                                                                                     \
        cudaError_t st;                                                                                      \
        if (!tr_begin(&r, TR_STR(NAME), TR_##CLASS, TR_SITE))                                                 \
            return TR_CAT(__real_, NAME) ARGS;                                                               \
        BEFORE;                                                                                              \
        st = r.fail ? tr_injected(&r) : TR_CAT(__real_, NAME) ARGS;                                          \
        r.status = st;                                                                                       \
        AFTER; /* which may fail it still: an allocation past the budget (tr_keep_budget) */              \
        return tr_end(&r, r.status);                                                                         \
    }
#define WRAP_ONLY(NAME)
#include "calls.def"
#undef TRACE
#undef WRAP_ONLY

cudaError_t tr_real_out_of_memory(void)
{
    void *p = NULL;
    cudaError_t err = __real_cudaMalloc(&p, (size_t)1 << 50 TR_HERE);
    if (err == cudaSuccess) { /* cannot happen on any device we know; never report success */
        __real_cudaFree(p TR_HERE);
        err = cudaErrorMemoryAllocation;
    }
    return err;
}

/* An allocation the real runtime made that takes the program past CUDAWB_DEVICE_BUDGET (trace.c) is given
 * back and fails as a real one does: 2, the pointer NULL, the last error set by the real runtime (an
 * impossible cudaMalloc), so cudaGetLastError answers as after a real failure. The record shows a failed
 * call, not an injected one: the program met a device with less memory. A pitched allocation keeps the pitch
 * it wrote, as the H200's failed ones do. async: given back with cudaFreeAsync on stream. */
void tr_keep_budget(struct tr_rec *r, enum tr_kind kind, void **ptr, size_t bytes, int async, cudaStream_t stream)
{
    if (ptr == NULL || *ptr == NULL || !tr_over_budget(r, kind, bytes))
        return;
    if (async)
        (void)__real_cudaFreeAsync(*ptr, stream TR_HERE);
    else
        (void)__real_cudaFree(*ptr TR_HERE);
    *ptr = NULL;
    r->status = tr_real_out_of_memory();
}

/* For a real CUBLAS_STATUS_ALLOC_FAILED (facts/gpu-facts.md: the first cublasCreate of a process takes 68 MiB
 * of device memory and fails with 64 MiB free): before the first cublasCreate, allocate through the real
 * runtime, untraced and never freed (the process ends soon), until at most CUDAWB_CUBLAS_LEAVE_FREE_MB MiB are
 * free, or less than 1 MiB more (a block under 1 MiB is not taken). A block that does not fit is halved; the
 * last error is left at 0. Once per process. */
void tr_leave_free(void)
{
    static int done;
    long mb = tr_setting_leave_free_mb();
    size_t want, free_b = 0, total = 0, chunk;
    void *p;
    if (done || mb < 0)
        return;
    done = 1;
    want = (size_t)mb << 20;
    while (__real_cudaMemGetInfo(&free_b, &total TR_HERE) == cudaSuccess && free_b > want) {
        for (chunk = free_b - want; chunk >= ((size_t)1 << 20); chunk /= 2)
            if (__real_cudaMalloc(&p, chunk TR_HERE) == cudaSuccess)
                break;
        if (chunk < ((size_t)1 << 20))
            break;
    }
    (void)__real_cudaGetLastError(TR_HERE0);
}

/* 1 when the runtime says p is memory the host may write (pageable, pinned or managed): for a pointer the
   trace did not see allocated, before the provenance run scales what a copy wrote there (provenance.c). A
   pointer the runtime does not know is not written. */
int tr_host_writable(const void *p)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (__real_cudaPointerGetAttributes(&a, p TR_HERE) != cudaSuccess)
        return 0;
    return a.type == cudaMemoryTypeUnregistered || a.type == cudaMemoryTypeHost || a.type == cudaMemoryTypeManaged;
}

cudaError_t tr_real_invalid_value(void)
{
    cudaError_t err = __real_cudaMalloc(NULL, 16 TR_HERE); /* facts/gpu-facts.md: 1, and sets the last error */
    return err != cudaSuccess ? err : cudaErrorInvalidValue;
}

#ifdef __cplusplus
}
#endif
