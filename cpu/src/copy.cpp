// copy.cpp: cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D/3D(Async), cudaMemset, cudaMemset2D/3D(Async) and the
// symbol copies, with the H200's direction and range checks. Blocking copies are synchronizing calls (they run
// the queue first); async copies are queued on their stream, except the cases where CUDA itself behaves
// synchronously.
#include "graph.h"
#include <string.h>

using namespace rt;

enum side { HOST_SIDE = 1, DEVICE_SIDE = 2, MANAGED_SIDE = 4, DEAD_SIDE = 8, PINNED_SIDE = 16 };

static int classify(const void *p) {
    const alloc *a = find(p);
    if (a) return a->kind == DEVICE ? DEVICE_SIDE : a->kind == MANAGED ? MANAGED_SIDE : HOST_SIDE | PINNED_SIDE;
    return in_device_space(p) ? DEAD_SIDE : HOST_SIDE;
}

// The direction rules measured on the H200 (facts/gpu-facts.md "Copies"): the kind must match where the pointers
// really are, except HostToHost and Default, which unified addressing lets go anywhere.
// A copy of no bytes may name the end of an allocation, one past its last byte (cuda-samples' mergeSort copies
// a last segment of 0 elements from okey + N, and runs on every GPU): such a pointer is on that allocation's side.
static int classify_extent(const void *p, size_t extent) {
    int side = classify(p);
    if (side == DEAD_SIDE && extent == 0 && find((const char *)p - 1)) side = classify((const char *)p - 1);
    return side;
}

static cudaError_t check_copy(void *dst, const void *src, size_t dext, size_t sext, int kind) {
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    int d = classify_extent(dst, dext), s = classify_extent(src, sext);
    if ((d | s) & DEAD_SIDE) return cudaErrorInvalidValue;
    const int dev = DEVICE_SIDE | MANAGED_SIDE, host = HOST_SIDE | MANAGED_SIDE;
    if (kind == cudaMemcpyHostToDevice && (!(d & dev) || !(s & host))) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDeviceToHost && (!(s & dev) || !(d & host))) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDeviceToDevice && (!(s & dev) || !(d & dev))) return cudaErrorInvalidValue;
    if ((d & dev) && dext && !check_range(dst, dext)) return cudaErrorInvalidValue;
    if ((s & dev) && sext && !check_range(src, sext)) return cudaErrorInvalidValue;
    return cudaSuccess;
}

// A copy or memset into managed memory makes it resident: the H200's free memory dropped by 256 MiB at a
// cudaMemcpy HostToDevice into a fresh 256 MiB managed allocation, as it does at a kernel's touch. (A copy
// out of managed memory was not measured, so it counts nothing.)
// Every copy and memset is a box: depth slices (a slice's start is the pointer + z x slice bytes) of height
// rows (a row's start + r x pitch) of width bytes. A 1-D one is one row, a 2-D one one slice.
struct copy_op : op {
    void *dst;
    const void *src;
    size_t dpitch, spitch, dslice, sslice, width, height, depth;
    void *snapshot;  // pageable source copied at call time, as CUDA stages it
    void run() override {
        make_resident(dst);
        for (size_t z = 0; z < depth; z++)
            for (size_t r = 0; r < height; r++)
                memcpy((char *)dst + z * dslice + r * dpitch, (const char *)src + z * sslice + r * spitch, width);
    }
    int graph_node_type() const override { return cudaGraphNodeTypeMemcpy; }
    ~copy_op() { free(snapshot); }
};

struct set_op : op {
    void *dst;
    size_t pitch, slice, width, height, depth;
    int value;
    void run() override {
        make_resident(dst);
        for (size_t z = 0; z < depth; z++)
            for (size_t r = 0; r < height; r++) memset((char *)dst + z * slice + r * pitch, value, width);
    }
    int graph_node_type() const override { return cudaGraphNodeTypeMemset; }
};

static void copy_now(copy_op &c) {
    open_device();
    c.run();
    close_device();
}
static void copy_now(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height) {
    copy_op c;
    c.dst = dst; c.src = src; c.dpitch = dpitch; c.spitch = spitch; c.width = width; c.height = height;
    c.dslice = c.sslice = 0; c.depth = 1;
    c.snapshot = NULL;
    copy_now(c);
}

// Arithmetic that saturates instead of wrapping, so that a huge box fails the range check.
static size_t add_sat(size_t a, size_t b) { return a > (size_t)-1 - b ? (size_t)-1 : a + b; }
static size_t mul_sat(size_t a, size_t b) { return b && a > (size_t)-1 / b ? (size_t)-1 : a * b; }

// The bytes a box spans, from its first byte to the end of its last row (the padding between rows too).
static size_t extent(size_t pitch, size_t slice, size_t width, size_t height, size_t depth) {
    if (height == 0 || depth == 0) return 0;
    return add_sat(add_sat(mul_sat(depth - 1, slice), mul_sat(height - 1, pitch)), width);
}

