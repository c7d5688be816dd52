/* trace.h: the trace of a program's CUDA calls (grader/README.md, "The trace"), shared by both backends.
 *
 * wrappers.c builds one wrapper per line of calls.def; each wrapper fills a struct tr_rec with the call's
 * fields, asks tr_begin whether this call is the one to fail, and ends with tr_end, which numbers the
 * record, writes it and returns the status. trace.c keeps what the records need: the allocations (so a
 * pointer is written alloc#K+OFFSET), the streams and events (stream#K, event#K), the injection settings,
 * which it reads and removes from the environment before main, and the report it writes at exit.
 * Written in the common subset of C and C++: the GPU shim is C, the CPU backend compiles it as C++. */
#ifndef CUDAWB_TRACE_H
#define CUDAWB_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum tr_class { TR_ALLOC, TR_CREATE, TR_OP, TR_SYNC, TR_FREE, TR_DESTROY, TR_ERROR, TR_QUERY };
enum tr_kind { TR_DEVICE = 1, TR_MANAGED = 2, TR_PINNED = 4, TR_REGISTERED = 8 };

#define TR_FIELDS 1024 /* bytes of key=value text one record may hold; longer records are cut */

struct tr_rec {
    const char *fn;
    enum tr_class cls;
    int fail;         /* this call is the one to fail */
    int injected;     /* ... and it was failed */
    int sticky;       /* it returned the emulated sticky error without running */
    cudaError_t status;
    void **out;       /* an allocation's output pointer, set to NULL when it is failed */
    unsigned long alloc_no; /* an allocation's number among allocation calls */
    unsigned long nth;      /* its number among the calls the sweep can fail (allocations, creations,
                               operations, synchronizing calls), or 0: queries and releases, whose count
                               can depend on timing (a polling loop), do not shift it */
    long printed;     /* bytes on stdout before the call, or -1 when stdout is not a file */
    long long gap_us; /* host time on this thread since its previous traced call returned, or -1 */
    char site[64];
    char fields[TR_FIELDS];
    size_t len;
};

/* Starts the record of a call. Returns 0 for a call made while another traced call runs (the runtime's
   own use of its API): the wrapper then calls the real function and records nothing. file/line name the
   site on the CPU backend; ret (a return address) on the GPU. */
int tr_begin(struct tr_rec *r, const char *fn, enum tr_class cls, const char *file, int line, void *ret);
cudaError_t tr_injected(struct tr_rec *r); /* fails the call, through the real runtime where it can */
cudaError_t tr_end(struct tr_rec *r, cudaError_t status);

