// Fault injection and leak report for programs built with the real nvcc (the CUDAWB_ interface).
//
// Linked into the student's program with `-Xlinker --wrap=cudaMalloc,...` (see shim.flags): nvcc links
// cudart statically, so LD_PRELOAD cannot reach these calls, but GNU ld's --wrap can. grader/README.md
// documents the environment variables and the report format; the CPU backend implements the same.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

#include "cudawb_shim.h"

// An injected failure asks the real runtime for this much, so that the error really comes from the
// runtime and cudaGetLastError reports it exactly as after a real out-of-memory (gpu-facts.md).
#define IMPOSSIBLE_BYTES ((size_t)1 << 50)
#define MAX_LIVE 4096     // allocations tracked one by one; more are still counted
#define MAX_CALL_LINES 2000 // per-call lines in the report; the totals are always exact

enum kind { DEVICE, HOST };

struct live {
    void *ptr;
    size_t bytes;
    const char *fn;
    enum kind kind;
    uintptr_t site;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct live live[MAX_LIVE];
static int live_count;          // entries used in live[]
static size_t untracked_count;  // allocations past MAX_LIVE (counted, not freed one by one)
static unsigned long alloc_calls;
static unsigned long invalid_frees;
static unsigned long fail_at;   // CUDAWB_FAIL_ALLOC, 0 = never
static FILE *log_file;          // per-call lines, kept in memory until exit
static char *log_buf;
static size_t log_len;
static unsigned long log_lines;
long cudawb_live_handles;       // cuBLAS handles, kept by cudawb_shim_cublas.c
static long live_streams, live_events; // created and not yet destroyed

// The call site as an offset into the executable, so the grader can run addr2line on it.
static uintptr_t site_of(void *ret)
{
    Dl_info info;
    if (ret != NULL && dladdr(ret, &info) != 0 && info.dli_fbase != NULL)
        return (uintptr_t)ret - (uintptr_t)info.dli_fbase - 1; // -1: inside the call instruction
    return 0;
}

void cudawb_log(const char *fmt, ...)
{
    va_list ap;
    if (log_file == NULL || log_lines >= MAX_CALL_LINES)
        return;
    va_start(ap, fmt);
    vfprintf(log_file, fmt, ap);
    va_end(ap);
    log_lines++;
}

static void write_report(void)
{
    const char *path = getenv("CUDAWB_REPORT");
    size_t bytes = 0;
    FILE *out;
    int i;

    if (path == NULL || *path == '\0')
        return;
    out = fopen(path, "w");
    if (out == NULL)
        return;
    fprintf(out, "cudawb-report 1\n");
    if (log_file != NULL) {
        fflush(log_file);
        fwrite(log_buf, 1, log_len, out);
    }
    if (log_lines >= MAX_CALL_LINES)
        fprintf(out, "truncated lines=%d\n", MAX_CALL_LINES);
    for (i = 0; i < live_count; i++)
        bytes += live[i].bytes;
    fprintf(out, "alloc-calls %lu\n", alloc_calls);
    fprintf(out, "invalid-frees %lu\n", invalid_frees);
    fprintf(out, "live-handles %ld\n", cudawb_live_handles);
    fprintf(out, "live-streams %ld\nlive-events %ld\n", live_streams, live_events);
    fprintf(out, "live %zu %zu\n", (size_t)live_count + untracked_count, bytes);
    for (i = 0; i < live_count; i++)
        fprintf(out, "leak fn=%s bytes=%zu ptr=0x%lx site=+0x%lx\n", live[i].fn, live[i].bytes, (unsigned long)(uintptr_t)live[i].ptr,
                (unsigned long)live[i].site);
    fclose(out);
}

__attribute__((constructor)) static void start(void)
{
    const char *fail = getenv("CUDAWB_FAIL_ALLOC");
    if (fail != NULL)
        fail_at = strtoul(fail, NULL, 10);
    log_file = open_memstream(&log_buf, &log_len);
    atexit(write_report);
}

// Counts an allocation call; returns 1 when this is the call that must fail.
static int begin_alloc(void)
{
    return ++alloc_calls == fail_at;
}

static void end_alloc(const char *fn, void **ptr, size_t bytes, cudaError_t status, int injected,
                      enum kind kind, void *ret)
{
    uintptr_t site = site_of(ret);
    void *p = (ptr != NULL && status == cudaSuccess) ? *ptr : NULL;

