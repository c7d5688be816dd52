/* provenance.c: the provenance run (grader/README.md, "Printed results come from the GPU").
 *
 * With CUDAWB_PROVENANCE=TYPE:SEED (TYPE f32, f64, i32 or i64: the lesson's results), every successful copy
 * that brings device data to the host (device or managed memory into pageable, pinned, registered or
 * managed memory: cudaMemcpy, its 2-D, 3-D and Async forms, cuBLAS's get helpers) multiplies what it
 * brought by a power of two, 2, 8 or 32, drawn from SEED for each copy and written in its record
 * (scale=F). Managed memory a kernel is given is scaled the same way, whole, as if copied back behind the
 * kernel (the launch's record: scale=F,F,... one per argument). A program that prints what the device
 * computed prints it scaled as predicted; one that computes its answer on the host behind a decoy copy
 * prints it unscaled.
 *
 * The data is scaled once it is the host's: a blocking copy, or one into pageable memory (the runtime
 * finishes it before returning), when it returns; queued work when a successful wait is known to have
 * finished it, by the rules grader/lib/order.awk uses (a device, stream or event wait, a successful query,
 * a blocking copy; the legacy stream's ties with blocking streams; cudaStreamWaitEvent). Multiplying by a
 * power of two is exact in floating point, so the grader predicts the printed values exactly. Which copies
 * were scaled, and by what, is in the sealed report only. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a region of host memory: rows of width bytes, pitch apart, in slices slice_pitch apart */
struct region {
    unsigned char *base;
    size_t width, pitch, rows, slices, slice_pitch;
};
struct pending {
    struct region at;
    unsigned int factor;
    int node; /* the queued work that brings it: scaled once that work is known to be finished */
};

/* What the program's queued work is ordered by, as grader/lib/order.awk reads it from the trace (the rules
   CUDA promises, not timing): work follows its stream's earlier work; work on the legacy default stream
   follows the blocking streams' earlier work and theirs follows its (not streams made with
   cudaStreamNonBlocking); cudaStreamWaitEvent makes a stream's later work follow the event's record.
   Finishing work finishes what it follows. One node per queued call that matters here: copies, launches,
   event records, stream waits. */
struct node {
    int *deps;
    int ndeps, cap;
    unsigned char done;
};
struct last {
    const void *stream;
    int node;
};
struct recorded {
    const void *event;
    int node;
};

static pthread_mutex_t prov_lock = PTHREAD_MUTEX_INITIALIZER;
static int elem_size;          /* 4 or 8; 0 when the run is not a provenance run */
static int elem_float;         /* 1: IEEE floating point; 0: two's-complement integers */
static unsigned long long seed;
static unsigned long draws;
static struct pending *pend;
static size_t npend, cap_pend;
static struct node *nodes;
static int nnodes, cap_nodes;
static struct last *lasts;     /* each stream's latest node */
static size_t nlasts, cap_lasts;
static struct recorded *recs;  /* each event's latest record */
static size_t nrecs, cap_recs;
static const void *nonblocking[256]; /* streams created with cudaStreamNonBlocking */
static size_t nnonblocking;

void tr_prov_setting(const char *value)
{
    const char *colon;
    if (value == NULL || (colon = strchr(value, ':')) == NULL)
        return;
    if (strncmp(value, "f32:", 4) == 0 || strncmp(value, "i32:", 4) == 0)
        elem_size = 4;
    else if (strncmp(value, "f64:", 4) == 0 || strncmp(value, "i64:", 4) == 0)
        elem_size = 8;
    else
        return;
    elem_float = value[0] == 'f';
    seed = strtoull(colon + 1, NULL, 10);
}

int tr_prov_on(void) { return elem_size != 0; }

/* splitmix64: the K-th factor drawn from the seed, 2, 8 or 32: odd powers of two, so that no product of
   two of them is one of them (a host answer computed from two scaled inputs never looks scaled right) */
static unsigned int draw_factor(void)
{
    unsigned long long z = seed + 0x9E3779B97F4A7C15ULL * ++draws;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return 2u << (2 * (z % 3));
}

/* Multiplies each element of a row by factor, in place (memcpy: a row need not be aligned). */
static void scale_row(unsigned char *p, size_t width, unsigned int factor)
{
    size_t i;
    for (i = 0; i + (size_t)elem_size <= width; i += (size_t)elem_size) {
        if (elem_size == 4 && elem_float) {
            float v;
            memcpy(&v, p + i, 4);
            v *= (float)factor;
            memcpy(p + i, &v, 4);
        } else if (elem_size == 8 && elem_float) {
            double v;
            memcpy(&v, p + i, 8);
            v *= (double)factor;
            memcpy(p + i, &v, 8);
        } else if (elem_size == 4) {
            uint32_t v;
            memcpy(&v, p + i, 4);
            v *= factor;
            memcpy(p + i, &v, 4);
        } else {
            uint64_t v;
            memcpy(&v, p + i, 8);
            v *= factor;
            memcpy(p + i, &v, 8);
        }
    }
}