// A failed check: recorded as the call's error, or for a library's own copy (fn NULL) only returned.
static cudaError_t failed(const char *fn, cudaError_t e) { return fn ? fail(fn, e) : e; }

// The checks and the queueing of every copy, in the H200's order (the caller has called enter()). fn is the
// API call's name, or NULL for a copy a library makes (library_copy_2d).
static cudaError_t copy_box(const char *fn, void *dst, size_t dpitch, size_t dslice, const void *src, size_t spitch,
                            size_t sslice, size_t width, size_t height, size_t depth, int kind, cudaStream_t stream,
                            bool async) {
    if (width > dpitch || width > spitch) return failed(fn, cudaErrorInvalidPitchValue);
    if (!valid_stream(stream)) return failed(fn, cudaErrorInvalidResourceHandle);
    size_t dext = extent(dpitch, dslice, width, height, depth), sext = extent(spitch, sslice, width, height, depth);
    cudaError_t e = check_copy(dst, src, dext, sext, kind);
    if (e) return failed(fn, e);
    if (width == 0 || height == 0 || depth == 0) return cudaSuccess;
    int d = classify(dst), s = classify(src);
    bool pageable_dst = (d & HOST_SIDE) && !(d & PINNED_SIDE), pageable_src = (s & HOST_SIDE) && !(s & PINNED_SIDE);
    // captured (or a graph node): neither run now nor staged, as the graph reads the memory each time it runs
    bool deferred = async && capture_defers(stream);
    if (async && !deferred && (e = capture_stream_error(stream))) return failed(fn, e);
    copy_op c;
    c.dst = dst; c.dpitch = dpitch; c.dslice = dslice;
    c.src = src; c.spitch = spitch; c.sslice = sslice;
    c.width = width; c.height = height; c.depth = depth;
    c.snapshot = NULL;
    // Blocking copies, and async copies into pageable memory (CUDA returns only once they are done).
    if (!deferred && (!async || pageable_dst)) {
        if ((e = flush_stream(stream))) return failed(fn, e);
        copy_now(c);
        return cudaSuccess;
    }
    copy_op *q = new copy_op(c);
    if (pageable_src && !deferred) {  // staged now: the caller may reuse its buffer as soon as the call returns
        q->snapshot = malloc(sext);
        if (!q->snapshot) {
            delete q;
            return failed(fn, cudaErrorMemoryAllocation);
        }
        memcpy(q->snapshot, src, sext);
        q->src = q->snapshot;
    }
    q->stream = stream;
    enqueue(q);
    return cudaSuccess;
}

static cudaError_t copy2d(const char *fn, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, int kind, cudaStream_t stream, bool async) {
    if (cudaError_t e = enter(fn)) return e;
    return copy_box(fn, dst, dpitch, 0, src, spitch, 0, width, height, 1, kind, stream, async);
}

cudaError_t rt::library_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                size_t height, cudaStream_t stream, bool async) {
    return copy_box(NULL, dst, dpitch, 0, src, spitch, 0, width, height, 1, cudaMemcpyDefault, stream, async);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudawb_site) {
    return copy2d("cudaMemcpy", dst, count, src, count, count, 1, kind, 0, false);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s, cudawb_site) {
    return copy2d("cudaMemcpyAsync", dst, count, src, count, count, 1, kind, s, true);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind, cudawb_site) {
    return copy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, 0, false);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t s, cudawb_site) {
    return copy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, s, true);
}

// Where a cudaPos starts in a pitched pointer: z slices of pitch x ysize bytes, y rows, x bytes (linear memory:
// x is in bytes, as the extent's width). As an integer: a NULL pointer plus an offset is not a pointer.
static uintptr_t at_pos(const struct cudaPitchedPtr &p, const struct cudaPos &pos) {
    size_t off = add_sat(add_sat(mul_sat(pos.z, mul_sat(p.pitch, p.ysize)), mul_sat(pos.y, p.pitch)), pos.x);
    return add_sat((uintptr_t)p.ptr, off);
}

// cudaMemcpy3D between linear memory, checked as a 2-D copy is (the H200: 0 within the allocation, 1 for a
// depth past it, 12 for a width past a pitch). CUDA arrays are not supported here: naming one is 1.
static cudaError_t copy3d(const char *fn, const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool async) {
    if (cudaError_t e = enter(fn)) return e;
    if (!p || p->srcArray || p->dstArray) return fail(fn, cudaErrorInvalidValue);
    const struct cudaPitchedPtr &d = p->dstPtr, &s = p->srcPtr;
    return copy_box(fn, (void *)at_pos(d, p->dstPos), d.pitch, mul_sat(d.pitch, d.ysize),
                    (const void *)at_pos(s, p->srcPos), s.pitch, mul_sat(s.pitch, s.ysize), p->extent.width,
                    p->extent.height, p->extent.depth, p->kind, stream, async);
}
// memcpy nodes (graph.cpp collects the operation instead of queueing it)
cudaError_t rt::graph_copy_1d(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    return copy2d(fn, dst, count, src, count, count, 1, kind, 0, true);
}
cudaError_t rt::graph_copy_3d(const char *fn, const struct cudaMemcpy3DParms *p) { return copy3d(fn, p, 0, true); }
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p, cudawb_site) { return copy3d("cudaMemcpy3D", p, 0, false); }
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s, cudawb_site) {
    return copy3d("cudaMemcpy3DAsync", p, s, true);
}