    cudawb_log("call n=%lu fn=%s bytes=%zu status=%d ptr=0x%lx site=+0x%lx%s\n", alloc_calls, fn, bytes,
               (int)status, (unsigned long)(uintptr_t)p, (unsigned long)site, injected ? " injected=1" : "");
    if (p == NULL)
        return;
    if (live_count < MAX_LIVE)
        live[live_count++] = (struct live){p, bytes, fn, kind, site};
    else
        untracked_count++;
}

// Forgets a freed allocation; returns 0 when ptr was not live with this kind.
static int forget(void *ptr, enum kind kind)
{
    int i;
    for (i = 0; i < live_count; i++) {
        if (live[i].ptr == ptr && live[i].kind == kind) {
            live[i] = live[--live_count];
            return 1;
        }
    }
    return 0;
}

// Makes the real runtime fail with out-of-memory, so that its last-error state says so too.
static cudaError_t injected_failure(void)
{
    void *p = NULL;
    cudaError_t err = __real_cudaMalloc(&p, IMPOSSIBLE_BYTES);
    if (err == cudaSuccess) { // cannot happen on any device we know; never report success
        __real_cudaFree(p);
        err = cudaErrorMemoryAllocation;
    }
    return err;
}

// The real allocators, given one signature so that one wrapper serves them all.
static cudaError_t real_malloc(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return __real_cudaMalloc(ptr, size);
}

static cudaError_t real_malloc_host(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return __real_cudaMallocHost(ptr, size);
}

// Counts the call, injects the failure when its turn comes, records the result. Never asks a real
// allocator for an impossible size: for cudaMallocManaged the device's notes warn that oversized
// managed requests can hang the GPU, and a plain cudaMalloc sets the same last error.
static cudaError_t wrap_alloc(const char *fn, enum kind kind, void **ptr, size_t size, unsigned int flags,
                              cudaError_t (*real)(void **, size_t, unsigned int), void *ret)
{
    cudaError_t err;
    int fail;
    pthread_mutex_lock(&lock);
    fail = begin_alloc();
    if (fail) {
        err = injected_failure();
        if (ptr != NULL)
            *ptr = NULL;
    } else {
        err = real(ptr, size, flags);
    }
    end_alloc(fn, ptr, size, err, fail, kind, ret);
    pthread_mutex_unlock(&lock);
    return err;
}

cudaError_t __wrap_cudaMalloc(void **ptr, size_t size)
{
    return wrap_alloc("cudaMalloc", DEVICE, ptr, size, 0, real_malloc, __builtin_return_address(0));
}

cudaError_t __wrap_cudaMallocManaged(void **ptr, size_t size, unsigned int flags)
{
    return wrap_alloc("cudaMallocManaged", DEVICE, ptr, size, flags, __real_cudaMallocManaged,
                      __builtin_return_address(0));
}

cudaError_t __wrap_cudaMallocHost(void **ptr, size_t size)
{
    return wrap_alloc("cudaMallocHost", HOST, ptr, size, 0, real_malloc_host, __builtin_return_address(0));
}

cudaError_t __wrap_cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    return wrap_alloc("cudaHostAlloc", HOST, ptr, size, flags, __real_cudaHostAlloc, __builtin_return_address(0));
}

// Pitched allocations have their own signature, and an injected failure must still write the pitch.
cudaError_t __wrap_cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    cudaError_t err;
    int fail;
    pthread_mutex_lock(&lock);
    fail = begin_alloc();
    // An injected failure keeps the width, so the runtime still writes the real pitch (gpu-facts.md).
    err = __real_cudaMallocPitch(ptr, pitch, width, fail ? IMPOSSIBLE_BYTES : height);
    if (fail && err == cudaSuccess) {
        __real_cudaFree(*ptr);
        *ptr = NULL;
        err = injected_failure();
    }
    end_alloc("cudaMallocPitch", ptr, (pitch != NULL ? *pitch : width) * height, err, fail, DEVICE,
              __builtin_return_address(0));
    pthread_mutex_unlock(&lock);
    return err;
}

// A free is invalid when the runtime rejects the pointer: freed twice, a host pointer, an interior
// pointer, pinned memory given to cudaFree. A sticky error (700) is not the pointer's fault.
static cudaError_t free_common(const char *fn, void *ptr, enum kind kind, cudaError_t err, void *ret)
{
    int invalid = ptr != NULL && err == cudaErrorInvalidValue;
    pthread_mutex_lock(&lock);
    if (err == cudaSuccess && ptr != NULL)
        forget(ptr, kind);
    if (invalid)
        invalid_frees++;
    cudawb_log("free fn=%s ptr=0x%lx status=%d site=+0x%lx%s\n", fn, (unsigned long)(uintptr_t)ptr, (int)err,
               (unsigned long)site_of(ret), invalid ? " invalid=1" : "");
    pthread_mutex_unlock(&lock);
    return err;
}

cudaError_t __wrap_cudaFree(void *ptr)
{
    return free_common("cudaFree", ptr, DEVICE, __real_cudaFree(ptr), __builtin_return_address(0));
}

cudaError_t __wrap_cudaFreeHost(void *ptr)
{
    return free_common("cudaFreeHost", ptr, HOST, __real_cudaFreeHost(ptr), __builtin_return_address(0));
}

// Streams and events are counted, not listed: a leaked one shows in live-streams / live-events.
static cudaError_t count_live(cudaError_t err, long *live, int delta)
{
    if (err == cudaSuccess) {
        pthread_mutex_lock(&lock);
        *live += delta;
        pthread_mutex_unlock(&lock);
    }
    return err;
}

cudaError_t __wrap_cudaStreamCreate(cudaStream_t *stream)
{
    return count_live(__real_cudaStreamCreate(stream), &live_streams, 1);
}

cudaError_t __wrap_cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    return count_live(__real_cudaStreamCreateWithFlags(stream, flags), &live_streams, 1);
}

cudaError_t __wrap_cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority)
{
    return count_live(__real_cudaStreamCreateWithPriority(stream, flags, priority), &live_streams, 1);
}

cudaError_t __wrap_cudaStreamDestroy(cudaStream_t stream)
{
    return count_live(__real_cudaStreamDestroy(stream), &live_streams, -1);
}

cudaError_t __wrap_cudaEventCreate(cudaEvent_t *event)
{
    return count_live(__real_cudaEventCreate(event), &live_events, 1);
}

cudaError_t __wrap_cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    return count_live(__real_cudaEventCreateWithFlags(event, flags), &live_events, 1);
}

cudaError_t __wrap_cudaEventDestroy(cudaEvent_t event)
{
    return count_live(__real_cudaEventDestroy(event), &live_events, -1);
}