static void scale_region(const struct region *at, unsigned int factor)
{
    size_t s, y;
    for (s = 0; s < at->slices; s++)
        for (y = 0; y < at->rows; y++)
            scale_row(at->base + s * at->slice_pitch + y * at->pitch, at->width, factor);
}

static uintptr_t region_end(const struct region *at)
{
    if (at->rows == 0 || at->slices == 0)
        return (uintptr_t)at->base;
    return (uintptr_t)at->base + (at->slices - 1) * at->slice_pitch + (at->rows - 1) * at->pitch + at->width;
}

static int overlaps(const struct region *a, uintptr_t lo, uintptr_t hi)
{
    return (uintptr_t)a->base < hi && lo < region_end(a);
}

/* --- the order of queued work (prov_lock held) ----------------------------------------------------- */

/* the legacy default stream is 0, whichever handle names it */
static const void *stream_key(cudaStream_t s) { return s == cudaStreamLegacy ? NULL : (const void *)s; }

static int is_nonblocking(const void *s)
{
    size_t i;
    for (i = 0; i < nnonblocking; i++)
        if (nonblocking[i] == s)
            return 1;
    return 0;
}

/* work on s and later work on t are ordered: one is the legacy stream and the other a blocking stream */
static int tied(const void *s, const void *t)
{
    return (s == NULL && t != NULL && !is_nonblocking(t)) || (t == NULL && s != NULL && !is_nonblocking(s));
}

static struct last *last_of(const void *s)
{
    size_t i;
    for (i = 0; i < nlasts; i++)
        if (lasts[i].stream == s)
            return &lasts[i];
    return NULL;
}

static void add_dep(int n, int dep)
{
    struct node *x = &nodes[n];
    if (dep < 0)
        return;
    if (x->ndeps == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 4;
        x->deps = (int *)realloc(x->deps, (size_t)x->cap * sizeof *x->deps);
    }
    x->deps[x->ndeps++] = dep;
}

/* A node for work just queued on stream s, after what it follows; returns its number. */
static int queue_node(cudaStream_t stream)
{
    const void *s = stream_key(stream);
    struct last *l;
    size_t i;
    int n;
    if (nnodes == cap_nodes) {
        cap_nodes = cap_nodes ? 2 * cap_nodes : 256;
        nodes = (struct node *)realloc(nodes, (size_t)cap_nodes * sizeof *nodes);
    }
    n = nnodes++;
    memset(&nodes[n], 0, sizeof nodes[n]);
    for (i = 0; i < nlasts; i++)
        if (lasts[i].stream == s || tied(s, lasts[i].stream))
            add_dep(n, lasts[i].node);
    if ((l = last_of(s)) == NULL) {
        if (nlasts == cap_lasts) {
            cap_lasts = cap_lasts ? 2 * cap_lasts : 16;
            lasts = (struct last *)realloc(lasts, cap_lasts * sizeof *lasts);
        }
        l = &lasts[nlasts++];
        l->stream = s;
    }
    l->node = n;
    return n;
}

/* Node n's work is finished, and so is all it follows. */
static void finish_node(int n)
{
    static int *stack;
    static int cap;
    int top = 0, i;
    if (n < 0 || nodes[n].done)
        return;
    if (cap < nnodes) {
        cap = nnodes;
        stack = (int *)realloc(stack, (size_t)cap * sizeof *stack);
    }
    nodes[n].done = 1;
    stack[top++] = n;
    while (top > 0) {
        struct node *x = &nodes[stack[--top]];
        for (i = 0; i < x->ndeps; i++)
            if (!nodes[x->deps[i]].done) {
                nodes[x->deps[i]].done = 1;
                stack[top++] = x->deps[i];
            }
    }
}

/* A wait at the end of stream s: its work is finished, and the tied streams' work before it. */
static void finish_stream(cudaStream_t stream)
{
    const void *s = stream_key(stream);
    size_t i;
    for (i = 0; i < nlasts; i++)
        if (lasts[i].stream == s || tied(s, lasts[i].stream))
            finish_node(lasts[i].node);
}

static void drop_pending(size_t i)
{
    pend[i] = pend[--npend];
}

/* 1 when the memory at p is the host's to read (pageable, pinned, registered or managed) and at src the
   device's (device or managed memory): a copy from src to p brings the device's data to the host. */