// cudaMemset is asynchronous with respect to the host: queued like a kernel. A width past the pitch is 1 on
// the H200 (not 12 as for a copy), as is a height past the allocation.
static cudaError_t set_box(const char *fn, void *p, size_t pitch, size_t slice, int value, size_t width, size_t height,
                           size_t depth, cudaStream_t stream) {
    if (cudaError_t e = enter(fn)) return e;
    if (width > pitch) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    size_t n = extent(pitch, slice, width, height, depth);
    if (n == 0) return cudaSuccess;
    if (!check_range(p, n)) return fail(fn, cudaErrorInvalidValue);
    if (cudaError_t e = capture_stream_error(stream)) return fail(fn, e);
    set_op *o = new set_op;
    o->dst = p; o->pitch = pitch; o->slice = slice; o->width = width; o->height = height; o->depth = depth;
    o->value = value; o->stream = stream;
    enqueue(o);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int value, size_t count, cudawb_site) {
    return set_box("cudaMemset", p, count, 0, value, count, 1, 1, 0);
}
cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t s, cudawb_site) {
    return set_box("cudaMemsetAsync", p, count, 0, value, count, 1, 1, s);
}
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height, cudawb_site) {
    return set_box("cudaMemset2D", p, pitch, 0, value, width, height, 1, 0);
}

// cudaMemset3D: slices of pitch x ysize bytes, a width in bytes; checked as cudaMemset2D is (the H200: 0 within
// the allocation, 1 for a width past the pitch or a box past the allocation).
static cudaError_t set3d(const char *fn, struct cudaPitchedPtr p, int value, struct cudaExtent e, cudaStream_t s) {
    return set_box(fn, p.ptr, p.pitch, mul_sat(p.pitch, p.ysize), value, e.width, e.height, e.depth, s);
}
cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent e, cudawb_site) {
    return set3d("cudaMemset3D", p, value, e, 0);
}
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent e, cudaStream_t s, cudawb_site) {
    return set3d("cudaMemset3DAsync", p, value, e, s);
}

// __constant__ and __device__ variables are ordinary globals here; copies to and from them are synchronous.
cudaError_t cudawb_memcpy_symbol(void *symbol, size_t symbol_size, void *other, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind, int to_symbol, cudaStream_t stream, int async) {
    const char *fn = to_symbol ? (async ? "cudaMemcpyToSymbolAsync" : "cudaMemcpyToSymbol")
                               : (async ? "cudaMemcpyFromSymbolAsync" : "cudaMemcpyFromSymbol");
    if (cudaError_t e = enter(fn)) return e;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(fn, cudaErrorInvalidMemcpyDirection);
    if (kind == cudaMemcpyHostToHost || kind == (to_symbol ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice))
        return fail(fn, cudaErrorInvalidMemcpyDirection);
    if (offset > symbol_size || count > symbol_size - offset) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    int o = classify(other);
    if ((o & DEAD_SIDE) || (kind == cudaMemcpyDeviceToDevice && !(o & (DEVICE_SIDE | MANAGED_SIDE))))
        return fail(fn, cudaErrorInvalidValue);
    if ((o & (DEVICE_SIDE | MANAGED_SIDE)) && !check_range(other, count)) return fail(fn, cudaErrorInvalidValue);
    char *s = (char *)symbol + offset;
    if (async && capture_defers(stream)) {  // a copy node of the captured graph, run with it (capture.cpp)
        if (cudaError_t e = capture_stream_error(stream)) return fail(fn, e);
        copy_op *q = new copy_op;
        q->dst = to_symbol ? s : other; q->src = to_symbol ? other : s;
        q->dpitch = q->spitch = q->width = count; q->height = q->depth = 1; q->dslice = q->sslice = 0;
        q->snapshot = NULL; q->stream = stream;
        enqueue(q);
        return cudaSuccess;
    }
    if (cudaError_t e = flush_stream(stream)) return fail(fn, e);
    if (to_symbol) copy_now(s, count, other, count, count, 1);
    else copy_now(other, count, s, count, count, 1);
    return cudaSuccess;
}

cudaError_t cudawb_symbol_address(void **devPtr, void *symbol, size_t size) {
    if (cudaError_t e = enter("cudaGetSymbolAddress")) return e;
    if (!devPtr) return fail("cudaGetSymbolAddress", cudaErrorInvalidValue);
    register_symbol(symbol, size);
    *devPtr = symbol;
    return cudaSuccess;
}
