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
        AFTER;                                                                                               \
        return tr_end(&r, st);                                                                               \
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

/* The grader's way to give a program a device-memory budget, and to a real CUBLAS_STATUS_ALLOC_FAILED
 * (facts/gpu-facts.md: the first cublasCreate of a process takes 68 MiB of device memory and fails with 64
 * MiB free): allocate through the real runtime, untraced and never freed (the process ends soon), until at
 * most mb MiB are free, or less than 1 MiB more (a block under 1 MiB is not taken). A block that does not fit
 * is halved; the last error is left at 0. Once per process: CUDAWB_LEAVE_FREE_MB before the program's
 * first traced call (trace.c), or CUDAWB_CUBLAS_LEAVE_FREE_MB before its first cublasCreate. */
void tr_leave_free(void) { tr_leave_free_mb(tr_setting_leave_free_mb()); }

void tr_leave_free_mb(long mb)
{
    static int done;
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

cudaError_t tr_real_invalid_value(void)
{
    cudaError_t err = __real_cudaMalloc(NULL, 16 TR_HERE); /* facts/gpu-facts.md: 1, and sets the last error */
    return err != cudaSuccess ? err : cudaErrorInvalidValue;
}

#ifdef __cplusplus
}
#endif