static int brings_to_host(const void *dst, const void *src)
{
    int d = tr_alloc_at(dst, NULL, NULL), s = tr_alloc_at(src, NULL, NULL);
    if (s != TR_DEVICE && s != TR_MANAGED)
        return 0;
    /* memory the trace did not see allocated is the host's only if the runtime says so: device memory the
       program did not allocate itself (a library's) is never written from the host */
    return d == TR_PINNED || d == TR_REGISTERED || d == TR_MANAGED || (d == 0 && tr_host_writable(dst));
}

/* Data that lands in the region at when the work queued on stream so far is done: scaled by factor when
   a wait that covers it returns (prov_lock held). A later arrival in the same memory replaces an earlier
   one: only the data there when the host reads it is scaled. */
static void pend_region(struct region at, unsigned int factor, int node)
{
    size_t i;
    for (i = npend; i-- > 0;)
        if (overlaps(&pend[i].at, (uintptr_t)at.base, region_end(&at)))
            drop_pending(i);
    if (npend == cap_pend) {
        cap_pend = cap_pend ? 2 * cap_pend : 64;
        pend = (struct pending *)realloc(pend, cap_pend * sizeof *pend);
    }
    pend[npend].at = at;
    pend[npend].factor = factor;
    pend[npend].node = node;
    npend++;
}

/* Scales what finished work brought, once. */
static void scale_finished(void)
{
    size_t i;
    for (i = npend; i-- > 0;)
        if (nodes[pend[i].node].done) {
            scale_region(&pend[i].at, pend[i].factor);
            drop_pending(i);
        }
}

/* A successful copy of the region at from src (stream: its stream; async: issued asynchronously): scaled now
   when it is complete, else when a wait covers it. Records scale=F. */
static void copied(struct tr_rec *r, struct region at, const void *src, int async, cudaStream_t stream)
{
    unsigned int factor;
    if (!tr_prov_on() || r->status != cudaSuccess || at.base == NULL || !brings_to_host(at.base, src))
        return;
    pthread_mutex_lock(&prov_lock);
    factor = draw_factor();
    if (!async || tr_alloc_at(at.base, NULL, NULL) == 0)
        scale_region(&at, factor);
    else
        pend_region(at, factor, queue_node(stream));
    pthread_mutex_unlock(&prov_lock);
    tr_uint(r, "scale", factor);
}

static struct region linear(void *dst, size_t bytes)
{
    struct region at = {(unsigned char *)dst, bytes, bytes, 1, 1, 0};
    return at;
}

void tr_prov_copy(struct tr_rec *r, void *dst, const void *src, size_t bytes, int async, cudaStream_t stream)
{
    copied(r, linear(dst, bytes), src, async, stream);
}

void tr_prov_copy2d(struct tr_rec *r, void *dst, size_t dpitch, const void *src, size_t width, size_t height, int async,
                    cudaStream_t stream)
{
    struct region at = {(unsigned char *)dst, width, dpitch, height, 1, 0};
    copied(r, at, src, async, stream);
}

void tr_prov_copy3d(struct tr_rec *r, const struct cudaMemcpy3DParms *p, int async, cudaStream_t stream)
{
    struct region at;
    const struct cudaPitchedPtr *d;
    if (p == NULL || p->dstArray != NULL || p->srcArray != NULL)
        return;
    d = &p->dstPtr;
    at.base = (unsigned char *)d->ptr + p->dstPos.z * d->pitch * d->ysize + p->dstPos.y * d->pitch + p->dstPos.x;
    at.width = p->extent.width;
    at.pitch = d->pitch;
    at.rows = p->extent.height;
    at.slices = p->extent.depth;
    at.slice_pitch = d->pitch * d->ysize;
    copied(r, at, (const char *)p->srcPtr.ptr + p->srcPos.z * p->srcPtr.pitch * p->srcPtr.ysize +
                      p->srcPos.y * p->srcPtr.pitch + p->srcPos.x,
           async, stream);
}

/* cuBLAS's get helpers: rows x cols elements of elem bytes, column-major, ld elements between columns (a
   vector: count elements, inc apart). */
void tr_prov_get_matrix(struct tr_rec *r, int rows, int cols, int elem, const void *src, void *dst, int ld, int async,
                        cudaStream_t stream)
{
    struct region at = {(unsigned char *)dst, 0, 0, 0, 1, 0};
    if (rows <= 0 || cols <= 0 || elem <= 0 || ld < rows || r->status != 0)
        return;
    at.width = (size_t)rows * (size_t)elem;
    at.pitch = (size_t)ld * (size_t)elem;
    at.rows = (size_t)cols;
    copied(r, at, src, async, stream);
}

/* A successful launch: each managed allocation an argument points into is what the kernel may have written,
   the host's to read once a wait covers the launch; it is scaled then, whole. Records scale=F,F,... one per
   argument (1: not scaled), in the order of args=, when one was. Pointers into device memory are not the host's: a copy
   brings their data back, and is scaled then. */