/* argument fields */
void tr_ptr(struct tr_rec *r, const char *key, const void *p);
void tr_size(struct tr_rec *r, const char *key, size_t n);
void tr_uint(struct tr_rec *r, const char *key, unsigned int v);
void tr_int(struct tr_rec *r, const char *key, int v);
void tr_text(struct tr_rec *r, const char *key, const char *v); /* a word without spaces */
void tr_location(struct tr_rec *r, const char *key, struct cudaMemLocation loc);
void tr_advice(struct tr_rec *r, int advice);
void tr_attributes(struct tr_rec *r, const struct cudaPointerAttributes *a);
void tr_out(struct tr_rec *r, void **out);
void tr_copy(struct tr_rec *r, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
void tr_copy2d(struct tr_rec *r, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
               enum cudaMemcpyKind kind);
void tr_copy3d(struct tr_rec *r, const struct cudaMemcpy3DParms *p);
void tr_set3d(struct tr_rec *r, struct cudaPitchedPtr p, int value, struct cudaExtent extent);
void tr_extent(struct tr_rec *r, struct cudaExtent extent);
void tr_stream(struct tr_rec *r, const char *key, cudaStream_t s);
void tr_event(struct tr_rec *r, const char *key, cudaEvent_t e);
void tr_launch(struct tr_rec *r, const void *func, dim3 grid, dim3 block, void **args, size_t shmem);

/* what the call made or released */
void tr_out_size(struct tr_rec *r, const char *key, const size_t *p);
void tr_out_ms(struct tr_rec *r, const float *ms);
void tr_out_int(struct tr_rec *r, const char *key, const int *p);
/* the device's answers, as CUDAWB_DEVICE_SMS / CUDAWB_DEVICE_MEMORY make them, and the versions */
void tr_mem_info(struct tr_rec *r, size_t *free_bytes, size_t *total_bytes);
void tr_device_attr(struct tr_rec *r, enum cudaDeviceAttr attr, int *value);
void tr_device_prop(struct tr_rec *r, struct cudaDeviceProp *p);
void tr_func_attr(struct tr_rec *r, const void *func, const struct cudaFuncAttributes *a);
void tr_version(struct tr_rec *r, int *version, int driver);
void tr_new_alloc(struct tr_rec *r, enum tr_kind kind, void **ptr, size_t bytes);
void tr_pitch(struct tr_rec *r, const size_t *pitch);
void tr_free(struct tr_rec *r, const void *ptr, int kinds); /* kinds: the tr_kind values the call may release */
void tr_new_stream(struct tr_rec *r, cudaStream_t *s);
void tr_end_stream(struct tr_rec *r, cudaStream_t s);
void tr_new_event(struct tr_rec *r, cudaEvent_t *e);
void tr_end_event(struct tr_rec *r, cudaEvent_t e);
void tr_handle(struct tr_rec *r, int delta); /* cuBLAS handles */
void tr_out_ptr(struct tr_rec *r, const char *key, void **out);   /* a pointer the call wrote, named */
/* memory pools: pool=pool#K; a created one (created = 1) is live until cudaMemPoolDestroy (live-pools) */
void tr_pool(struct tr_rec *r, cudaMemPool_t pool);
void tr_out_pool(struct tr_rec *r, cudaMemPool_t *pool, int created);
void tr_end_pool(struct tr_rec *r, cudaMemPool_t pool);
void tr_pool_attr(struct tr_rec *r, int attr, const void *value); /* attr=ReleaseThreshold value=N */

int tr_setting_fail_cublas_create(void); /* CUDAWB_FAIL_CUBLAS_CREATE=1 (cublas.c) */
long tr_setting_leave_free_mb(void); /* CUDAWB_CUBLAS_LEAVE_FREE_MB=N, or -1 */
void tr_leave_free(void);            /* ... fills device memory to leave N MiB free, once (wrappers.c) */
/* CUDAWB_DEVICE_BUDGET=BYTES (trace.c): an allocation past it is failed by tr_keep_budget (wrappers.c) */
int tr_over_budget(const struct tr_rec *r, enum tr_kind kind, size_t bytes);
void tr_keep_budget(struct tr_rec *r, enum tr_kind kind, void **ptr, size_t bytes, int async, cudaStream_t stream);
int tr_setting_no_kernel_args(void);     /* CUDAWB_NO_KERNEL_ARGS=1: launches recorded without arguments */

/* what the trace knows of memory (trace.c): the kind of the live allocation that holds p (0: none, host
   memory), and that allocation's base and size (when not NULL) */
int tr_alloc_at(const void *p, uintptr_t *base, size_t *bytes);

/* the provenance run (provenance.c, CUDAWB_PROVENANCE=TYPE:SEED): data a copy brings to the host is scaled
   by a power of two once it is the host's, and so is managed memory a kernel was given; each such copy's
   or launch's record says by what (scale=F, a launch's one per argument) */
enum tr_wait { TR_WAIT_DEVICE, TR_WAIT_STREAM, TR_WAIT_EVENT, TR_WAIT_BLOCKING };
void tr_prov_setting(const char *value);
int tr_prov_on(void);
void tr_prov_copy(struct tr_rec *r, void *dst, const void *src, size_t bytes, int async, cudaStream_t stream);
void tr_prov_copy2d(struct tr_rec *r, void *dst, size_t dpitch, const void *src, size_t width, size_t height, int async,
                    cudaStream_t stream);
void tr_prov_copy3d(struct tr_rec *r, const struct cudaMemcpy3DParms *p, int async, cudaStream_t stream);
void tr_prov_get_matrix(struct tr_rec *r, int rows, int cols, int elem, const void *src, void *dst, int ld, int async,
                        cudaStream_t stream);
void tr_prov_launch(struct tr_rec *r, const void *func, void **args, cudaStream_t stream);
void tr_prov_nonblocking(cudaStream_t *s, unsigned int flags, cudaError_t status);
void tr_prov_record(cudaEvent_t e, cudaStream_t s, cudaError_t status);
void tr_prov_stream_waits(cudaStream_t s, cudaEvent_t e, cudaError_t status);
void tr_prov_waited(enum tr_wait what, const void *handle, cudaError_t status);
void tr_prov_freed(const void *ptr);

/* provided by wrappers.c: failures made by the real runtime, so its last-error state says the same */
cudaError_t tr_real_out_of_memory(void);  /* 2: an impossible cudaMalloc */
cudaError_t tr_real_invalid_value(void);  /* 1: cudaMalloc(NULL, 16) */
int tr_host_writable(const void *p);       /* the runtime's word that the host may write p */

/* provided by each backend: a kernel's name and its parameters' sizes (0 parameters when unknown) */
int tr_kernel_info(const void *func, const char **name, size_t *sizes, int max);
#ifndef CUDAWB_CPU
const void *tr_kernel_func(cudaKernel_t kernel); /* the kernel a launch handle stands for (kernel_info.c) */
#endif

#ifdef __cplusplus
}
#endif
#endif