void tr_prov_launch(struct tr_rec *r, const void *func, void **args, cudaStream_t stream)
{
    const char *name = NULL;
    size_t sizes[32], len = 0, bytes;
    uintptr_t base;
    char list[32 * 3 + 1];
    int n, i, node, scaled = 0;
    if (!tr_prov_on() || r->status != cudaSuccess || args == NULL)
        return;
    n = tr_kernel_info(func, &name, sizes, 32);
    pthread_mutex_lock(&prov_lock);
    node = queue_node(stream);
    for (i = 0; i < n; i++) {
        void *p = NULL;
        unsigned int factor = 1;
        if (sizes[i] == sizeof p) {
            memcpy(&p, args[i], sizeof p);
            if (p != NULL && tr_alloc_at(p, &base, &bytes) == TR_MANAGED) {
                struct region at = {(unsigned char *)base, bytes, bytes, 1, 1, 0};
                factor = draw_factor();
                pend_region(at, factor, node);
                scaled = 1;
            }
        }
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", i ? "," : "", factor);
    }
    pthread_mutex_unlock(&prov_lock);
    if (scaled)
        tr_text(r, "scale", list);
}

void tr_prov_nonblocking(cudaStream_t *s, unsigned int flags, cudaError_t status)
{
    if (status != cudaSuccess || s == NULL || (flags & cudaStreamNonBlocking) == 0)
        return;
    pthread_mutex_lock(&prov_lock);
    if (nnonblocking < sizeof nonblocking / sizeof nonblocking[0])
        nonblocking[nnonblocking++] = *s;
    pthread_mutex_unlock(&prov_lock);
}

static struct recorded *record_of(cudaEvent_t e)
{
    size_t i;
    for (i = 0; i < nrecs; i++)
        if (recs[i].event == (const void *)e)
            return &recs[i];
    return NULL;
}

void tr_prov_record(cudaEvent_t e, cudaStream_t s, cudaError_t status)
{
    struct recorded *rec;
    if (!tr_prov_on() || status != cudaSuccess)
        return;
    pthread_mutex_lock(&prov_lock);
    if ((rec = record_of(e)) == NULL) {
        if (nrecs == cap_recs) {
            cap_recs = cap_recs ? 2 * cap_recs : 64;
            recs = (struct recorded *)realloc(recs, cap_recs * sizeof *recs);
        }
        rec = &recs[nrecs++];
        rec->event = e;
    }
    rec->node = queue_node(s);
    pthread_mutex_unlock(&prov_lock);
}

/* cudaStreamWaitEvent: stream s's later work follows the event's latest record. */
void tr_prov_stream_waits(cudaStream_t s, cudaEvent_t e, cudaError_t status)
{
    struct recorded *rec;
    int n;
    if (!tr_prov_on() || status != cudaSuccess)
        return;
    pthread_mutex_lock(&prov_lock);
    n = queue_node(s);
    if ((rec = record_of(e)) != NULL)
        add_dep(n, rec->node);
    pthread_mutex_unlock(&prov_lock);
}

/* A wait that returned success: the work it finished is known to be, and what that work brought to the
   host is scaled now. */
void tr_prov_waited(enum tr_wait what, const void *handle, cudaError_t status)
{
    struct recorded *rec;
    int i;
    if (!tr_prov_on() || status != cudaSuccess)
        return;
    pthread_mutex_lock(&prov_lock);
    if (what == TR_WAIT_DEVICE) {
        for (i = 0; i < nnodes; i++)
            nodes[i].done = 1;
    } else if (what == TR_WAIT_STREAM) {
        finish_stream((cudaStream_t)handle);
    } else if (what == TR_WAIT_EVENT) {
        if ((rec = record_of((cudaEvent_t)handle)) != NULL) /* never recorded: it covers nothing */
            finish_node(rec->node);
    } else { /* a blocking copy: it returns when it and the legacy stream's work before it are done */
        finish_node(queue_node(NULL));
    }
    scale_finished();
    pthread_mutex_unlock(&prov_lock);
}

/* Memory given back: nothing is scaled there any more. */
void tr_prov_freed(const void *ptr)
{
    size_t i, bytes = 0;
    uintptr_t lo = (uintptr_t)ptr, hi;
    if (!tr_prov_on() || ptr == NULL || tr_alloc_at(ptr, NULL, &bytes) == 0)
        return;
    hi = lo + bytes;
    pthread_mutex_lock(&prov_lock);
    for (i = npend; i-- > 0;)
        if (overlaps(&pend[i].at, lo, hi))
            drop_pending(i);
    pthread_mutex_unlock(&prov_lock);
}

#ifdef __cplusplus
}
#endif
